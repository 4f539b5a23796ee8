import TSCharacters from "opencc-js/dict/TSCharacters";
import TWVariantsRev from "opencc-js/dict/TWVariantsRev";
import HKVariantsRev from "opencc-js/dict/HKVariantsRev";
import { setting } from "#src/features/settings/service.ts";
import { jieba, resetJieba } from "#src/lib/segmenter.ts";

// Text as the index sees it. Index and queries go through the same folding and segmentation, so a
// word found in a query is the same token in the index. Folding never changes a string's length
// (one UTF-16 unit in, one out): highlight positions found in folded text apply to the raw text.

// Traditional → simplified, one character to one character (OpenCC's tables; regional variants
// first). Phrase-level conversion would be more exact but changes lengths and costs ~10× more.
let t2s: Map<number, number> | null = null;
function traditionalMap(): Map<number, number> {
  if (t2s) return t2s;
  const m = new Map<number, number>();
  const add = (table: string) => {
    for (const pair of table.split("|")) {
      const [from, to] = pair.split(" ");
      if (from?.length === 1 && to?.length === 1) m.set(from.charCodeAt(0), m.get(to.charCodeAt(0)) ?? to.charCodeAt(0));
    }
  };
  add(TSCharacters);
  // Variant → standard traditional, then through the table above to simplified.
  for (const table of [TWVariantsRev, HKVariantsRev]) {
    for (const pair of table.split("|")) {
      const [from, to] = pair.split(" ");
      if (from?.length === 1 && to?.length === 1) m.set(from.charCodeAt(0), m.get(to.charCodeAt(0)) ?? to.charCodeAt(0));
    }
  }
  t2s = m;
  return m;
}

export const traditionalEnabled = () => setting<boolean>("search", "enable_traditional") !== false;

/** Full-width → half-width, upper → lower case, (optionally) traditional → simplified; same length. */
export function fold(text: string, traditional = traditionalEnabled()): string {
  const map = traditional ? traditionalMap() : null;
  let out = "";
  let changed = false;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    const orig = c;
    if (c >= 0xff01 && c <= 0xff5e) c -= 0xfee0;
    else if (c === 0x3000) c = 0x20;
    if (c >= 0x41 && c <= 0x5a) c += 0x20;
    else if (c >= 0xc0 && c < 0x250) {
      const low = String.fromCharCode(c).toLowerCase();
      if (low.length === 1) c = low.charCodeAt(0);
    } else if (map && c >= 0x3400) c = map.get(c) ?? c;
    if (c !== orig) changed = true;
    out += String.fromCharCode(c);
  }
  return changed ? out : text;
}

// A token the index keeps: it holds a letter or a digit (Han characters are letters).
const WORDLIKE = /[\p{L}\p{N}]/u;
const HAN = /^\p{Script=Han}$/u;

/** The site's own words (search.dictionary), applied to the shared jieba on first use after a change. */
let applied: string | null = null;
let appliedWords = new Set<string>();

export function parseDictionary(raw: string, traditional = traditionalEnabled()): { word: string; freq: number }[] {
  const out: { word: string; freq: number }[] = [];
  for (const line of raw.split(/\r?\n/)) {
    const [word, freq] = line.trim().split(/\s+/);
    if (!word) continue;
    const n = Number(freq);
    // jieba ignores a word without a frequency; a common word's weight makes it win over its parts.
    out.push({ word: fold(word, traditional), freq: Number.isInteger(n) && n > 0 ? n : 20000 });
  }
  return out;
}

/** What indexing depends on besides the text: the site's dictionary and the traditional folding. */
export interface IndexSettings { dictionary: string; traditional: boolean }
export const indexSettings = (): IndexSettings => ({ dictionary: String(setting("search", "dictionary") ?? ""), traditional: traditionalEnabled() });

function ensureDictionary({ dictionary: raw, traditional }: IndexSettings = indexSettings()) {
  const key = `${raw}\u0000${traditional}`;
  if (key === applied) return;
  const words = parseDictionary(raw, traditional);
  const next = new Set(words.map((w) => w.word));
  // jieba can add words but not forget them: a removed word needs a fresh instance.
  if ([...appliedWords].some((w) => !next.has(w))) resetJieba();
  if (words.length) jieba().loadDict(new TextEncoder().encode(words.map((w) => `${w.word} ${w.freq}`).join("\n") + "\n"));
  applied = key;
  appliedWords = next;
}

/** What the current dictionary and folding settings produce; a change means old rows need re-segmenting. */
export const indexFingerprint = () => `${Bun.hash(String(setting("search", "dictionary") ?? "")).toString(36)}:${traditionalEnabled() ? 1 : 0}`;

/** Index form of a text: search-mode words (compounds and their parts) joined by spaces. */
export function indexText(text: string): string {
  return text ? indexTextWith(text, indexSettings()) : "";
}

/**
 * indexText with the settings given rather than read: a Worker thread (the conversion's text work,
 * src/features/convert/textWork.ts) has no settings of its own and gets the main thread's.
 */
export function indexTextWith(text: string, s: IndexSettings): string {
  if (!text) return "";
  ensureDictionary(s);
  return jieba().cutForSearch(fold(text, s.traditional), true).filter((w) => WORDLIKE.test(w)).join(" ");
}

/** A document's (or article's) index row 0 before segmentation: title, keywords (one per word), description. */
export const headTexts = (d: { title: string; keywords: string; description: string }): string[] =>
  [d.title, d.keywords.replace(/[,，;；、]/g, " "), d.description];

/** File-type words a visitor may add to a query ("合同 word"): they boost documents of that type. */
export const TYPE_WORDS: Record<string, string[]> = {
  pdf: ["pdf"], word: ["doc", "docx", "wps", "rtf", "odt"], doc: ["doc", "docx", "wps", "rtf", "odt"], docx: ["doc", "docx"],
  ppt: ["ppt", "pptx", "odp"], pptx: ["ppt", "pptx"], excel: ["xls", "xlsx", "ods", "csv"], xls: ["xls", "xlsx", "ods", "csv"], xlsx: ["xls", "xlsx"],
  txt: ["txt", "md"],
};

export interface ParsedQuery {
  /** folded query words (precise mode), in query order, deduplicated */
  terms: string[];
  /** words every result should hold (single Han characters are optional next to longer words) */
  required: string[];
  /** the last word may be the start of a longer one (pure-letter words as typed, one Han character) */
  prefix: string | null;
  /** extensions named by a file-type word in the query */
  exts: string[];
  /**
   * Search-mode parts of each longer word: in running text jieba may cut 劳动合同范本 as 劳动 /
   * 合同范本, so the index has no 劳动合同 token; its parts close together stand in for it.
   */
  parts: Record<string, string[]>;
}

/** At most this many words take part in a query: more only slow it down without changing the top. */
const MAX_TERMS = 8;

export function parseQuery(wd: string): ParsedQuery {
  const text = fold(wd.trim().slice(0, 64));
  ensureDictionary();
  const words = [...new Set(jieba().cut(text, true).map((w) => w.trim()).filter((w) => WORDLIKE.test(w)))].slice(0, MAX_TERMS);
  const exts = [...new Set(words.flatMap((w) => TYPE_WORDS[w] ?? []))];
  // A type word next to other words filters nothing out: it only ranks that type higher.
  const content = words.filter((w) => !TYPE_WORDS[w]);
  const terms = content.length ? content : words;
  const long = terms.filter((w) => !HAN.test(w));
  const required = long.length ? long : terms;
  const last = terms.at(-1) ?? null;
  // Typing "javasc" finds JavaScript; a lone Han character also finds the words it starts.
  const prefix = last && (/^[a-z][a-z0-9]*$/.test(last) && last.length >= 2 ? true : terms.length === 1 && HAN.test(last)) ? last : null;
  const parts: Record<string, string[]> = {};
  for (const w of terms) {
    if (w.length < 3 || w === prefix) continue;
    const p = [...new Set(jieba().cutForSearch(w, true).filter((x) => x !== w && WORDLIKE.test(x)))];
    if (p.length >= 2) parts[w] = p;
  }
  return { terms, required, prefix, exts, parts };
}
