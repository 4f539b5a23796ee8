import { and, eq, inArray, isNull } from "drizzle-orm";
import { getDb, getSqlite } from "#db/client.ts";
import { document } from "#db/schema/documents.ts";
import { enqueueConversion } from "#src/features/convert/enqueue.ts";
import { approveConverted, conversionDone, conversionPending } from "#src/features/convert/service.ts";
import { awardUploadIfPublic } from "#src/features/credits/uploadAward.ts";
import { bumpContentVersion } from "#src/lib/contentVersion.ts";
import { dropVectorsOf, queueEmbedding } from "#src/features/embedding/enqueue.ts";
import { notFound } from "#src/lib/errors.ts";
import { chainsOf } from "./categories.ts";
import { refreshCategoryCounts } from "./counts.ts";
import { DOCUMENT_NOT_FOUND, type DocumentRow } from "./policy.ts";
import { DOC_STATUS } from "./status.ts";

const S = DOC_STATUS;

function liveDocuments(ids: number[]): DocumentRow[] {
  const rows = getDb().select().from(document).where(and(inArray(document.id, ids), isNull(document.deleted_at))).all();
  if (!rows.length) throw notFound(DOCUMENT_NOT_FOUND);
  return rows;
}

/**
 * Approving (2) a document in review goes through the converter's contract (live at once when
 * converted, else when its conversion finishes). Approving a rejected one or enabling a disabled
 * one does the same by hand: live when converted, else back to 0 with a conversion queued.
 */
function approve(d: DocumentRow): boolean {
  if (d.status === S.pendingReview) {
    const status = approveConverted(d.id);
    // Live now: embedded (a conversion still running embeds it when it finishes).
    if (status === S.converted) queueEmbedding(d.id);
    return status !== null;
  }
  if (d.status !== S.rejected && d.status !== S.disabled) return false;
  getSqlite().transaction(() => {
    const done = conversionDone(d.id);
    getDb().update(document).set({ status: done ? S.converted : S.pending, updated_at: Date.now() }).where(eq(document.id, d.id)).run();
    if (!done && !conversionPending(d.id)) enqueueConversion(d.id);
    // Public now: the upload award is paid once per file (a re-enabled document's file usually was).
    if (done) awardUploadIfPublic(d.id);
    // Enabled again: the vectors dropped when it was disabled come back.
    if (done) queueEmbedding(d.id);
  }).immediate();
  return true;
}

/** 7 rejects documents waiting for review; 4 disables anything not yet disabled. */
function setStatus(d: DocumentRow, action: 4 | 7): boolean {
  const applies = action === 4 ? d.status !== S.disabled : d.status === S.pendingReview;
  if (applies) {
    getDb().transaction(() => {
      getDb().update(document).set({ status: action, updated_at: Date.now() }).where(eq(document.id, d.id)).run();
      // Disabled or rejected: nobody may read it, so no vector of it is kept.
      dropVectorsOf([d.id]);
    });
  }
  return applies;
}

/** Batch approve / reject / disable / enable; answers how many documents changed. */
export function checkDocuments(ids: number[], action: 2 | 4 | 7): number {
  const rows = liveDocuments(ids);
  const touched: number[] = [];
  // One document at a time: approval runs the converter's own immediate transaction.
  for (const d of rows) if (action === 2 ? approve(d) : setStatus(d, action)) touched.push(d.id);
  if (touched.length) {
    refreshCategoryCounts(chainsOf(touched));
    bumpContentVersion();
  }
  return touched.length;
}

/** 0 cancels, 1 recommends (keeping an earlier recommend time), 2 recommends again as newest. */
export function recommendDocuments(ids: number[], type: 0 | 1 | 2): number {
  const rows = liveDocuments(ids);
  const now = Date.now();
  getDb().transaction((tx) => {
    for (const d of rows) {
      const set = type === 0 ? { is_recommend: false, recommend_at: null } : { is_recommend: true, recommend_at: type === 2 || !d.is_recommend ? now : d.recommend_at };
      tx.update(document).set({ ...set, updated_at: now }).where(eq(document.id, d.id)).run();
    }
  });
  bumpContentVersion();
  return rows.length;
}
