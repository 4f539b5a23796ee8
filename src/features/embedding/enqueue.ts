import { getSqlite } from "#db/client.ts";
import { enqueue } from "#src/jobs/queue.ts";
import { setting } from "#src/features/settings/service.ts";
import { DOC_STATUS } from "#src/features/documents/status.ts";
import { liveSpaces, syncSpaces } from "./spaces.ts";

// What other features call when a document's text or visibility changes. Both functions only
// write rows, so they are safe inside the caller's transaction (a conversion's commit, a restore):
// the embedding follows the document's change exactly when that change is committed.

export const DOCUMENT_JOB = "embedding.document";

/** Converted and not in the recycle bin: the documents retrieval may return, so the ones worth vectors. */
export function embeddable(documentId: number): boolean {
  const d = getSqlite().query<{ status: number; deleted_at: number | null }, [number]>("SELECT status, deleted_at FROM document WHERE id = ?").get(documentId);
  return !!d && d.status === DOC_STATUS.converted && d.deleted_at === null;
}

/**
 * Removes a document's chunks (their vectors go with them through each space's trigger) and its
 * embedding status rows. For disabled, deleted and not yet approved documents: vectors of a
 * document nobody may read are not kept, so no retrieval can return them by mistake.
 */
export function dropDocumentVectors(documentId: number): void {
  const db = getSqlite();
  db.query("DELETE FROM chunk WHERE document_id = ?").run(documentId);
  db.query("DELETE FROM document_embedding WHERE document_id = ?").run(documentId);
}

/**
 * (Re-)embeds a document in the background: marks it pending in every live space and queues an
 * `embedding.document` job (one waiting job per document is enough: it reads the text when it
 * runs). A document that may not be served loses its vectors instead. No-op while embeddings are
 * off or no space exists.
 */
export function queueEmbedding(documentId: number): void {
  if (!setting("embedding", "enable")) return;
  syncSpaces();
  const spaces = liveSpaces();
  if (!spaces.length) return;
  if (!embeddable(documentId)) {
    dropDocumentVectors(documentId);
    return;
  }
  const db = getSqlite();
  const mark = db.query(`INSERT INTO document_embedding (space_id, document_id, status, error) VALUES (?, ?, 0, '')
    ON CONFLICT (space_id, document_id) DO UPDATE SET status = 0, error = '', updated_at = ?`);
  for (const s of spaces) mark.run(s.id, documentId, Date.now());
  const waiting = db.query<{ id: number }, [string, number]>(
    "SELECT id FROM jobs WHERE kind = ? AND status = 'queued' AND json_extract(payload, '$.document_id') = ? LIMIT 1",
  ).get(DOCUMENT_JOB, documentId);
  if (!waiting) enqueue(DOCUMENT_JOB, { document_id: documentId });
}

/** queueEmbedding for several documents (restored from the recycle bin, enabled again). */
export const queueEmbeddings = (ids: number[]) => ids.forEach((id) => queueEmbedding(id));
export const dropVectorsOf = (ids: number[]) => ids.forEach((id) => dropDocumentVectors(id));
