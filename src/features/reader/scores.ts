import { and, eq, sql } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { document, documentScore } from "#db/schema/documents.ts";
import { conflict } from "#src/lib/errors.ts";
import { visibleDocumentById } from "./access.ts";
import { prepared } from "#db/prepared.ts";

export const myScore = (userId: number, documentId: number) =>
  prepared("myScore", () => getDb().select({ score: documentScore.score }).from(documentScore)
    .where(and(eq(documentScore.document_id, sql.placeholder("d")), eq(documentScore.user_id, sql.placeholder("u")))).prepare()).get({ u: userId, d: documentId })?.score ?? 0;

/**
 * Rates a document 1–5, once per user. The average (×100) and count are recomputed from the
 * ratings themselves in the same transaction, so concurrent ratings never drift.
 */
export function rateDocument(userId: number, documentId: number, score: number) {
  visibleDocumentById(documentId);
  return getDb().transaction((tx) => {
    const row = tx.insert(documentScore).values({ document_id: documentId, user_id: userId, score }).onConflictDoNothing().returning({ id: documentScore.id }).get();
    if (!row) throw conflict("您已经评过分了");
    const agg = tx.select({ avg: sql<number>`cast(round(avg(${documentScore.score}) * 100) as integer)`, n: sql<number>`count(*)` })
      .from(documentScore).where(eq(documentScore.document_id, documentId)).get()!;
    tx.update(document).set({ score: agg.avg, score_count: agg.n }).where(eq(document.id, documentId)).run();
    return { id: row.id, document_id: documentId, score, document_score: agg.avg, score_count: agg.n };
  });
}
