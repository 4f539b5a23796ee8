import { getSqlite } from "#db/client.ts";
import { term } from "#src/features/search/service.ts";
import { PAGE_BITS, ensureSearchTables } from "#src/features/search/indexer.ts";
import { parseQuery, type ParsedQuery } from "#src/features/search/text.ts";
import { contentVersion } from "#src/lib/contentVersion.ts";
import type { RetrievalScope, RetrievedPage } from "../retrieve.ts";
import { capPerDocument, fillWithFirstPages, PER_DOCUMENT, readable, scopeSql } from "./access.ts";

// Keyword retrieval: pages ranked by BM25 over the full-text index (search_fts), the same index and
// segmentation as the site search. On its own it is what retrieve() answers with embeddings off.

/** Knobs the retrieval harness tunes (scripts/bench/retrieval.ts); the defaults are what it chose. */
export interface KeywordTuning {
  /** share of the document's title-row score (title, keywords, description) added to each of its pages */
  titleBoost: number;
  /** a word found in more than this share of the index's rows is left out when rarer words remain */
  commonShare: number;
  /** at most this many words, rarest first */
  maxWords: number;
}

export const KEYWORD_TUNING: KeywordTuning = { titleBoost: 0.3, commonShare: 0.05, maxWords: 6 };

const MASK = 2 ** PAGE_BITS - 1;

/**
 * Today's BM25 page retrieval: the query's telling words OR'ed, pages scored by bm25 plus a share
 * of their document's title row, at most PER_DOCUMENT pages per document, and a scoped topic's
 * first pages when the words find fewer than `limit`.
 */
export function keywordRetrieve(query: string, scope: RetrievalScope, tuning: KeywordTuning = KEYWORD_TUNING): RetrievedPage[] {
  const limit = Math.max(1, Math.min(50, scope.limit));
  return fillWithFirstPages(keywordPages(query, scope, limit, PER_DOCUMENT, tuning), scope, limit);
}

/** BM25 pages for the query, best first, at most `perDocument` per document (no first-page filler). */
export function keywordPages(query: string, scope: RetrievalScope, limit: number, perDocument = PER_DOCUMENT, tuning: KeywordTuning = KEYWORD_TUNING): RetrievedPage[] {
  const match = keywordMatch(query, tuning);
  return match ? matchPages(match, scope, limit, perDocument, tuning.titleBoost) : [];
}

/** The FTS5 expression retrieval runs for `query` (its telling words OR'ed), or null when it has none. */
export function keywordMatch(query: string, tuning: KeywordTuning = KEYWORD_TUNING): string | null {
  ensureSearchTables();
  const q = parseQuery(query);
  const words = telling(q, q.required, tuning);
  return words.length ? words.map((t) => term(q, t)).join(" OR ") : null;
}

// Rows in the index, remembered per content version (counting a contentless FTS5 table scans it).
let indexRows = { version: -1, n: 0 };
function rowsInIndex() {
  if (indexRows.version !== contentVersion()) indexRows = { version: contentVersion(), n: getSqlite().query<{ n: number }, []>("SELECT count(*) AS n FROM search_fts").get()!.n };
  return indexRows.n;
}

/**
 * The query's words that tell pages apart, rarest first. A word found in more than commonShare of
 * the rows ranks nothing (bm25 gives it almost no weight) but costs a score for every one of those
 * rows: it is left out when rarer words remain.
 */
function telling(q: ParsedQuery, words: string[], tuning: KeywordTuning): string[] {
  if (words.length <= 1) return words;
  const count = getSqlite().query<{ cnt: number }, [string]>("SELECT cnt FROM search_vocab WHERE term = ?");
  // A word the index holds only as parts (劳动合同 → 劳动 / 合同) is as common as its rarest part.
  const rowsOf = (w: string) => count.get(w)?.cnt ?? Math.min(...(q.parts[w] ?? []).map((p) => count.get(p)?.cnt ?? 0), Infinity);
  const counted = words.map((w) => ({ w, n: rowsOf(w) })).filter((x) => x.n > 0 && x.n !== Infinity).sort((a, b) => a.n - b.n);
  if (!counted.length) return words;
  const limit = rowsInIndex() * tuning.commonShare;
  return counted.filter((x, i) => i === 0 || x.n <= limit).slice(0, tuning.maxWords).map((x) => x.w);
}

function matchPages(match: string, scope: RetrievalScope, limit: number, perDocument: number, titleBoost: number): RetrievedPage[] {
  // The title row (page 0) of a document lends part of its score to the document's pages.
  const rows = getSqlite().query<RetrievedPage, Record<string, string | number>>(`
    WITH m AS MATERIALIZED (SELECT rowid >> ${PAGE_BITS} AS doc, rowid & ${MASK} AS page, bm25(search_fts, 10.0, 5.0, 2.0, 1.0) AS s FROM search_fts WHERE search_fts MATCH :match),
    t AS (SELECT doc, s FROM m WHERE page = 0)
    SELECT d.id AS document_id, d.uuid, d.title, p.page, p.text, -(m.s + :boost * coalesce(t.s, 0)) AS score
    FROM m JOIN document d ON d.id = m.doc JOIN document_page p ON p.document_id = m.doc AND p.page = m.page LEFT JOIN t ON t.doc = m.doc
    WHERE m.page > 0 AND ${readable}${scopeSql(scope.documentIds)}
    ORDER BY score DESC LIMIT :take`).all({ match, user: scope.userId, take: limit * 4, boost: titleBoost });
  return capPerDocument(rows, limit, perDocument).map((r) => ({ ...r, score: Math.round(r.score * 1000) / 1000 }));
}
