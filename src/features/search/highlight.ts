import { fold } from "./text.ts";

// Highlighting is built here from the stored raw text: escape first, then wrap matches. FTS5's
// own highlight()/snippet() would need the text in the index and would return unescaped text.

const ESC: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESC[c]!);

type Range = [number, number];

/** Where the terms occur in the text (folded both sides; folding keeps positions), merged. */
function ranges(text: string, terms: string[]): Range[] {
  const folded = fold(text);
  const out: Range[] = [];
  for (const t of terms) {
    if (!t) continue;
    for (let i = folded.indexOf(t); i !== -1; i = folded.indexOf(t, i + t.length)) out.push([i, i + t.length]);
  }
  out.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: Range[] = [];
  for (const r of out) {
    const last = merged.at(-1);
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([...r]);
  }
  return merged;
}

/** Escaped text[from, to) with the ranges inside wrapped in <mark>. */
function render(text: string, rs: Range[], from = 0, to = text.length): string {
  let html = "";
  let at = from;
  for (const [a, b] of rs) {
    if (b <= from || a >= to) continue;
    const s = Math.max(a, from);
    const e = Math.min(b, to);
    html += escapeHtml(text.slice(at, s)) + "<mark>" + escapeHtml(text.slice(s, e)) + "</mark>";
    at = e;
  }
  return html + escapeHtml(text.slice(at, to));
}

/** The whole text, escaped, with every occurrence of the terms marked (titles). */
export const highlight = (text: string, terms: string[]) => render(text, ranges(text, terms));

const clean = (s: string) => s.replace(/\s+/g, " ");

/**
 * About `length` characters of the text around the place where the most different terms occur
 * close together, escaped and marked; the text's start when no term occurs.
 */
export function snippet(raw: string, terms: string[], length = 140): string {
  // Whitespace runs become single spaces first so the window holds text, not layout.
  const text = clean(raw).trim();
  if (!text) return "";
  const rs = ranges(text, terms);
  if (!rs.length) return escapeHtml(text.slice(0, length)) + (text.length > length ? "…" : "");
  const folded = fold(text);
  let bestStart = rs[0]![0];
  let bestCount = 0;
  for (const [a] of rs) {
    const seen = new Set<string>();
    for (const [x, y] of rs) if (x >= a && y <= a + length) seen.add(folded.slice(x, y));
    if (seen.size > bestCount) {
      bestCount = seen.size;
      bestStart = a;
    }
  }
  let from = Math.max(0, bestStart - Math.floor(length / 6));
  let to = Math.min(text.length, from + length);
  from = Math.max(0, to - length);
  // Never split a surrogate pair at either edge.
  if (from > 0 && /[\udc00-\udfff]/.test(text[from]!)) from--;
  if (to < text.length && /[\udc00-\udfff]/.test(text[to]!)) to++;
  return (from > 0 ? "…" : "") + render(text, rs, from, to) + (to < text.length ? "…" : "");
}
