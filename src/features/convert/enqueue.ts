import { enqueue } from "#src/jobs/queue.ts";

export const CONVERT_JOB = "document.convert";

/** Queues the conversion of a document; the worker in convert/job.ts picks it up. */
export const enqueueConversion = (documentId: number) => enqueue(CONVERT_JOB, { document_id: documentId }, { maxAttempts: 2 });
