import { getSqlite } from "#db/client.ts";
import { term } from "#src/features/search/service.ts";
import { PAGE_BITS, ensureSearchTables } from "#src/features/search/indexer.ts";
import { parseQuery, type ParsedQuery } from "#src/features/search/text.ts";
import { contentVersion } from "#src/lib/contentVersion.ts";
import { DOC_STATUS } from "#src/features/documents/status.ts";
import { boughtSql } from "#src/features/orders/ownership.ts";

// Retrieval for the AI (design.md §6): pages, because a citation is a document + a page. Today
// one retriever ranks pages by BM25 over the full-text index; an embedding retriever joins later
// behind this same function (fused by reciprocal rank) without chat knowing.

export interface RetrievalScope {
  /** the asking user: decides which pages beyond the preview they may read (own or bought) */
  userId: number;
  /** only these documents (a topic's scope); empty or absent: the whole library */
  documentIds?: number[];
  /** how many pages at most */
  limit: number;
}

export interface RetrievedPage { document_id: number; uuid: string; title: string; page: number; text: string; score: number }

const MASK = 2 ** PAGE_BITS - 1;
// More pages than this from one document crowd out other sources.
const PER_DOCUMENT = 3;

/**
 * Pages the user may read, best first: converted, enabled, not deleted documents; pages within the
 * preview unless the user owns, downloaded or bought (a paid order, credit downloads included) the
 * document; inside the scope if one is given.
 */
const readable = `d.status = ${DOC_STATUS.converted} AND d.deleted_at IS NULL
  AND (p.page <= d.preview OR d.user_id = :user OR EXISTS (SELECT 1 FROM download dl WHERE dl.user_id = :user AND dl.document_id = d.id)
    OR ${boughtSql("d.id", ":user")})`;

function scopeSql(ids: number[] | undefined) {
  return ids?.length ? ` AND d.id IN (${ids.map((id) => Math.trunc(id)).join(",")})` : "";
}

export function retrieve(query: string, scope: RetrievalScope): RetrievedPage[] {
  ensureSearchTables();
  const limit = Math.max(1, Math.min(50, scope.limit));
  const q = parseQuery(query);
  const words = telling(q, q.required);
  const hits = words.length ? keywordPages(words.map((t) => term(q, t)).join(" OR "), scope, limit) : [];
  // "Summarise this document" names no word of it: a scoped topic still gets the documents' first pages.
  if (hits.length < limit && scope.documentIds?.length) {
    const seen = new Set(hits.map((h) => `${h.document_id}:${h.page}`));
    for (const p of firstPages(scope, limit)) {
      if (hits.length >= limit) break;
      if (!seen.has(`${p.document_id}:${p.page}`)) hits.push(p);
    }
  }
  return hits;
}

// A word found in more than this share of the index's rows ranks nothing (bm25 gives it almost no
// weight) but costs a score for every one of those rows: it is left out when rarer words remain.
const COMMON_SHARE = 0.05;
const MAX_WORDS = 6;

// Rows in the index, remembered per content version (counting a contentless FTS5 table scans it).
let indexRows = { version: -1, n: 0 };
function rowsInIndex() {
  if (indexRows.version !== contentVersion()) indexRows = { version: contentVersion(), n: getSqlite().query<{ n: number }, []>("SELECT count(*) AS n FROM search_fts").get()!.n };
  return indexRows.n;
}

/** The query's words that tell pages apart, rarest first. */
function telling(q: ParsedQuery, words: string[]): string[] {
  if (words.length <= 1) return words;
  const count = getSqlite().query<{ cnt: number }, [string]>("SELECT cnt FROM search_vocab WHERE term = ?");
  // A word the index holds only as parts (劳动合同 → 劳动 / 合同) is as common as its rarest part.
  const rowsOf = (w: string) => count.get(w)?.cnt ?? Math.min(...(q.parts[w] ?? []).map((p) => count.get(p)?.cnt ?? 0), Infinity);
  const counted = words.map((w) => ({ w, n: rowsOf(w) })).filter((x) => x.n > 0 && x.n !== Infinity).sort((a, b) => a.n - b.n);
  if (!counted.length) return words;
  const limit = rowsInIndex() * COMMON_SHARE;
  return counted.filter((x, i) => i === 0 || x.n <= limit).slice(0, MAX_WORDS).map((x) => x.w);
}

function keywordPages(match: string, scope: RetrievalScope, limit: number): RetrievedPage[] {
  // The title row (page 0) of a document lends part of its score to the document's pages.
  const rows = getSqlite().query<RetrievedPage, Record<string, string | number>>(`
    WITH m AS MATERIALIZED (SELECT rowid >> ${PAGE_BITS} AS doc, rowid & ${MASK} AS page, bm25(search_fts, 10.0, 5.0, 2.0, 1.0) AS s FROM search_fts WHERE search_fts MATCH :match),
    t AS (SELECT doc, s FROM m WHERE page = 0)
    SELECT d.id AS document_id, d.uuid, d.title, p.page, p.text, -(m.s + 0.3 * coalesce(t.s, 0)) AS score
    FROM m JOIN document d ON d.id = m.doc JOIN document_page p ON p.document_id = m.doc AND p.page = m.page LEFT JOIN t ON t.doc = m.doc
    WHERE m.page > 0 AND ${readable}${scopeSql(scope.documentIds)}
    ORDER BY score DESC LIMIT :take`).all({ match, user: scope.userId, take: limit * 4 });
  const per = new Map<number, number>();
  const out: RetrievedPage[] = [];
  for (const r of rows) {
    const n = per.get(r.document_id) ?? 0;
    if (n >= PER_DOCUMENT) continue;
    per.set(r.document_id, n + 1);
    out.push({ ...r, score: Math.round(r.score * 1000) / 1000 });
    if (out.length === limit) break;
  }
  return out;
}

function firstPages(scope: RetrievalScope, limit: number): RetrievedPage[] {
  return getSqlite().query<RetrievedPage, Record<string, string | number>>(`
    SELECT d.id AS document_id, d.uuid, d.title, p.page, p.text, 0 AS score FROM document d JOIN document_page p ON p.document_id = d.id
    WHERE ${readable}${scopeSql(scope.documentIds)} AND p.page <= 3 AND length(trim(p.text)) > 0
    ORDER BY p.page, d.id LIMIT :take`).all({ user: scope.userId, take: limit });
}
