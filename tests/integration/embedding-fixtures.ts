// Shared set-up of the embedding tests: a temp DATA_DIR with the tests' tiny ONNX model, the
// embedding settings written through the real settings service, and the real job worker run
// until the embedding jobs are done.
import { afterAll, beforeAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getSqlite } from "#db/client.ts";
import { clearEmbedders } from "#src/features/embedding/embedder.ts";
import { setModelDataDir, unloadLocalModels } from "#src/features/embedding/local.ts";
import { resetSpaceSync } from "#src/features/embedding/spaces.ts";
import { clearQueryCache } from "#src/features/embedding/vectors.ts";
import "#src/features/embedding/jobs.ts";
import { updateConfig } from "#src/features/settings/service.ts";
import { startWorker } from "#src/jobs/worker.ts";
import { buildTinyEmbeddingModel } from "../helpers/tinyEmbeddingModel.ts";

export const TINY_DIMS = 128;

/** DATA_DIR/models/tiny-zh holds the tiny model for the whole file. */
export function useTinyModel() {
  const state = { dataDir: "" };
  beforeAll(() => {
    state.dataDir = mkdtempSync(join(tmpdir(), "wk-emb-"));
    setModelDataDir(state.dataDir);
    buildTinyEmbeddingModel(join(state.dataDir, "models", "tiny-zh"), TINY_DIMS);
  });
  afterAll(() => {
    setModelDataDir(null);
    unloadLocalModels();
    rmSync(state.dataDir, { recursive: true, force: true });
  });
  return state;
}

export function setEmbedding(values: Record<string, string | number | boolean>) {
  updateConfig(Object.entries(values).map(([name, value]) => ({ category: "embedding", name, value })));
  clearQueryCache();
}

export const LOCAL = { enable: true, provider: "local", model_path: "tiny-zh", dimensions: TINY_DIMS, chunk_size: 120, chunk_overlap: 20, batch_size: 8 };

/** Forgets what the embedding module cached from an earlier test file's database. */
export function resetEmbeddingState() {
  resetSpaceSync();
  clearQueryCache();
  clearEmbedders();
}

const pendingJobs = () => getSqlite().query<{ n: number }, []>("SELECT count(*) AS n FROM jobs WHERE kind LIKE 'embedding.%' AND status IN ('queued', 'running')").get()!.n;

/** Runs the real worker until no embedding job is waiting or running (retries with backoff included). */
export async function drainEmbeddingJobs(timeoutMs = 20_000) {
  const worker = startWorker({ concurrency: 1, pollMs: 20, stopGraceMs: 5_000 });
  const until = Date.now() + timeoutMs;
  try {
    while (pendingJobs() > 0) {
      if (Date.now() > until) throw new Error("embedding jobs did not finish in time");
      await Bun.sleep(20);
    }
  } finally {
    await worker.stop();
  }
}

export const row = <T>(sql: string, ...args: (string | number)[]) => getSqlite().query(sql).get(...args) as T;
export const rows = <T>(sql: string, ...args: (string | number)[]) => getSqlite().query(sql).all(...args) as T[];
export const countOf = (sql: string, ...args: (string | number)[]) => (getSqlite().query(sql).get(...args) as { n: number }).n;
