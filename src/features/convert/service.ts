import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { getDb, getSqlite } from "#db/client.ts";
import { document } from "#db/schema/documents.ts";
import { jobs } from "#db/schema/jobs.ts";
import { DOC_STATUS } from "#src/features/documents/status.ts";
import { awardUploadIfPublic } from "#src/features/credits/uploadAward.ts";
import { CONVERT_JOB, enqueueConversion } from "./enqueue.ts";

// What other features call: reconvert (admin), reconvert all failed (admin), and the review
// contract. Conversion status contract:
//   upload creates status 0 (or 6 when the uploader's group needs review) and enqueues a conversion;
//   the job sets 0/3/5 → 1 and on success 1 → 2; a document in review (6) stays 6 while it
//   converts and after, so approval decides; failure → 3 with convert_error (a 6 that fails
//   becomes 3: there is nothing to review). Disabled (4) and rejected (7) keep their status.

/** Whether a conversion of the document is waiting or running. */
export function conversionPending(documentId: number): boolean {
  return !!getDb().select({ id: jobs.id }).from(jobs).where(and(
    eq(jobs.kind, CONVERT_JOB), inArray(jobs.status, ["queued", "running"]),
    sql`json_extract(${jobs.payload}, '$.document_id') = ${documentId}`,
  )).get();
}

/** Whether the document's pages and text are ready: converted without error and nothing pending. */
export function conversionDone(documentId: number): boolean {
  const d = getDb().select({ pages: document.pages, err: document.convert_error }).from(document).where(eq(document.id, documentId)).get();
  return !!d && d.pages > 0 && d.err === "" && !conversionPending(documentId);
}

/**
 * Converts one document again from its original (ignoring same-file reuse). Its status becomes 5
 * (reconvert) until the job starts; review, disabled and rejected statuses are kept. A conversion
 * already waiting or running is not doubled. Returns false when the document does not exist.
 */
export function reconvert(documentId: number): boolean {
  const sqlite = getSqlite();
  return sqlite.transaction(() => {
    const d = getDb().select({ status: document.status }).from(document).where(eq(document.id, documentId)).get();
    if (!d) return false;
    if ([DOC_STATUS.pending, DOC_STATUS.converting, DOC_STATUS.converted, DOC_STATUS.failed, DOC_STATUS.reconvert].includes(d.status as 0)) {
      getDb().update(document).set({ status: DOC_STATUS.reconvert, convert_error: "", updated_at: Date.now() }).where(eq(document.id, documentId)).run();
    }
    if (!conversionPending(documentId)) enqueueConversion(documentId, { fresh: true });
    return true;
  }).immediate();
}

/**
 * Reconverts every failed document (3), every one marked for reconversion (5) and every one left
 * "converting" (1) without a job, e.g. after its job used up its attempts in repeated crashes.
 * Documents in the recycle bin are skipped. Returns how many were queued.
 */
export function reconvertFailed(): number {
  const rows = getDb().select({ id: document.id }).from(document).where(and(
    inArray(document.status, [DOC_STATUS.failed, DOC_STATUS.reconvert, DOC_STATUS.converting]), isNull(document.deleted_at),
  )).all();
  let n = 0;
  for (const r of rows) {
    if (conversionPending(r.id)) continue;
    if (reconvert(r.id)) n++;
  }
  return n;
}

/**
 * Approval of a document in review: 2 when its conversion is done, else 1 so the running or queued
 * conversion finishes it as 2 (a job is queued if none is). Returns the new status, or null when
 * the document is not waiting for review.
 */
export function approveConverted(documentId: number): number | null {
  const sqlite = getSqlite();
  return sqlite.transaction(() => {
    const d = getDb().select({ status: document.status }).from(document).where(eq(document.id, documentId)).get();
    if (!d || d.status !== DOC_STATUS.pendingReview) return null;
    const status = conversionDone(documentId) ? DOC_STATUS.converted : DOC_STATUS.converting;
    getDb().update(document).set({ status, updated_at: Date.now() }).where(eq(document.id, documentId)).run();
    if (status === DOC_STATUS.converting && !conversionPending(documentId)) enqueueConversion(documentId);
    // Approved and converted: public now, so the upload award (if owed) is paid in this commit.
    else if (status === DOC_STATUS.converted) awardUploadIfPublic(documentId);
    return status;
  }).immediate();
}
