import { getSqlite, isBusyError } from "#db/client.ts";
import { log } from "#src/http/requestLog.ts";
import { setting } from "#src/features/settings/service.ts";
import { checked, clearEmbedders, spaceEmbedder } from "./embedder.ts";
import { describe } from "./errors.ts";
import { activeSpace, syncSpaces, vecTable } from "./spaces.ts";

// What retrieval (helper C) calls: whether vectors can be searched, a question's vector in the
// active space's model, and the nearest chunks. The active space is the one the old model keeps
// serving while a new one builds, so a question is always embedded by the space's own model.

export interface ChunkHit { chunk_id: number; document_id: number; page: number; distance: number }

/** Embeddings switched on and an active space to search. */
export function embeddingActive(): boolean {
  if (!setting("embedding", "enable")) return false;
  try {
    syncSpaces();
  } catch (err) {
    // A settings change is applied by the next caller; a question is never refused over it.
    if (!isBusyError(err)) throw err;
  }
  return activeSpace() !== null;
}

// A question asked twice (chat retries, the same query paged) is embedded once: a remote call costs
// money and latency, a local one ~10 ms of CPU.
const QUERY_CACHE = 256;
const queryCache = new Map<string, Float32Array>();
// Questions are short; a slow provider must not hold a chat answer long. Retrieval falls back to BM25.
const QUERY_TIMEOUT_S = 15;

export let lastQueryError: { at: number; message: string } | null = null;

/**
 * The question's vector in the active space's model; null when embeddings are off, no space is
 * active, or the model failed (logged and shown on the admin screen: retrieval goes on with BM25).
 * Aborting `signal` (the user stopped) rejects with its reason.
 */
export async function embedQuery(text: string, signal?: AbortSignal): Promise<Float32Array | null> {
  if (!embeddingActive()) return null;
  const space = activeSpace()!;
  const q = text.trim().slice(0, 2000);
  if (!q) return null;
  const key = `${space.id}\u0000${q}`;
  const hit = queryCache.get(key);
  if (hit) {
    // Re-insert: a Map iterates in insertion order, so the first key is the least recently used.
    queryCache.delete(key);
    queryCache.set(key, hit);
    return hit;
  }
  try {
    const [v] = await spaceEmbedder(space, QUERY_TIMEOUT_S).embed([q], signal);
    const vector = checked(v!, space.dimensions);
    queryCache.set(key, vector);
    if (queryCache.size > QUERY_CACHE) queryCache.delete(queryCache.keys().next().value!);
    return vector;
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    lastQueryError = { at: Date.now(), message: describe(err) };
    log("warn", "embedding query failed", { space: space.id, error: describe(err) });
    return null;
  }
}

// vec0 answers at most 4096 neighbours per query.
const MAX_K = 4096;

/**
 * The k chunks nearest to `vector` in the active space, nearest first (cosine distance, 0 = same
 * direction). No permission filter: the caller keeps only pages the user may read, so it should
 * ask for more than it needs.
 */
export function knnChunks(vector: Float32Array, k: number): ChunkHit[] {
  const space = activeSpace();
  if (!space) return [];
  if (vector.length !== space.dimensions) throw new Error(`查询向量维度 ${vector.length} 与向量空间维度 ${space.dimensions} 不一致`);
  const take = Math.max(1, Math.min(MAX_K, Math.floor(k)));
  // The join drops a vector whose chunk is gone (cannot happen through the triggers, but costs nothing).
  return getSqlite().query<ChunkHit, [Float32Array, number]>(`
    SELECT v.rowid AS chunk_id, c.document_id, c.page, v.distance
    FROM (SELECT rowid, distance FROM ${vecTable(space.id)} WHERE embedding MATCH ? AND k = ?) v
    JOIN chunk c ON c.id = v.rowid
    ORDER BY v.distance`).all(vector, take);
}

/** Forgets cached query vectors and embedders (settings saved, tests). */
export function clearQueryCache() {
  queryCache.clear();
  clearEmbedders();
}
