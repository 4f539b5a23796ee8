// Turns embeddings on for the harness (or a test) and waits until every document has vectors in
// an active space: the settings an admin would save, then B's own rebuild job run by a worker in
// this process, so the vectors are made exactly as the site makes them.
import { getSqlite } from "#db/client.ts";
import "#src/features/embedding/jobs.ts";
import { activeSpace, syncSpaces } from "#src/features/embedding/spaces.ts";
import { updateConfig } from "#src/features/settings/service.ts";
import { startWorker } from "#src/jobs/worker.ts";

export interface EmbeddingSetup {
  provider: string;
  base_url?: string;
  api_key?: string;
  model?: string;
  model_path?: string;
  dimensions: number;
  chunk_size?: number;
  chunk_overlap?: number;
}

/** Saves the embedding settings, builds the space's vectors and waits for it to become active. */
export async function buildVectors(s: EmbeddingSetup, timeoutMs = 20 * 60_000): Promise<{ spaceId: number; chunks: number; ms: number }> {
  const started = performance.now();
  const values: Record<string, unknown> = { enable: true, batch_size: 32, ...s };
  updateConfig(Object.entries(values).filter(([, v]) => v !== undefined).map(([name, value]) => ({ category: "embedding", name, value })));
  syncSpaces({ force: true });
  const worker = startWorker({ concurrency: 1, pollMs: 20 });
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      const busy = getSqlite().query<{ n: number }, []>("SELECT count(*) AS n FROM jobs WHERE kind LIKE 'embedding.%' AND status IN ('queued', 'running')").get()!.n;
      if (!busy && activeSpace()) break;
      if (!busy) {
        const failed = getSqlite().query<{ error: string }, []>("SELECT error FROM jobs WHERE kind LIKE 'embedding.%' AND status = 'failed' ORDER BY id DESC LIMIT 1").get();
        throw new Error(`向量化没有完成：${failed?.error ?? "没有可用的向量空间"}`);
      }
      if (Date.now() > deadline) throw new Error("向量化超时");
      await Bun.sleep(50);
    }
  } finally {
    await worker.stop();
  }
  const space = activeSpace()!;
  const chunks = getSqlite().query<{ n: number }, []>(`SELECT count(*) AS n FROM chunk_vec_${space.id}`).get()!.n;
  return { spaceId: space.id, chunks, ms: performance.now() - started };
}
