// Page text → overlapping windows for embedding. Pure: it sees one page, so a chunk never crosses
// pages and always keeps its page number. Windows end at a sentence end when one lies in the last
// part of the window (a vector of whole sentences matches a question better than one cut
// mid-clause), else at a clause mark, else at the size limit.

export interface ChunkOptions {
  /** target characters per window */
  size?: number;
  /** characters repeated from the end of one window at the start of the next */
  overlap?: number;
}

export interface PageChunk {
  /** offset of the window in the page text: text === page.slice(start, start + text.length) */
  start: number;
  text: string;
}

export const DEFAULT_CHUNK_SIZE = 400;
export const DEFAULT_CHUNK_OVERLAP = 60;

const SENTENCE_END = /[。！？!?；;…\n]/;
const CLAUSE_END = /[，、,：:\s]/;
// Closing marks that belong to the sentence before them: 他说：“好。” keeps its ”.
const CLOSERS = /[”’"'」』）)】》]/;
// The last 40% of a window is where a break is looked for; earlier breaks make windows too short.
const SEARCH_FROM = 0.6;
// A tail shorter than this share of a window rides along with the previous window instead.
const TAIL = 0.2;

const isSpace = (ch: string | undefined) => ch !== undefined && /\s/.test(ch);
const isLowSurrogate = (text: string, i: number) => {
  const c = text.charCodeAt(i);
  return c >= 0xdc00 && c <= 0xdfff;
};

/** Index just after the last break of `kind` in [from, to), with its closing marks; -1 when none. */
function lastBreak(text: string, from: number, to: number, kind: RegExp): number {
  for (let i = to - 1; i >= from; i--) {
    if (!kind.test(text[i]!)) continue;
    let end = i + 1;
    while (end < text.length && CLOSERS.test(text[end]!)) end++;
    return end;
  }
  return -1;
}

/** Where a window starting at `start` ends. */
function windowEnd(text: string, start: number, size: number): number {
  const hard = start + size;
  if (text.length - start <= size * (1 + TAIL)) return text.length;
  const from = start + Math.floor(size * SEARCH_FROM);
  const sentence = lastBreak(text, from, hard, SENTENCE_END);
  if (sentence > start) return Math.min(sentence, hard + 4);
  const clause = lastBreak(text, from, hard, CLAUSE_END);
  if (clause > start) return Math.min(clause, hard + 4);
  // No break at all (a table dump, a URL): cut, but never inside a surrogate pair.
  return isLowSurrogate(text, hard) ? hard - 1 : hard;
}

/** Where the next window starts: about `overlap` before `end`, at a sentence start when one is near. */
function nextStart(text: string, start: number, end: number, overlap: number): number {
  if (overlap <= 0) return end;
  let next = Math.max(start + 1, end - overlap);
  // Begin the overlap at a sentence start inside it, so the next window does not open mid-sentence.
  for (let i = next; i < end - 1; i++) {
    if (SENTENCE_END.test(text[i]!)) {
      let j = i + 1;
      while (j < end && CLOSERS.test(text[j]!)) j++;
      if (j < end) next = j;
      break;
    }
  }
  return isLowSurrogate(text, next) ? next - 1 : next;
}

/** Splits one page's text into windows; whitespace-only text gives none, no window is ever blank. */
export function chunkPage(text: string, opts: ChunkOptions = {}): PageChunk[] {
  const size = Math.max(20, Math.floor(opts.size ?? DEFAULT_CHUNK_SIZE));
  const overlap = Math.max(0, Math.min(Math.floor(size / 2), Math.floor(opts.overlap ?? DEFAULT_CHUNK_OVERLAP)));
  const out: PageChunk[] = [];
  let start = 0;
  while (start < text.length) {
    while (start < text.length && isSpace(text[start])) start++;
    if (start >= text.length) break;
    const end = windowEnd(text, start, size);
    const body = text.slice(start, end).trimEnd();
    if (body) out.push({ start, text: body });
    if (end >= text.length) break;
    start = nextStart(text, start, end, overlap);
  }
  return out;
}
