import { getSqlite } from "#db/client.ts";
import { activeSpace, vecTable } from "#src/features/embedding/spaces.ts";
import { knnChunks } from "#src/features/embedding/vectors.ts";
import type { RetrievalScope } from "../retrieve.ts";

// Vector retrieval: the query's embedding against the active space's chunk vectors (sqlite-vec),
// chunks mapped to their pages. Chunks never cross pages, so every neighbour names one page.

export interface VectorPage { document_id: number; page: number; distance: number }

// A topic scoped to a few documents would rarely see them among the library's nearest chunks, so
// its chunks are compared one by one instead (exact, and cheap at this size); a scope larger than
// this uses the index and filters afterwards.
const EXACT_SCOPE_CHUNKS = 20_000;

/** Nearest pages to `vector`, best first (a page counts at its best chunk), from `k` nearest chunks. */
export function vectorPages(vector: Float32Array, scope: RetrievalScope, k: number): VectorPage[] {
  const chunks = (scope.documentIds?.length && scopedNeighbours(vector, scope.documentIds, k)) || knnChunks(vector, k);
  const best = new Map<string, VectorPage>();
  for (const c of chunks) {
    const key = `${c.document_id}:${c.page}`;
    const seen = best.get(key);
    if (!seen || c.distance < seen.distance) best.set(key, { document_id: c.document_id, page: c.page, distance: c.distance });
  }
  return [...best.values()].sort((a, b) => a.distance - b.distance);
}

/**
 * The scope's nearest chunks by exact cosine distance (the index's own measure), or null when the
 * scope is too large for that or no space is active.
 */
function scopedNeighbours(vector: Float32Array, ids: number[], k: number): VectorPage[] | null {
  const space = activeSpace();
  if (!space) return null;
  const db = getSqlite();
  const list = ids.map((id) => Math.trunc(id)).join(",");
  const n = db.query<{ n: number }, []>(`SELECT count(*) AS n FROM chunk WHERE document_id IN (${list})`).get()!.n;
  if (n > EXACT_SCOPE_CHUNKS) return null;
  return db.query<VectorPage, [Float32Array, number]>(`
    SELECT c.document_id, c.page, vec_distance_cosine(v.embedding, ?) AS distance
    FROM chunk c JOIN ${vecTable(space.id)} v ON v.rowid = c.id
    WHERE c.document_id IN (${list}) ORDER BY distance LIMIT ?`).all(vector, k);
}
