import { getSqlite } from "#db/client.ts";
import { EXT_FILTERS, type ExtKey } from "#src/features/categories/listing.ts";
import { setting } from "#src/features/settings/service.ts";
import { contentVersion } from "#src/lib/contentVersion.ts";
import { searchArticles, type ArticleHit } from "#src/features/articles/search.ts";
import { highlight, snippet } from "./highlight.ts";
import { PAGE_BITS, ensureSearchTables } from "./indexer.ts";
import { indexFingerprint, parseQuery, type ParsedQuery } from "./text.ts";

export type SearchSort = "relevance" | "latest" | "downloads";
export const SEARCH_SORTS: Record<SearchSort, string> = { relevance: "相关度", latest: "最新上传", downloads: "最多下载" };

export interface SearchQuery {
  wd: string;
  /** 0 documents, 1 articles */
  type: number;
  page: number;
  size: number;
  category_id?: number;
  /** a file-type key of the category pages (pdf, doc, ppt, xls, txt, other) or one extension */
  ext?: string;
  sort?: SearchSort;
}

export interface SearchHit {
  uuid: string;
  /** HTML: escaped, query words in <mark> */
  title: string;
  /** HTML: escaped, query words in <mark>; from `page` */
  snippet: string;
  page: number;
  ext: string;
  pages: number;
  size: number;
  score: number;
  download_count: number;
  view_count: number;
  username: string;
  user_id: number;
  created_at: number;
}

/** `article` holds the hits of a type 1 (articles) search; `document` is then empty. */
export interface SearchResult { total: number; spend_ms: number; document: SearchHit[]; article?: ArticleHit[] }

// bm25 column weights: a word in the title counts far more than one in the body.
const RANK = "bm25(search_fts, 10.0, 5.0, 2.0, 1.0)";
const MASK = 2 ** PAGE_BITS - 1;

const quote = (t: string) => `"${t.replace(/"/g, '""')}"`;
/** FTS5 expression of one query word (prefix, or the word OR its parts close together). */
export const term = (q: ParsedQuery, t: string) => {
  if (t === q.prefix) return `${quote(t)}*`;
  const parts = q.parts[t];
  return parts ? `(${quote(t)} OR NEAR(${parts.map(quote).join(" ")}, ${parts.length * 2}))` : quote(t);
};

/** Result pages a visitor may open (display.max_search_pages). */
export const maxSearchPages = () => Math.max(1, Math.floor(Number(setting("display", "max_search_pages")) || 50));

function extList(ext: string | undefined): { sql: string; args: string[] } | null {
  if (!ext) return null;
  const key = ext.replace(/^\./, "").toLowerCase();
  if (key === "other") {
    const known = Object.values(EXT_FILTERS).flatMap((f) => f.exts);
    return { sql: `d.ext NOT IN (${known.map(() => "?").join(",")})`, args: known };
  }
  const exts: readonly string[] = Object.hasOwn(EXT_FILTERS, key) ? EXT_FILTERS[key as ExtKey].exts : [key];
  return { sql: `d.ext IN (${exts.map(() => "?").join(",")})`, args: [...exts] };
}

interface Row {
  id: number; uuid: string; title: string; description: string; ext: string; pages: number; size: number; score: number;
  download_count: number; view_count: number; user_id: number; username: string | null; created_at: number; page: number; total: number;
}

/**
 * How much of the index one query may score. Below `exactRows` matching rows every row is scored
 * by bm25 (the exact ranking). Above it, bm25 alone would cost more than the whole budget: it
 * scores every row, and for its IDF counts the whole doclist of each word once per query (a
 * character like 不 is in most of a million pages). Such a query ranks the newest `windowRows`
 * matching rows instead (the index walks rowids newest first and stops there), widened up to
 * `maxWindowRows` when filters leave too few documents for the asked page.
 */
export const searchTuning = { exactRows: 3000, windowRows: 6000, maxWindowRows: 96_000 };

/** The rowid of the `n`th matching row counted from the newest (1-based), or null when fewer match. */
function nthNewest(match: string, n: number): number | null {
  const r = getSqlite().query("SELECT rowid FROM search_fts WHERE search_fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?").get(match, n - 1) as { rowid: number } | null;
  return r?.rowid ?? null;
}

interface Plan {
  /** the lowest rowid the query reads (0 = every row), for the windowed ranking */
  from: number;
  /** rows are many: no bm25, the newest window only, the total is an estimate */
  windowed: boolean;
}

function filters(opts: SearchQuery, args: (string | number)[]) {
  const where = ["d.status = 2", "d.deleted_at IS NULL"];
  if (opts.category_id) {
    where.push("EXISTS (SELECT 1 FROM document_category dc WHERE dc.document_id = d.id AND dc.category_id = ?)");
    args.push(opts.category_id);
  }
  const ext = extList(opts.ext);
  if (ext) {
    where.push(ext.sql);
    args.push(...ext.args);
  }
  return where;
}

const quality = "(1 + 0.02 * ln(d.download_count + 1) + 0.02 * d.score / 500.0 + 0.03 / (1 + (unixepoch('subsec') * 1000 - d.created_at) / 3.15e10))";

/**
 * One statement: every matching row (OR of the words) scored by bm25, a document's score is its
 * title row's plus its best page's, only visible documents; documents holding all required words
 * come before those holding some; among equals, words close together (NEAR)
 * rank higher and quality (downloads, rating, recency) nudges by at most ~20%.
 * With a window (plan.from > 0) every statement reads only rows from there on, and the score is
 * built without bm25: a match in the title, keywords or description, how many pages match, NEAR,
 * the same quality nudge.
 */
function runQuery(q: ParsedQuery, opts: SearchQuery, offset: number, plan: Plan = { from: 0, windowed: false }): Row[] {
  const multi = q.required.length > 1;
  const relevance = !opts.sort || opts.sort === "relevance";
  // Optional words (a lone 的 next to longer words) do not make a document match on their own.
  const or = q.required.map((t) => term(q, t)).join(" OR ");
  const range = plan.from ? ` AND rowid >= ${Math.floor(plan.from)}` : "";
  let allWords = "1";
  let near = "0";
  const allArgs: string[] = [];
  const nearArgs: string[] = [];
  if (multi) {
    // Document level: every required word somewhere in the title, keywords, description or pages.
    allWords = `(b.doc IN (${q.required.map(() => `SELECT rowid >> ${PAGE_BITS} FROM search_fts WHERE search_fts MATCH ?${range}`).join(" INTERSECT ")}))`;
    allArgs.push(...q.required.map((t) => term(q, t)));
    if (relevance) {
      near = `(b.doc IN (SELECT rowid >> ${PAGE_BITS} FROM search_fts WHERE search_fts MATCH ?${range}))`;
      nearArgs.push(`NEAR(${q.required.map((t) => (t === q.prefix ? `${quote(t)}*` : quote(t))).join(" ")}, ${q.required.length * 2 + 4})`);
    }
  }
  const filterArgs: (string | number)[] = [];
  const where = filters(opts, filterArgs);
  const typeBoost = q.exts.length ? `(1 + 0.5 * (d.ext IN (${q.exts.map(() => "?").join(",")})))` : "1";
  const typeArgs = q.exts;
  // One sort key, ascending: bm25 is negative (lower is better); the windowed score is made
  // negative the same way; ties go to the newer document.
  const key = opts.sort === "latest" ? "-d.created_at"
    : opts.sort === "downloads" ? "-d.download_count"
    : `b.s * (1 + 0.5 * ${near}) * ${typeBoost} * ${quality}`;
  // Windowed score: a match in the title row ×5, more matching pages up to ×(1 + ln n), a page
  // holding every word ×3 (and that page is the one named); negative like bm25.
  const pageArgs = plan.windowed && multi ? [q.required.map((t) => term(q, t)).join(" AND ")] : [];
  const scored = plan.windowed
    ? `m AS MATERIALIZED (SELECT rowid >> ${PAGE_BITS} AS doc, rowid & ${MASK} AS page FROM search_fts WHERE search_fts MATCH ?${range}),
    g AS (SELECT doc, coalesce(min(CASE WHEN page > 0 THEN page END), 1) AS page, max(page = 0) AS t, sum(page > 0) AS n FROM m GROUP BY doc),
    ${multi
      ? `pa AS MATERIALIZED (SELECT rowid >> ${PAGE_BITS} AS doc, min(rowid & ${MASK}) AS page FROM search_fts WHERE search_fts MATCH ?${range} AND (rowid & ${MASK}) > 0 GROUP BY 1),
    b AS (SELECT g.doc, coalesce(pa.page, g.page) AS page, -((1 + 4 * g.t) * (1 + ln(1 + g.n)) * (1 + 2 * (pa.doc IS NOT NULL))) AS s FROM g LEFT JOIN pa ON pa.doc = g.doc)`
      : "b AS (SELECT doc, page, -((1 + 4 * t) * (1 + ln(1 + n))) AS s FROM g)"}`
    : `m AS MATERIALIZED (SELECT rowid >> ${PAGE_BITS} AS doc, rowid & ${MASK} AS page, ${RANK} AS s FROM search_fts WHERE search_fts MATCH ?),
    p AS (SELECT doc, page, min(s) AS s FROM m WHERE page > 0 GROUP BY doc),
    u AS (SELECT doc, page, s FROM p UNION ALL SELECT doc, 0, s FROM m WHERE page = 0),
    b AS (SELECT doc, max(max(page), 1) AS page, sum(s) AS s FROM u GROUP BY doc)`;
  // Every matching visible document as a narrow row (id, page, tier, key); the wide columns and
  // the uploader's name are read for the asked page only, and the total counts the narrow rows.
  const sql = `
    WITH ${scored},
    f AS MATERIALIZED (SELECT b.doc, b.page, ${allWords} AS all_words, ${key} AS k FROM b JOIN document d ON d.id = b.doc WHERE ${where.join(" AND ")}),
    top AS (SELECT * FROM f ORDER BY all_words DESC, k, doc DESC LIMIT ? OFFSET ?)
    SELECT d.id, d.uuid, d.title, d.description, d.ext, d.pages, d.size, d.score, d.download_count, d.view_count, d.user_id, d.created_at,
      (SELECT username FROM user u WHERE u.id = d.user_id) AS username, top.page, (SELECT count(*) FROM f) AS total
    FROM top JOIN document d ON d.id = top.doc
    ORDER BY top.all_words DESC, top.k, top.doc DESC`;
  const keyArgs = relevance ? [...nearArgs, ...typeArgs] : [];
  return getSqlite().query(sql).all(or, ...pageArgs, ...allArgs, ...keyArgs, ...filterArgs, opts.size, offset) as Row[];
}

/**
 * Exact (bm25) when few rows match; else the newest window without bm25 (all rows when they are
 * fewer than the window), widened (×4 each time) while filters leave fewer documents than the
 * asked page needs. The total of a windowed answer is estimated from
 * the share of document ids the window spans.
 */
function plannedQuery(q: ParsedQuery, opts: SearchQuery, offset: number): { rows: Row[]; total: number } {
  const or = q.required.map((t) => term(q, t)).join(" OR ");
  const exact = () => {
    const rows = runQuery(q, opts, offset);
    return { rows, total: rows[0]?.total ?? (offset > 0 ? runQuery(q, { ...opts, size: 1 }, 0)[0]?.total ?? 0 : 0) };
  };
  if (nthNewest(or, searchTuning.exactRows + 1) === null) return exact();
  const newest = (getSqlite().query("SELECT max(id) AS n FROM document").get() as { n: number | null }).n ?? 0;
  for (let window = searchTuning.windowRows; ; window *= 4) {
    // Fewer rows than the window: all of them, still without bm25 (the total is then exact).
    const from = nthNewest(or, window) ?? 0;
    const rows = runQuery(q, opts, offset, { from, windowed: true });
    const seen = rows[0]?.total ?? (offset > 0 ? runQuery(q, { ...opts, size: 1 }, 0, { from, windowed: true })[0]?.total ?? 0 : 0);
    if (!from) return { rows, total: seen };
    if (rows.length === opts.size || window * 4 > searchTuning.maxWindowRows) {
      const spanned = Math.max(1, newest - Math.floor(from / 2 ** PAGE_BITS) + 1);
      return { rows, total: Math.max(seen, Math.round((seen * newest) / spanned)) };
    }
  }
}

function hits(rows: Row[], q: ParsedQuery): SearchHit[] {
  const pageText = getSqlite().query("SELECT text FROM document_page WHERE document_id = ? AND page = ?");
  const words = [...q.terms, ...Object.values(q.parts).flat()];
  return rows.map((r) => {
    const text = (pageText.get(r.id, r.page) as { text: string } | null)?.text ?? "";
    const body = snippet(text, words);
    return {
      uuid: r.uuid, title: highlight(r.title, words),
      // A match in the title or description only: the description stands in for the page.
      snippet: body && /<mark>/.test(body) ? body : snippet(r.description, words) || body,
      page: r.page, ext: r.ext, pages: r.pages, size: r.size, score: r.score, download_count: r.download_count, view_count: r.view_count,
      username: r.username ?? "", user_id: r.user_id, created_at: r.created_at,
    };
  });
}

// A lone Han character also finds the words it starts (月 → 月光), unless the character alone or
// its words reach so many rows that scoring them all would be slow: then the character itself as a
// word is plenty. Counted by walking at most that many rows, never the whole doclist.
function narrowCommonPrefix(q: ParsedQuery): ParsedQuery {
  if (!q.prefix || !/^\p{Script=Han}$/u.test(q.prefix)) return q;
  const n = searchTuning.exactRows + 1;
  return nthNewest(quote(q.prefix), n) !== null || nthNewest(`${quote(q.prefix)}*`, n) !== null ? { ...q, prefix: null } : q;
}

// Same query, same content, same answer: repeated searches (the first result page of a popular
// word) are served from memory until the content version or the index settings change.
const memo = new Map<string, { at: number; total: number; document: SearchHit[] }>();
const MEMO_MAX = 300;
const MEMO_MS = 60_000;

export function searchDocuments(opts: SearchQuery): SearchResult {
  const started = performance.now();
  const spend = () => Math.round((performance.now() - started) * 100) / 100;
  ensureSearchTables();
  const q = narrowCommonPrefix(parseQuery(opts.wd ?? ""));
  const size = Math.min(50, Math.max(1, Math.floor(opts.size) || 10));
  const page = Math.max(1, Math.floor(opts.page) || 1);
  if (!q.terms.length) return { total: 0, spend_ms: spend(), document: [], ...(opts.type === 1 ? { article: [] } : {}) };
  if (opts.type === 1) {
    const r = searchArticles(q, term, { size, page, maxPages: maxSearchPages(), categoryId: opts.category_id, sort: opts.sort });
    return { total: r.total, spend_ms: spend(), document: [], article: r.article };
  }
  const key = JSON.stringify([q, size, page, opts.category_id ?? 0, opts.ext ?? "", opts.sort ?? "relevance", contentVersion(), indexFingerprint()]);
  const hit = memo.get(key);
  if (hit && Date.now() - hit.at < MEMO_MS) return { total: hit.total, spend_ms: spend(), document: hit.document };
  if (page > maxSearchPages()) {
    // Past the last page a visitor may open: the total still tells how much there is.
    return { total: plannedQuery(q, { ...opts, size: 1 }, 0).total, spend_ms: spend(), document: [] };
  }
  const { rows, total } = plannedQuery(q, { ...opts, size }, (page - 1) * size);
  const document = hits(rows, q);
  if (memo.size >= MEMO_MAX) memo.delete(memo.keys().next().value!);
  memo.set(key, { at: Date.now(), total, document });
  return { total, spend_ms: spend(), document };
}
