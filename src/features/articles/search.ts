import { getSqlite } from "#db/client.ts";
import { highlight, snippet } from "#src/features/search/highlight.ts";
import { ARTICLE_ROWS, PAGE_BITS } from "#src/features/search/indexer.ts";
import { indexFingerprint, type ParsedQuery } from "#src/features/search/text.ts";
import { contentVersion } from "#src/lib/contentVersion.ts";
import { subtreeOf } from "./categories.ts";

// Search type 1: the same FTS5 index, words and ranking as documents, over the article rows
// (rowids from ARTICLE_ROWS up); only approved articles outside the recycle bin are answered.

export interface ArticleHit {
  identifier: string;
  /** HTML: escaped, query words in <mark> */
  title: string;
  /** HTML: escaped, query words in <mark> */
  snippet: string;
  cover: string;
  view_count: number;
  comment_count: number;
  favorite_count: number;
  username: string;
  user_id: number;
  created_at: number;
}

export interface ArticleSearch { total: number; article: ArticleHit[] }

const RANK = "bm25(search_fts, 10.0, 5.0, 2.0, 1.0)";
const ART = `((rowid - ${ARTICLE_ROWS}) >> ${PAGE_BITS})`;
const IN_ARTICLES = `rowid >= ${ARTICLE_ROWS}`;

interface Row {
  id: number; identifier: string; title: string; description: string; content: string; cover: string; view_count: number; comment_count: number;
  favorite_count: number; user_id: number; username: string | null; created_at: number; total: number;
}

function run(q: ParsedQuery, term: (q: ParsedQuery, t: string) => string, opts: { size: number; offset: number; categoryId?: number; sort?: string }): Row[] {
  const args: (string | number)[] = [q.required.map((t) => term(q, t)).join(" OR ")];
  let allWords = "1";
  if (q.required.length > 1) {
    allWords = `(b.art IN (${q.required.map(() => `SELECT ${ART} FROM search_fts WHERE search_fts MATCH ? AND ${IN_ARTICLES}`).join(" INTERSECT ")}))`;
    args.push(...q.required.map((t) => term(q, t)));
  }
  const where = ["a.status = 1", "a.deleted_at IS NULL"];
  if (opts.categoryId) {
    const ids = subtreeOf(opts.categoryId);
    where.push(`a.category_id IN (${ids.map(() => "?").join(",")})`);
    args.push(...ids);
  }
  const order = opts.sort === "latest" ? "a.created_at DESC, a.id DESC" : opts.sort === "downloads" ? "a.view_count DESC, a.id DESC"
    : "b.s * (1 + 0.02 * ln(a.view_count + 1) + 0.05 * a.is_recommend), a.id DESC";
  const sql = `
    WITH m AS MATERIALIZED (SELECT ${ART} AS art, ${RANK} AS s FROM search_fts WHERE search_fts MATCH ? AND ${IN_ARTICLES}),
    b AS (SELECT art, sum(s) AS s FROM m GROUP BY art)
    SELECT a.id, a.identifier, a.title, a.description, a.content, a.cover, a.view_count, a.comment_count, a.favorite_count, a.user_id, a.created_at,
      (SELECT username FROM user u WHERE u.id = a.user_id) AS username, ${allWords} AS all_words, count(*) OVER () AS total
    FROM b JOIN article a ON a.id = b.art
    WHERE ${where.join(" AND ")}
    ORDER BY all_words DESC, ${order}
    LIMIT ? OFFSET ?`;
  return getSqlite().query(sql).all(...args, opts.size, opts.offset) as Row[];
}

// Markdown symbols out of the way of a snippet; the words themselves stay where they were.
const readable = (md: string) => md.replace(/```[^\n]*\n?|[#>*_`~|]+|!?\[([^\]]*)\]\([^)]*\)/g, (_m, label?: string) => label ?? " ");

function hitsOf(rows: Row[], q: ParsedQuery): ArticleHit[] {
  const words = [...q.terms, ...Object.values(q.parts).flat()];
  return rows.map((r) => {
    const body = snippet(readable(r.content), words);
    return {
      identifier: r.identifier, title: highlight(r.title, words),
      snippet: body && /<mark>/.test(body) ? body : snippet(r.description, words) || body,
      cover: r.cover, view_count: r.view_count, comment_count: r.comment_count, favorite_count: r.favorite_count,
      username: r.username ?? "", user_id: r.user_id, created_at: r.created_at,
    };
  });
}

const memo = new Map<string, { at: number; result: ArticleSearch }>();
const MEMO_MAX = 200;
const MEMO_MS = 60_000;

/** One page of matching articles; past `maxPages` only the total is answered. */
export function searchArticles(
  q: ParsedQuery, term: (q: ParsedQuery, t: string) => string,
  opts: { size: number; page: number; maxPages: number; categoryId?: number; sort?: string },
): ArticleSearch {
  const key = JSON.stringify([q, opts, contentVersion(), indexFingerprint()]);
  const hit = memo.get(key);
  if (hit && Date.now() - hit.at < MEMO_MS) return hit.result;
  const base = { categoryId: opts.categoryId, sort: opts.sort };
  let result: ArticleSearch;
  if (opts.page > opts.maxPages) result = { total: run(q, term, { ...base, size: 1, offset: 0 })[0]?.total ?? 0, article: [] };
  else {
    const rows = run(q, term, { ...base, size: opts.size, offset: (opts.page - 1) * opts.size });
    const total = rows[0]?.total ?? (opts.page > 1 ? run(q, term, { ...base, size: 1, offset: 0 })[0]?.total ?? 0 : 0);
    result = { total, article: hitsOf(rows, q) };
  }
  if (memo.size >= MEMO_MAX) memo.delete(memo.keys().next().value!);
  memo.set(key, { at: Date.now(), result });
  return result;
}
