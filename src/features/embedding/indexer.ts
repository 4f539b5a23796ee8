import { getSqlite } from "#db/client.ts";
import { retryWhileBusy } from "#src/jobs/worker.ts";
import { chunkPage } from "./chunker.ts";
import { embedAll, spaceEmbedder } from "./embedder.ts";
import { dropDocumentVectors, embeddable } from "./enqueue.ts";
import { EmbeddingError, describe } from "./errors.ts";
import { getSpace, liveSpaces, newestSpace, vecTable, type Space } from "./spaces.ts";

// One document → chunks → vectors in the given spaces. The slow part (the model) runs with no
// transaction open; the write is one transaction that replaces the document's chunks and vectors
// (delete, then insert), so a crash or a retry can never leave doubled or half-written rows, and a
// text that changed meanwhile (a reconversion, OCR) is not overwritten by a stale result.

export const EMBED_STATUS = { pending: 0, running: 1, success: 2, failed: 3 } as const;

interface ChunkRow { id?: number; page: number; seq: number; start: number; text: string }

export interface EmbedOutcome {
  /** chunks the document has now */
  chunks: number;
  ms: number;
  /** space id → error message, for the spaces that failed */
  failed: Map<number, string>;
  /** the first error of a requested space (the job decides whether to retry) */
  error: EmbeddingError | Error | null;
  /** nothing written: the text changed while embedding, or the document may no longer be served */
  skipped?: "stale" | "hidden";
}

function pageTexts(documentId: number): { page: number; text: string }[] {
  return getSqlite().query<{ page: number; text: string }, [number]>("SELECT page, text FROM document_page WHERE document_id = ? ORDER BY page").all(documentId);
}

const fingerprint = (pages: { page: number; text: string }[]) => Bun.hash(pages.map((p) => `${p.page}\u0001${p.text}`).join("\u0002")).toString(36);

function chunksOf(pages: { page: number; text: string }[], space: Space | null): ChunkRow[] {
  const size = space?.settings.chunk_size;
  const overlap = space?.settings.chunk_overlap;
  return pages.flatMap((p) => chunkPage(p.text, { size, overlap }).map((c, seq) => ({ page: p.page, seq, start: c.start, text: c.text })));
}

const sameChunks = (a: ChunkRow[], b: ChunkRow[]) => a.length === b.length && a.every((x, i) => x.page === b[i]!.page && x.seq === b[i]!.seq && x.start === b[i]!.start && x.text === b[i]!.text);

function setStatus(spaceIds: number[], documentId: number, status: number, fields: { chunks?: number; ms?: number; error?: string } = {}) {
  const q = getSqlite().query(`INSERT INTO document_embedding (space_id, document_id, status, chunks, ms, error) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (space_id, document_id) DO UPDATE SET status = excluded.status, chunks = CASE WHEN ? THEN excluded.chunks ELSE chunks END,
      ms = CASE WHEN ? THEN excluded.ms ELSE ms END, error = excluded.error, updated_at = ?`);
  for (const id of spaceIds) q.run(id, documentId, status, fields.chunks ?? 0, fields.ms ?? 0, (fields.error ?? "").slice(0, 500), fields.chunks !== undefined ? 1 : 0, fields.ms !== undefined ? 1 : 0, Date.now());
}

/** Whether a space already holds this document's vectors for exactly these chunks. */
function complete(space: Space, documentId: number, ids: number[]): boolean {
  const row = getSqlite().query<{ status: number }, [number, number]>("SELECT status FROM document_embedding WHERE space_id = ? AND document_id = ?").get(space.id, documentId);
  if (row?.status !== EMBED_STATUS.success) return false;
  if (!ids.length) return true;
  const n = getSqlite().query<{ n: number }, []>(`SELECT count(*) AS n FROM ${vecTable(space.id)} WHERE rowid IN (${ids.join(",")})`).get()!.n;
  return n === ids.length;
}

/**
 * Embeds a document into `requested` spaces (default: every live space). When its chunks change
 * (new text, other chunk settings) the vectors of every live space die with the old chunks, so all
 * of them are embedded again, each with its own model; a space not asked for that fails keeps the
 * failure in its status row and does not hold back the others.
 */
export async function embedDocument(documentId: number, opts: { requested?: Space[]; signal?: AbortSignal; onProgress?: (pct: number) => void } = {}): Promise<EmbedOutcome> {
  const started = performance.now();
  const db = getSqlite();
  const pages = pageTexts(documentId);
  const print = fingerprint(pages);
  const chunks = chunksOf(pages, newestSpace());
  const existing = db.query<ChunkRow & { id: number }, [number]>("SELECT id, page, seq, start, text FROM chunk WHERE document_id = ? ORDER BY page, seq").all(documentId);
  const same = sameChunks(chunks, existing);
  const live = liveSpaces();
  const requested = new Set((opts.requested ?? live).map((s) => s.id));
  // Unchanged chunks keep their vectors: only spaces lacking them are embedded.
  const targets = same ? live.filter((s) => requested.has(s.id) && !complete(s, documentId, existing.map((c) => c.id))) : live;
  const failed = new Map<number, string>();
  let error: EmbeddingError | Error | null = null;
  const vectors = new Map<number, Float32Array[]>();
  if (targets.length) await retryWhileBusy(() => setStatus(targets.map((s) => s.id), documentId, EMBED_STATUS.running));
  const texts = chunks.map((c) => c.text);
  let done = 0;
  for (const space of targets) {
    try {
      const e = spaceEmbedder(space);
      vectors.set(space.id, await embedAll(e, texts, Math.max(1, space.settings.batch_size || 16), opts.signal, (n) => opts.onProgress?.(Math.round(((done + n / Math.max(1, texts.length)) / targets.length) * 100))));
    } catch (err) {
      if (opts.signal?.aborted) throw opts.signal.reason ?? err;
      failed.set(space.id, describe(err));
      if (requested.has(space.id) && !error) error = err instanceof Error ? err : new Error(describe(err));
    }
    done++;
  }
  const ms = Math.round(performance.now() - started);
  const skipped = await retryWhileBusy(() => db.transaction((): EmbedOutcome["skipped"] => {
    if (!embeddable(documentId)) {
      dropDocumentVectors(documentId);
      return "hidden";
    }
    if (fingerprint(pageTexts(documentId)) !== print) return "stale";
    let ids = existing.map((c) => c.id);
    if (!same) {
      // The trigger of every space deletes the old chunks' vectors with them: they described the old text.
      db.query("DELETE FROM chunk WHERE document_id = ?").run(documentId);
      // No space got vectors: no chunks either, so nothing is left half-written.
      const insert = db.query<{ id: number }, [number, number, number, number, string]>("INSERT INTO chunk (document_id, page, seq, start, text) VALUES (?, ?, ?, ?, ?) RETURNING id");
      ids = vectors.size ? chunks.map((c) => insert.get(documentId, c.page, c.seq, c.start, c.text)!.id) : [];
    }
    for (const space of targets) {
      // The settings may have moved on while the model ran: a dropped space gets nothing.
      const now = getSpace(space.id);
      if (!now || now.status > 1) continue;
      const v = vectors.get(space.id);
      if (!v) {
        setStatus([space.id], documentId, EMBED_STATUS.failed, { chunks: 0, ms, error: failed.get(space.id) ?? "向量化失败" });
        continue;
      }
      const table = vecTable(space.id);
      if (ids.length) db.query(`DELETE FROM ${table} WHERE rowid IN (${ids.join(",")})`).run();
      const put = db.query(`INSERT INTO ${table} (rowid, embedding) VALUES (?, ?)`);
      v.forEach((vec, i) => put.run(ids[i]!, vec));
      setStatus([space.id], documentId, EMBED_STATUS.success, { chunks: ids.length, ms, error: "" });
    }
    return undefined;
  }).immediate());
  return { chunks: chunks.length, ms, failed, error, skipped };
}
