import { eq } from "drizzle-orm";
import { getDb, getSqlite } from "#db/client.ts";
import { document } from "#db/schema/documents.ts";
import { log } from "#src/http/requestLog.ts";
import { enqueue } from "#src/jobs/queue.ts";

export const CONVERT_JOB = "document.convert";

export interface ConvertPayload {
  document_id: number;
  /** convert again even when another document with the same file is already converted (reconvert) */
  fresh?: boolean;
}

/** Queues the conversion of a document; the worker in convert/job.ts picks it up. */
export const enqueueConversion = (documentId: number, opts: { fresh?: boolean } = {}) =>
  enqueue(CONVERT_JOB, { document_id: documentId, ...(opts.fresh ? { fresh: true } : {}) } satisfies ConvertPayload, { maxAttempts: 2 });

export const RENDER_FULL_JOB = "documents.render_full";

export interface RenderFullPayload { document_id: number }

// A full render that failed for a reason a retry cannot change (broken original, missing tool) is
// not started again by every page view of the document's readers.
const FAILED_HOLD_OFF_MS = 3600_000;

const renderWanted = (documentId: number) => {
  const d = getDb().select({ pages: document.pages, preview: document.preview, rendered: document.rendered_pages, deleted_at: document.deleted_at })
    .from(document).where(eq(document.id, documentId)).get();
  return !!d && d.pages > 0 && d.deleted_at === null && Math.max(d.preview, d.rendered) < d.pages;
};

const renderQueuedOrFailed = (documentId: number) => !!getSqlite().query(`
  SELECT 1 FROM jobs WHERE kind = ?1 AND json_extract(payload, '$.document_id') = ?2 AND (
    status IN ('queued', 'running')
    OR (finished_at > ?3 AND (status = 'failed' OR (json_valid(result) AND json_extract(result, '$.error') IS NOT NULL)))
  ) LIMIT 1`).get(RENDER_FULL_JOB, documentId, Date.now() - FAILED_HOLD_OFF_MS);

/**
 * Queues the rendering of a document's pages past the preview (convert/renderFull.ts), one job per
 * document at a time, unless every page already has an image. Called after a document order is
 * paid and when an entitled reader opens a document that is not fully rendered. Never throws: a
 * payment has committed by then or a page is being rendered, and the next visit asks again.
 */
export function requestFullRender(documentId: number): boolean {
  try {
    // Reads first, so a reader's page view takes the write lock only when a job is really missing.
    if (!renderWanted(documentId) || renderQueuedOrFailed(documentId)) return false;
    return getSqlite().transaction(() => {
      if (!renderWanted(documentId) || renderQueuedOrFailed(documentId)) return false;
      enqueue(RENDER_FULL_JOB, { document_id: documentId } satisfies RenderFullPayload, { maxAttempts: 3 });
      return true;
    }).immediate();
  } catch (e) {
    log("warn", "full render not queued", { document_id: documentId, error: String(e) });
    return false;
  }
}
