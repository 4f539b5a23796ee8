import { jieba, tfIdf } from "#src/lib/segmenter.ts";

// Keywords and a description from a document's text, for documents uploaded without them.

// TF-IDF over the first part of a long document is as telling as over all of it, and bounded.
const SAMPLE_CHARS = 30_000;
// A keyword has a Chinese character, or is a real Latin word (not "mv" or "Ek" from formulas).
const useful = (k: string) => /\p{Script=Han}/u.test(k) || /^[A-Za-z][A-Za-z0-9+#.-]{2,}$/.test(k);

/** Up to `count` keywords (TF-IDF over jieba words), most telling first. */
export function extractKeywords(text: string, count = 5): string[] {
  const sample = text.replace(/\s+/g, " ").slice(0, SAMPLE_CHARS);
  if (!sample.trim()) return [];
  const out: string[] = [];
  for (const { keyword } of tfIdf().extractKeywords(jieba(), sample, count * 3)) {
    const k = keyword.trim();
    if ([...k].length < 2 || !useful(k) || out.includes(k)) continue;
    out.push(k);
    if (out.length === count) break;
  }
  return out;
}

/** The first ~`max` characters of clean text, ending at a sentence end when one is near. */
export function summarize(text: string, max = 200): string {
  const clean = text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "").replace(/\s+/g, " ").trim();
  if ([...clean].length <= max) return clean;
  const cut = [...clean].slice(0, max).join("");
  const end = Math.max(...["。", "！", "？", "；", ". ", "! ", "? "].map((p) => cut.lastIndexOf(p)));
  return end >= max * 0.6 ? cut.slice(0, end + 1).trim() : `${cut}…`;
}
