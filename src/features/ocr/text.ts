// Pure text helpers of OCR: which pages lack a text layer, how recognised text is tidied, and the
// character error rate the bench (scripts/bench/ocr.ts) reports.

/** Characters that are not white space: what "a page has text" is measured in. */
export const visibleChars = (text: string) => text.replace(/\s+/g, "").length;

/** A page with fewer visible characters than `minChars` has no real text layer (a scan, a photo). */
export const needsOcr = (text: string, minChars: number) => visibleChars(text) < minChars;

/**
 * Pages (1-based) to recognise: every page without a real text layer, the first `maxPages` of
 * them; `over` counts the ones left out by the limit.
 */
export function choosePages(texts: string[], minChars: number, maxPages: number): { pages: number[]; over: number } {
  const all = texts.flatMap((t, i) => (needsOcr(t, minChars) ? [i + 1] : []));
  return { pages: all.slice(0, maxPages), over: Math.max(0, all.length - maxPages) };
}

// Han characters, CJK symbols and punctuation (、。「」), full-width forms (，：；！？) and kana.
const CJK = "\\u2e80-\\u2fdf\\u3000-\\u303f\\u3040-\\u30ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff\\uff00-\\uffef";
const SPACE_BETWEEN_CJK = new RegExp(`(?<=[${CJK}])[ \\t\\u00a0]+(?=[${CJK}])`, "g");

/**
 * Recognised text as page text: engines put spaces between Han characters (Tesseract does per
 * glyph), which would split words for search and read oddly; spaces between Latin words stay.
 */
export function cleanOcrText(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(SPACE_BETWEEN_CJK, "")
    .replace(/[ \t\u00a0]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** Text compared character by character: NFKC (full-width ，：→ ,:), no white space at all. */
export const normalizeForCer = (text: string) => [...text.normalize("NFKC").replace(/\s+/g, "")];

/** Levenshtein distance between two character lists, in O(min) memory. */
export function editDistance(a: string[], b: string[]): number {
  if (a.length < b.length) [a, b] = [b, a];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/** Character error rate of `hypothesis` against `reference` (edits ÷ reference length). */
export function cer(reference: string, hypothesis: string): number {
  const ref = normalizeForCer(reference);
  const hyp = normalizeForCer(hypothesis);
  if (!ref.length) return hyp.length ? 1 : 0;
  return editDistance(ref, hyp) / ref.length;
}
