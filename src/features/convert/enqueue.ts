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
