// Instant title suggestions for the header search box: in-memory indexes over the titles of
// visible documents and, for the box on article pages, of visible articles. Each is built on first
// use and rebuilt in the background (at most once per REFRESH_MS) when content changes; the old
// index keeps answering while a new one is built.
import SearchableMap from "minisearch/SearchableMap";
import { and, inArray, sql } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { article } from "#db/schema/articles.ts";
import { document } from "#db/schema/documents.ts";
import { visibleArticle } from "#src/features/articles/listing.ts";
import { visibleDocument } from "#src/features/documents/status.ts";
import { log } from "#src/http/requestLog.ts";
import { contentVersion } from "#src/lib/contentVersion.ts";

/** `url` is what a pick opens; documents also carry their uuid, articles their identifier. */
export interface Suggestion { title: string; url: string; uuid?: string; identifier?: string }

export const SUGGEST_LIMIT = 8;
const REFRESH_MS = 10_000;
const CHUNK = 2000;

// Han text has no spaces: single characters and overlapping bigrams make any part of a title
// findable. Other letters and digits form words, matched by prefix (and fuzzily when long).
const RUN = /\p{Script=Han}+|(?:(?!\p{Script=Han})[\p{L}\p{N}])+/gu;
const HAN = /^\p{Script=Han}/u;
const fold = (s: string) => s.normalize("NFKC").toLowerCase();

/** Terms stored for a title: every Han character and Han bigram, and every other word. */
export function titleTerms(text: string): string[] {
  const out: string[] = [];
  for (const [run] of fold(text).matchAll(RUN)) {
    if (!HAN.test(run)) {
      out.push(run);
      continue;
    }
    const cs = [...run];
    for (let i = 0; i < cs.length; i++) {
      out.push(cs[i]!);
      if (i + 1 < cs.length) out.push(cs[i]! + cs[i + 1]!);
    }
  }
  return out;
}

/** Terms of a query: Han bigrams (a lone character stays one term) and other words. */
export function queryTerms(text: string): string[] {
  const out: string[] = [];
  for (const [run] of fold(text).matchAll(RUN)) {
    const cs = [...run];
    if (!HAN.test(run) || cs.length === 1) out.push(run);
    else for (let i = 0; i + 1 < cs.length; i++) out.push(cs[i]! + cs[i + 1]!);
  }
  return [...new Set(out)];
}

const latin = (term: string) => !HAN.test(term);

/**
 * Postings as typed arrays of document slots. MiniSearch's own index (a Map per term and document)
 * took 44 s and +470 MB RSS for 100k Chinese titles; its radix tree over the latin words alone,
 * with flat postings, keeps prefix and fuzzy matching at a fraction of that.
 */
interface Index {
  ids: Int32Array;
  lens: Uint16Array;
  han: Map<string, Int32Array>;
  words: SearchableMap<Int32Array>;
  /** per-query scratch, reset after each query (queries run synchronously) */
  hits: Uint8Array;
  score: Float32Array;
}

function compile(ids: number[], lens: number[], postings: Map<string, number[]>): Index {
  const han = new Map<string, Int32Array>();
  const words = new SearchableMap<Int32Array>();
  for (const [term, list] of postings) (latin(term) ? words : han).set(term, Int32Array.from(list));
  const n = ids.length;
  return { ids: Int32Array.from(ids), lens: Uint16Array.from(lens), han, words, hits: new Uint8Array(n), score: new Float32Array(n) };
}

/** Posting lists a query term matches, best first, with the weight of each kind of match. */
function matches(ix: Index, term: string): [Int32Array, number][] {
  if (!latin(term)) {
    const p = ix.han.get(term);
    return p ? [[p, 3]] : [];
  }
  const out: [Int32Array, number][] = [];
  const exact = ix.words.get(term);
  if (exact) out.push([exact, 3]);
  let n = 0;
  for (const [w, p] of ix.words.atPrefix(term)) {
    if (w !== term) out.push([p, 2]);
    if (++n >= 500) break;
  }
  if (term.length >= 4) {
    for (const [w, [p]] of ix.words.fuzzyGet(term, term.length >= 8 ? 2 : 1)) if (!w.startsWith(term)) out.push([p, 1]);
  }
  return out;
}

/** Slots of documents matching every term: best score, then shortest title, then newest. */
function query(ix: Index, terms: string[], limit: number): number[] {
  const lists = terms.map((t) => matches(ix, t));
  if (!lists.length || lists.some((l) => !l.length)) return [];
  // The rarest term first: it bounds the candidates every later term is checked against.
  const size = (l: [Int32Array, number][]) => l.reduce((s, [p]) => s + p.length, 0);
  lists.sort((a, b) => size(a) - size(b));
  const { hits, score } = ix;
  const candidates: number[] = [];
  lists.forEach((list, i) => {
    for (const [posting, weight] of list) {
      for (const slot of posting) {
        if (hits[slot] !== i) continue;
        hits[slot] = i + 1;
        score[slot] += weight;
        if (i === 0) candidates.push(slot);
      }
    }
  });
  const found = candidates.filter((s) => hits[s] === lists.length);
  found.sort((a, b) => score[b]! - score[a]! || ix.lens[a]! - ix.lens[b]! || ix.ids[b]! - ix.ids[a]!);
  for (const s of candidates) hits[s] = 0, score[s] = 0;
  return found.slice(0, limit).map((s) => ix.ids[s]!);
}

/** One kind of titles the box suggests: which rows are visible and what a pick opens. */
interface Source {
  name: string;
  /** count, ids and last edit of the visible set; equal means no rebuild is needed */
  signature(): string;
  /** visible rows after this id, in id order */
  page(after: number, limit: number): { id: number; title: string }[];
  /** the suggestions of these ids that are still visible, by id */
  resolve(ids: number[]): Map<number, Suggestion>;
}

/** The index of one source, built on first use and refreshed in the background. */
function suggester(src: Source) {
  let current: { index: Index; version: number; signature: string } | null = null;
  let building: Promise<void> | null = null;
  let lastCheck = 0;

  async function build(version: number) {
    const started = performance.now();
    const sig = src.signature();
    const ids: number[] = [];
    const lens: number[] = [];
    const postings = new Map<string, number[]>();
    // Reads and indexes in id order, yielding between chunks so requests keep being served.
    for (let after = 0; ; ) {
      const rows = src.page(after, CHUNK);
      if (!rows.length) break;
      for (const r of rows) {
        const slot = ids.length;
        ids.push(r.id);
        lens.push(Math.min(65535, r.title.length));
        for (const term of titleTerms(r.title)) {
          const list = postings.get(term);
          if (!list) postings.set(term, [slot]);
          else if (list[list.length - 1] !== slot) list.push(slot);
        }
      }
      after = rows.at(-1)!.id;
      await new Promise((r) => setTimeout(r, 0));
    }
    current = { index: compile(ids, lens, postings), version, signature: sig };
    log("info", "search suggest index built", { source: src.name, rows: ids.length, terms: postings.size, ms: Math.round(performance.now() - started) });
  }

  function startBuild(version: number) {
    building ??= build(version)
      .catch((err) => log("error", "search suggest index failed", { source: src.name, error: String(err) }))
      .finally(() => (building = null));
    return building;
  }

  // A function, so TypeScript does not keep the narrowing of `current` across the await below.
  const built = (): Index | null => current?.index ?? null;

  /** The index to answer from: waits only for the very first build. */
  async function ready(now = Date.now()): Promise<Index | null> {
    const version = contentVersion();
    if (!current) {
      await startBuild(version);
      return built();
    }
    if (current.version !== version && !building && now - lastCheck >= REFRESH_MS) {
      lastCheck = now;
      if (src.signature() === current.signature) current.version = version;
      else void startBuild(version);
    }
    return current.index;
  }

  return {
    async suggest(wd: string, limit: number): Promise<Suggestion[]> {
      const q = wd.trim().slice(0, 64);
      if (!queryTerms(q).length) return [];
      const index = await ready();
      if (!index) return [];
      const ids = query(index, queryTerms(q), limit);
      if (!ids.length) return [];
      // Re-checked here: a row hidden since the last build is never suggested.
      const byId = src.resolve(ids);
      return ids.flatMap((id) => byId.get(id) ?? []);
    },
    idle: () => building ?? Promise.resolve(),
    reset: () => ((current = null), (lastCheck = 0)),
    expire: () => (lastCheck = 0),
    stats: () => ({ rows: current?.index.ids.length ?? 0, terms: (current?.index.han.size ?? 0) + (current?.index.words.size ?? 0) }),
  };
}

const documents = suggester({
  name: "documents",
  signature() {
    const r = getDb()
      .select({ n: sql<number>`count(*)`, ids: sql<number>`total(${document.id})`, at: sql<number>`max(${document.updated_at})` })
      .from(document).where(visibleDocument()).get()!;
    return `${r.n}:${r.ids}:${r.at ?? 0}`;
  },
  page: (after, limit) =>
    getDb().select({ id: document.id, title: document.title }).from(document)
      .where(and(visibleDocument(), sql`${document.id} > ${after}`)).orderBy(document.id).limit(limit).all(),
  resolve(ids) {
    const rows = getDb().select({ id: document.id, title: document.title, uuid: document.uuid }).from(document).where(and(inArray(document.id, ids), visibleDocument())).all();
    return new Map(rows.map((r) => [r.id, { title: r.title, uuid: r.uuid, url: `/document/${r.uuid}` }]));
  },
});

const articles = suggester({
  name: "articles",
  signature() {
    const r = getDb()
      .select({ n: sql<number>`count(*)`, ids: sql<number>`total(${article.id})`, at: sql<number>`max(${article.updated_at})` })
      .from(article).where(visibleArticle()).get()!;
    return `${r.n}:${r.ids}:${r.at ?? 0}`;
  },
  page: (after, limit) =>
    getDb().select({ id: article.id, title: article.title }).from(article)
      .where(and(visibleArticle(), sql`${article.id} > ${after}`)).orderBy(article.id).limit(limit).all(),
  resolve(ids) {
    const rows = getDb().select({ id: article.id, title: article.title, identifier: article.identifier }).from(article).where(and(inArray(article.id, ids), visibleArticle())).all();
    return new Map(rows.map((r) => [r.id, { title: r.title, identifier: r.identifier, url: `/article/${r.identifier}` }]));
  },
});

/** Up to `limit` visible documents whose titles match what has been typed so far. */
export const suggestTitles = (wd: string, limit = SUGGEST_LIMIT) => documents.suggest(wd, limit);

/** The same for approved articles outside the recycle bin (the box on article pages). */
export const suggestArticleTitles = (wd: string, limit = SUGGEST_LIMIT) => articles.suggest(wd, limit);

/** Resolves when no rebuild is running (tests, benchmarks). */
export const suggestIdle = () => Promise.all([documents.idle(), articles.idle()]).then(() => {});

/** Forgets the indexes; the next request builds them again (tests switching databases). */
export function resetSuggestIndex() {
  documents.reset();
  articles.reset();
}

/** Lets the next request look for changes at once instead of waiting for the refresh interval. */
export function expireSuggestCheck() {
  documents.expire();
  articles.expire();
}

export const suggestStats = () => {
  const d = documents.stats();
  const a = articles.stats();
  return { documents: d.rows, articles: a.rows, terms: d.terms + a.terms };
};
