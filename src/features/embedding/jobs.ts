import { getSqlite } from "#db/client.ts";
import { log } from "#src/http/requestLog.ts";
import { enqueueOnce } from "#src/jobs/queue.ts";
import { registerJob, retryWhileBusy } from "#src/jobs/worker.ts";
import { setting } from "#src/features/settings/service.ts";
import { embeddingConfig } from "./config.ts";
import { DOCUMENT_JOB, dropDocumentVectors, embeddable } from "./enqueue.ts";
import { EmbeddingError, describe } from "./errors.ts";
import { EMBED_STATUS, embedDocument } from "./indexer.ts";
import { activateSpace, activeSpace, buildingSpace, dropLeftovers, liveSpaces, REBUILD_JOB, SPACE, syncSpaces, type Space } from "./spaces.ts";

// The two embedding jobs. `embedding.document` embeds one document into the live spaces after its
// text changed; `embedding.rebuild` fills a space with every servable document it lacks (a new
// space after a settings change, or documents converted while embeddings were off) and, for a
// building space, switches it active when done. Both share one slot (embedding.concurrency).

export const EMBEDDING_SLOT = "embedding";
const concurrency = () => embeddingConfig().concurrency;
// A rebuild works in slices and queues its own continuation, so one job never runs for hours and
// a restart loses at most a slice (documents already committed are not embedded again).
const SLICE_MS = 4 * 60_000;
// This many failures in a row mean the provider is down or refusing: stop instead of marking the
// whole library failed; the job's retries (with backoff) pick up where it stopped.
const MAX_FAILURES_IN_A_ROW = 3;
// A building space whose failures stay under this share replaces the active one (the failures are
// listed for retry); above it the old space keeps serving until someone looks.
const MAX_FAILED_SHARE = 0.05;

const missingSql = `SELECT d.id FROM document d WHERE d.status = 2 AND d.deleted_at IS NULL AND d.id > ?
  AND NOT EXISTS (SELECT 1 FROM document_embedding de WHERE de.space_id = ? AND de.document_id = d.id AND de.status IN (2, 3))
  ORDER BY d.id LIMIT ?`;
const missing = (spaceId: number, after: number, n: number) => getSqlite().query<{ id: number }, [number, number, number]>(missingSql).all(after, spaceId, n).map((r) => r.id);
const missingCount = (spaceId: number) => getSqlite().query<{ n: number }, [number]>(`SELECT count(*) AS n FROM document d WHERE d.status = 2 AND d.deleted_at IS NULL
  AND NOT EXISTS (SELECT 1 FROM document_embedding de WHERE de.space_id = ? AND de.document_id = d.id AND de.status IN (2, 3))`).get(spaceId)!.n;

/** Whether a finished building space may replace the active one. */
function readyToActivate(space: Space): boolean {
  const c = getSqlite().query<{ ok: number; bad: number }, [number]>(`SELECT
      coalesce(sum(de.status = 2), 0) AS ok, coalesce(sum(de.status = 3), 0) AS bad
    FROM document_embedding de JOIN document d ON d.id = de.document_id
    WHERE de.space_id = ? AND d.status = 2 AND d.deleted_at IS NULL`).get(space.id)!;
  if (!activeSpace()) return c.ok > 0 || c.bad === 0;
  return c.bad <= Math.floor((c.ok + c.bad) * MAX_FAILED_SHARE);
}

registerJob(REBUILD_JOB, async ({ progress, signal }) => {
  if (!setting("embedding", "enable")) return { result: { skipped: "embedding off" } };
  await retryWhileBusy(() => {
    syncSpaces();
    dropLeftovers();
  });
  const deadline = Date.now() + SLICE_MS;
  const spaces = [buildingSpace(), activeSpace()].filter((s): s is Space => !!s);
  const total = spaces.reduce((n, s) => n + missingCount(s.id), 0);
  let done = 0;
  let inARow = 0;
  const report: Record<string, unknown> = { embedded: 0, failed: 0 };
  for (const space of spaces) {
    for (let after = 0; ;) {
      const ids = missing(space.id, after, 20);
      if (!ids.length) break;
      for (const id of ids) {
        if (Date.now() > deadline) return { result: { ...report, continued: true }, effects: () => void enqueueOnce(REBUILD_JOB, {}) };
        after = id;
        const out = await embedDocument(id, { requested: [space], signal });
        done++;
        progress(total ? (done / total) * 100 : 100);
        if (out.error) {
          report.failed = Number(report.failed) + 1;
          if (++inARow >= MAX_FAILURES_IN_A_ROW) throw new Error(`连续 ${inARow} 篇文档向量化失败，已暂停：${describe(out.error)}`);
        } else {
          inARow = 0;
          report.embedded = Number(report.embedded) + 1;
        }
      }
    }
    if (space.status === SPACE.building && readyToActivate(space)) {
      const switched = await retryWhileBusy(() => activateSpace(space.id));
      if (switched) log("info", "embedding space activated", { space: space.id, model_key: space.model_key });
      report.activated = switched ? space.id : null;
    }
  }
  return { result: report };
}, { slot: EMBEDDING_SLOT, concurrency, timeoutMs: SLICE_MS + 10 * 60_000 });

registerJob(DOCUMENT_JOB, async ({ payload, signal, progress }) => {
  const id = Math.trunc(Number((payload as { document_id?: unknown }).document_id));
  if (!setting("embedding", "enable") || !id) return { result: { skipped: "embedding off" } };
  await retryWhileBusy(() => syncSpaces());
  if (!liveSpaces().length) return { result: { skipped: "no space" } };
  if (!embeddable(id)) {
    await retryWhileBusy(() => dropDocumentVectors(id));
    return { result: { document_id: id, skipped: "hidden" } };
  }
  const out = await embedDocument(id, { signal, onProgress: progress });
  // A time-out, 429 or 5xx may pass: the queue tries again later (the status row shows the error meanwhile).
  if (out.error instanceof EmbeddingError && out.error.transient) throw out.error;
  return { result: { document_id: id, chunks: out.chunks, ms: out.ms, skipped: out.skipped ?? null, error: out.error ? describe(out.error) : null } };
}, {
  slot: EMBEDDING_SLOT, concurrency, timeoutMs: 30 * 60_000,
  // Out of attempts (or killed on every one): whatever is still pending or running for the document failed.
  onExhausted: (job, error) => {
    const id = Math.trunc(Number(JSON.parse(job.payload || "{}").document_id));
    if (id) getSqlite().query("UPDATE document_embedding SET status = ?, error = ?, updated_at = ? WHERE document_id = ? AND status IN (0, 1)").run(EMBED_STATUS.failed, error.slice(0, 500), Date.now(), id);
  },
});
