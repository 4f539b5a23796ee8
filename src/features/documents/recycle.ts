import { and, count, desc, eq, inArray, isNotNull } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { bannedHash, document } from "#db/schema/documents.ts";
import { attachment } from "#db/schema/site.ts";
import { bumpContentVersion } from "#src/lib/contentVersion.ts";
import { unindexDocument } from "#src/features/search/indexer.ts";
import { queueEmbeddings } from "#src/features/embedding/enqueue.ts";
import { badRequest, notFound } from "#src/lib/errors.ts";
import { chainsOf } from "./categories.ts";
import { refreshCategoryCounts, refreshUserDocCounts } from "./counts.ts";
import { DOCUMENT_NOT_FOUND, type DocumentRow } from "./policy.ts";
import { likeAny, withNames } from "./service.ts";
import { DOC_STATUS } from "./status.ts";
import { removeDocumentFiles } from "./storage.ts";
import { ATTACHMENT_DOCUMENT } from "./upload.ts";
import { commentersOf, refreshUserCommentCounts } from "#src/features/comments/counts.ts";

export function listRecycle(q: { page: number; size: number; wd?: string }) {
  const cond = and(isNotNull(document.deleted_at), likeAny(q.wd, [document.title, document.keywords, document.uuid]));
  const rows = getDb().select().from(document).where(cond).orderBy(desc(document.deleted_at), desc(document.id)).limit(q.size).offset((q.page - 1) * q.size).all();
  const total = getDb().select({ n: count() }).from(document).where(cond).get()!.n;
  return { total, document: withNames(rows, true) };
}

function inRecycle(ids: number[]): DocumentRow[] {
  const rows = getDb().select().from(document).where(inArray(document.id, ids)).all();
  if (!rows.length) throw notFound(DOCUMENT_NOT_FOUND);
  if (rows.some((r) => r.deleted_at === null)) throw badRequest("只能操作回收站中的文档");
  return rows;
}

export function restoreDocuments(ids: number[]): number {
  const rows = inRecycle(ids);
  const visible = rows.filter((r) => r.status === DOC_STATUS.converted).map((r) => r.id);
  getDb().transaction(() => {
    getDb().update(document).set({ deleted_at: null, deleted_user_id: 0, updated_at: Date.now() }).where(inArray(document.id, rows.map((r) => r.id))).run();
    // Soft delete dropped their vectors; servable again, they are embedded again.
    queueEmbeddings(visible);
  });
  if (visible.length) refreshCategoryCounts(chainsOf(visible));
  refreshUserDocCounts(rows.map((r) => r.user_id));
  bumpContentVersion();
  return rows.length;
}

/**
 * Deletes documents for good: their rows (pages text, ratings, favourites… cascade), their
 * attachment rows, and the files of every hash no remaining document uses. `ban` refuses those
 * files at future uploads.
 */
export function purgeDocuments(ids: number[], opts: { ban?: boolean; reason?: string } = {}): { deleted: number; removedFiles: number } {
  const rows = inRecycle(ids);
  const docIds = rows.map((r) => r.id);
  const hashes = [...new Set(rows.map((r) => r.hash))];
  // Comments go with the documents (ON DELETE CASCADE); their authors' counts are recounted after.
  const commenters = commentersOf({ documentIds: docIds });
  const unused = getDb().transaction((tx) => {
    tx.delete(document).where(inArray(document.id, docIds)).run();
    for (const id of docIds) unindexDocument(id, tx);
    const attIds = rows.map((r) => r.attachment_id).filter(Boolean);
    if (attIds.length) tx.delete(attachment).where(and(inArray(attachment.id, attIds), eq(attachment.type, ATTACHMENT_DOCUMENT))).run();
    const still = new Set(tx.select({ hash: document.hash }).from(document).where(inArray(document.hash, hashes)).all().map((r) => r.hash));
    const gone = hashes.filter((h) => !still.has(h));
    // No document has these hashes any more; uploads of the same file that never became a
    // document would point at files about to go.
    if (gone.length) tx.delete(attachment).where(and(eq(attachment.type, ATTACHMENT_DOCUMENT), inArray(attachment.hash, gone))).run();
    if (opts.ban) {
      for (const h of hashes) tx.insert(bannedHash).values({ hash: h, reason: opts.reason ?? "管理员彻底删除时禁止" }).onConflictDoNothing().run();
    }
    return gone;
  });
  for (const h of unused) removeDocumentFiles(h);
  refreshUserDocCounts(rows.map((r) => r.user_id));
  refreshUserCommentCounts(commenters);
  bumpContentVersion();
  return { deleted: rows.length, removedFiles: unused.length };
}
