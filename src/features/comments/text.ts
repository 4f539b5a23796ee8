// Comment text is plain text: stored as written (normalised), escaped by React when shown, and
// split into text and link pieces only when the site allows clickable links. Pure, for islands too.

/** Line breaks unified, control characters (other than newline and tab) dropped, blank runs shortened. */
export function normalizeContent(raw: string): string {
  return raw
    .replace(/\r\n?/g, "\n")
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, "")
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** Length as users count it: characters, so one emoji or one Chinese character is one. */
export const contentLength = (s: string) => [...s].length;

export type Piece = { text: string; href?: string };

// http(s) URLs up to whitespace, quotes, angle brackets or full-width punctuation that ends a sentence.
const URL_RE = /https?:\/\/[^\s<>"'`，。！？、；：（）【】「」『』《》]+/g;

/** The text as pieces; with links off (or no URL in it) one piece, so nothing becomes clickable. */
export function linkPieces(text: string, allowLinks: boolean): Piece[] {
  if (!allowLinks) return [{ text }];
  const out: Piece[] = [];
  let at = 0;
  for (const m of text.matchAll(URL_RE)) {
    // A trailing ASCII full stop, comma or bracket usually closes the sentence, not the address.
    const url = m[0].replace(/[.,;:!?)\]]+$/, "");
    if (m.index > at) out.push({ text: text.slice(at, m.index) });
    out.push({ text: url, href: url });
    at = m.index + url.length;
  }
  if (at < text.length) out.push({ text: text.slice(at) });
  return out.length ? out : [{ text }];
}
