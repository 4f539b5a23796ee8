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
 * One statement: every matching row (OR of the words) scored by bm25, a document's score is its
 * title row's plus its best page's, only visible documents; documents holding all required words
 * come before those holding some; among equals, words close together (NEAR)
 * rank higher and quality (downloads, rating, recency) nudges by at most ~20%.
 */
function runQuery(q: ParsedQuery, opts: SearchQuery, offset: number): Row[] {
  const multi = q.required.length > 1;
  // Optional words (a lone 的 next to longer words) do not make a document match on their own.
  const or = q.required.map((t) => term(q, t)).join(" OR ");
  const args: (string | number)[] = [or];
  let allWords = "1";
  let near = "0";
  if (multi) {
    // Document level: every required word somewhere in the title, keywords, description or pages.
    allWords = `(b.doc IN (${q.required.map(() => `SELECT rowid >> ${PAGE_BITS} FROM search_fts WHERE search_fts MATCH ?`).join(" INTERSECT ")}))`;
    args.push(...q.required.map((t) => term(q, t)));
    near = `(b.doc IN (SELECT rowid >> ${PAGE_BITS} FROM search_fts WHERE search_fts MATCH ?))`;
    args.push(`NEAR(${q.required.map((t) => (t === q.prefix ? `${quote(t)}*` : quote(t))).join(" ")}, ${q.required.length * 2 + 4})`);
  }
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
  const typeBoost = q.exts.length ? `(1 + 0.5 * (d.ext IN (${q.exts.map(() => "?").join(",")})))` : "1";
  const typeArgs = q.exts;
  const quality = "(1 + 0.02 * ln(d.download_count + 1) + 0.02 * d.score / 500.0 + 0.03 / (1 + (unixepoch('subsec') * 1000 - d.created_at) / 3.15e10))";
  const order = opts.sort === "latest" ? "d.created_at DESC, d.id DESC"
    : opts.sort === "downloads" ? "d.download_count DESC, d.id DESC"
    : `b.s * (1 + 0.5 * near) * ${typeBoost} * ${quality}, d.id DESC`;
  const sql = `
    WITH m AS MATERIALIZED (SELECT rowid >> ${PAGE_BITS} AS doc, rowid & ${MASK} AS page, ${RANK} AS s FROM search_fts WHERE search_fts MATCH ?),
    p AS (SELECT doc, page, min(s) AS s FROM m WHERE page > 0 GROUP BY doc),
    u AS (SELECT doc, page, s FROM p UNION ALL SELECT doc, 0, s FROM m WHERE page = 0),
    b AS (SELECT doc, max(max(page), 1) AS page, sum(s) AS s FROM u GROUP BY doc)
    SELECT d.id, d.uuid, d.title, d.description, d.ext, d.pages, d.size, d.score, d.download_count, d.view_count, d.user_id, d.created_at,
      (SELECT username FROM user u WHERE u.id = d.user_id) AS username, b.page, ${allWords} AS all_words, ${near} AS near,
      count(*) OVER () AS total
    FROM b JOIN document d ON d.id = b.doc
    WHERE ${where.join(" AND ")}
    ORDER BY all_words DESC, ${order}
    LIMIT ? OFFSET ?`;
  const orderArgs = opts.sort && opts.sort !== "relevance" ? [] : typeArgs;
  return getSqlite().query(sql).all(...args, ...orderArgs, opts.size, offset) as Row[];
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

// A lone Han character also finds the words it starts (月 → 月光), unless that reaches so many
// rows that scoring them all would be slow: then the character itself as a word is plenty.
const PREFIX_MAX_ROWS = 5000;
function narrowCommonPrefix(q: ParsedQuery): ParsedQuery {
  if (!q.prefix || !/^\p{Script=Han}$/u.test(q.prefix)) return q;
  const n = (getSqlite().query("SELECT count(*) AS n FROM search_fts WHERE search_fts MATCH ?").get(`${quote(q.prefix)}*`) as { n: number }).n;
  return n > PREFIX_MAX_ROWS ? { ...q, prefix: null } : q;
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
    const first = runQuery(q, { ...opts, size: 1 }, 0);
    return { total: first[0]?.total ?? 0, spend_ms: spend(), document: [] };
  }
  const rows = runQuery(q, { ...opts, size }, (page - 1) * size);
  const total = rows[0]?.total ?? (page > 1 ? runQuery(q, { ...opts, size: 1 }, 0)[0]?.total ?? 0 : 0);
  const document = hits(rows, q);
  if (memo.size >= MEMO_MAX) memo.delete(memo.keys().next().value!);
  memo.set(key, { at: Date.now(), total, document });
  return { total, spend_ms: spend(), document };
}
