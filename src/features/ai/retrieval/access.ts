import { getSqlite } from "#db/client.ts";
import { DOC_STATUS } from "#src/features/documents/status.ts";
import { boughtSql } from "#src/features/orders/ownership.ts";
import type { RetrievalScope, RetrievedPage } from "../retrieve.ts";

// What a user may be given as a source, as SQL over `d` (document) and `p` (document_page), shared
// by every retriever so keyword hits, vector hits and their fusion obey one rule.

/**
 * Pages the user may read: converted, enabled, not deleted documents; pages within the preview
 * unless the user owns, downloaded or bought (a paid order, credit downloads included) the
 * document. `:user` is the asking user's id (0 for an anonymous visitor, who owns nothing).
 */
export const readable = `d.status = ${DOC_STATUS.converted} AND d.deleted_at IS NULL
  AND (p.page <= d.preview OR d.user_id = :user OR EXISTS (SELECT 1 FROM download dl WHERE dl.user_id = :user AND dl.document_id = d.id)
    OR ${boughtSql("d.id", ":user")})`;

/** Inside the scope (a topic's documents) when one is given; ids are integers, never text. */
export function scopeSql(ids: number[] | undefined) {
  return ids?.length ? ` AND d.id IN (${ids.map((id) => Math.trunc(id)).join(",")})` : "";
}

/** "Summarise this document" names no word of it: a scoped topic's first pages stand in. */
export function firstPages(scope: RetrievalScope, limit: number): RetrievedPage[] {
  return getSqlite().query<RetrievedPage, Record<string, string | number>>(`
    SELECT d.id AS document_id, d.uuid, d.title, p.page, p.text, 0 AS score FROM document d JOIN document_page p ON p.document_id = d.id
    WHERE ${readable}${scopeSql(scope.documentIds)} AND p.page <= 3 AND length(trim(p.text)) > 0
    ORDER BY p.page, d.id LIMIT :take`).all({ user: scope.userId, take: limit });
}

/** Adds the scope's first pages to `hits` until `limit`, skipping pages already there. */
export function fillWithFirstPages(hits: RetrievedPage[], scope: RetrievalScope, limit: number): RetrievedPage[] {
  if (hits.length >= limit || !scope.documentIds?.length) return hits;
  const seen = new Set(hits.map((h) => `${h.document_id}:${h.page}`));
  for (const p of firstPages(scope, limit)) {
    if (hits.length >= limit) break;
    if (!seen.has(`${p.document_id}:${p.page}`)) hits.push(p);
  }
  return hits;
}

/**
 * The given pages (best first) that the user may read inside the scope, in the given order, with
 * their text: how candidates found outside SQL (vector neighbours) pass the same rule.
 */
export function readablePages(pages: { document_id: number; page: number }[], scope: RetrievalScope): Omit<RetrievedPage, "score">[] {
  if (!pages.length) return [];
  const pairs = JSON.stringify(pages.map((p) => [Math.trunc(p.document_id), Math.trunc(p.page)]));
  return getSqlite().query<Omit<RetrievedPage, "score">, Record<string, string | number>>(`
    WITH c AS (SELECT value ->> 0 AS doc, value ->> 1 AS page, CAST(key AS INTEGER) AS rank FROM json_each(:pairs))
    SELECT d.id AS document_id, d.uuid, d.title, p.page, p.text
    FROM c JOIN document d ON d.id = c.doc JOIN document_page p ON p.document_id = c.doc AND p.page = c.page
    WHERE ${readable}${scopeSql(scope.documentIds)}
    ORDER BY c.rank`).all({ pairs, user: scope.userId });
}

// More pages than this from one document crowd out other sources.
export const PER_DOCUMENT = 3;

/** The first `limit` items keeping at most `perDocument` pages of any one document. */
export function capPerDocument<T extends { document_id: number }>(items: T[], limit: number, perDocument = PER_DOCUMENT): T[] {
  const per = new Map<number, number>();
  const out: T[] = [];
  for (const r of items) {
    const n = per.get(r.document_id) ?? 0;
    if (n >= perDocument) continue;
    per.set(r.document_id, n + 1);
    out.push(r);
    if (out.length === limit) break;
  }
  return out;
}
