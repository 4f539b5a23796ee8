import { queueEmbedding } from "#src/features/embedding/enqueue.ts";
import { queueOcrIfNeeded } from "#src/features/ocr/enqueue.ts";

/**
 * What follows a successful conversion, inside its commit: pages without a text layer are OCR'd
 * first (the OCR job queues the embedding when it commits the recognised text); otherwise the
 * document's text is final and goes to the embeddings straight away.
 */
export function afterConversion(id: number) {
  if (!queueOcrIfNeeded(id)) queueEmbedding(id);
}
