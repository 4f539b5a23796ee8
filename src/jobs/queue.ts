import { and, eq, inArray } from "drizzle-orm";
import { hostname } from "node:os";
import { getDb, getSqlite } from "#db/client.ts";
import { jobs } from "#db/schema/jobs.ts";
import { log } from "#src/http/requestLog.ts";

export type JobRow = typeof jobs.$inferSelect;

/** Who holds a lease: host, pid and a per-process nonce, so a restarted process never matches. */
export const WORKER_ID = `${hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
export const LEASE_MS = 30_000;
const MAX_BACKOFF_MS = 60_000;

export function enqueue(kind: string, payload: unknown = {}, opts: { runAfter?: number; maxAttempts?: number } = {}) {
  return getDb().insert(jobs).values({
    kind, payload: JSON.stringify(payload), run_after: opts.runAfter ?? 0, max_attempts: opts.maxAttempts ?? 3,
  }).returning().get();
}

/** Enqueues a job of `kind` unless one is already waiting or running: recurring jobs never pile up. */
export function enqueueOnce(kind: string, payload: unknown = {}, opts: { runAfter?: number; maxAttempts?: number } = {}): JobRow | null {
  const sqlite = getSqlite();
  return sqlite.transaction(() => {
    const pending = getDb().select({ id: jobs.id }).from(jobs).where(and(eq(jobs.kind, kind), inArray(jobs.status, ["queued", "running"]))).get();
    return pending ? null : enqueue(kind, payload, opts);
  }).immediate();
}

/**
 * Called inside the transaction that marks a job of `kind` failed for good (attempts used up, by a
 * final failed attempt or because its worker died on every attempt), so a feature can record the
 * outcome (e.g. a document's conversion failed) exactly once with the job's own state.
 */
export type ExhaustedHook = (job: JobRow, error: string) => void;
const exhaustedHooks = new Map<string, ExhaustedHook>();
export const onJobExhausted = (kind: string, hook: ExhaustedHook | undefined) => void (hook ? exhaustedHooks.set(kind, hook) : exhaustedHooks.delete(kind));
function runExhausted(job: JobRow, error: string) {
  try {
    exhaustedHooks.get(job.kind)?.(job, error);
  } catch (err) {
    // The job still ends as failed; a broken hook must not make it run forever.
    log("error", "job exhausted hook failed", { id: job.id, kind: job.kind, error: String(err) });
  }
}

/** Backoff before attempt n+1 after n failed attempts: 2 s, 4 s, 8 s … capped at a minute. */
export const backoffMs = (attempts: number) => Math.min(MAX_BACKOFF_MS, 1000 * 2 ** attempts);

const ownerAlive = (owner: string | null) => {
  if (!owner) return false;
  const [host, pid] = owner.split(":");
  if (host !== hostname()) return true; // cannot check another host; its lease decides
  // Same pid, other nonce: an earlier process that had our pid (pid 1 in a container restart).
  if (owner.startsWith(`${hostname()}:${process.pid}:`) && owner !== WORKER_ID) return false;
  try {
    process.kill(Number(pid), 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * At start: running jobs whose process is gone (crash, kill -9) go back to the queue at once
 * instead of waiting for their lease to run out. Their attempt already counts.
 */
export function recoverOrphans(): number {
  const running = getDb().select({ id: jobs.id, owner: jobs.lease_owner }).from(jobs).where(eq(jobs.status, "running")).all();
  const requeue = getSqlite().query(
    "UPDATE jobs SET status='queued', lease_owner=NULL, lease_until=NULL, run_after=0, updated_at=? WHERE id=? AND status='running' AND lease_owner IS ?",
  );
  let n = 0;
  for (const r of running) {
    if (!ownerAlive(r.owner)) n += requeue.run(Date.now(), r.id, r.owner).changes;
  }
  return n;
}

/**
 * Atomically takes the next ready job (or one whose lease ran out) for this worker.
 * A job out of attempts is marked failed instead of being run again.
 */
export function claim(kinds: string[], now = Date.now()): JobRow | null {
  if (!kinds.length) return null;
  const sqlite = getSqlite();
  const placeholders = kinds.map(() => "?").join(",");
  const next = sqlite.query(
    `SELECT * FROM jobs WHERE kind IN (${placeholders}) AND (
       (status = 'queued' AND run_after <= ?) OR (status = 'running' AND lease_until < ?)
     ) ORDER BY run_after, id LIMIT 1`,
  );
  const exhaust = sqlite.query(
    `UPDATE jobs SET status='failed', error=CASE WHEN error='' THEN '重试次数已用完' ELSE error END, lease_owner=NULL, lease_until=NULL, finished_at=?, updated_at=? WHERE id=?`,
  );
  const take = sqlite.query(
    `UPDATE jobs SET status='running', attempts=attempts+1, lease_owner=?, lease_until=?, updated_at=? WHERE id=? RETURNING *`,
  );
  // IMMEDIATE takes the write lock before reading, so two processes never pick the same row.
  return sqlite.transaction(() => {
    for (;;) {
      const row = next.get(...kinds, now, now) as JobRow | null;
      if (!row) return null;
      if (row.attempts < row.max_attempts) return take.get(WORKER_ID, now + LEASE_MS, now, row.id) as JobRow;
      exhaust.run(now, now, row.id);
      // Its worker never reported back (killed mid-job on every attempt).
      runExhausted(row, row.error || "重试次数已用完");
    }
  }).immediate();
}

/** Extends the lease while a job runs; false means the lease was lost and the work must stop. */
export function heartbeat(id: number, progress?: number): boolean {
  const now = Date.now();
  return getSqlite().query(
    "UPDATE jobs SET lease_until=?, updated_at=?, progress=COALESCE(?, progress) WHERE id=? AND status='running' AND lease_owner=?",
  ).run(now + LEASE_MS, now, progress ?? null, id, WORKER_ID).changes === 1;
}

/**
 * Marks the job done only if this worker still holds it; `effects` runs in the same transaction,
 * so a job's outcome is committed exactly once even if a stale worker finishes late.
 */
export function complete(id: number, result: unknown = null, effects?: () => void): boolean {
  const sqlite = getSqlite();
  return sqlite.transaction(() => {
    const now = Date.now();
    const changed = sqlite.query(
      `UPDATE jobs SET status='done', progress=100, result=?, error='', lease_owner=NULL, lease_until=NULL, finished_at=?, updated_at=? WHERE id=? AND status='running' AND lease_owner=?`,
    ).run(result === null ? "" : JSON.stringify(result), now, now, id, WORKER_ID).changes;
    if (changed !== 1) return false;
    effects?.();
    return true;
  }).immediate();
}

/**
 * A failed attempt goes back to the queue with backoff, or ends as failed when attempts are used up.
 * Does nothing (returns false) when this worker no longer holds the job.
 */
export function fail(id: number, error: string): boolean {
  const sqlite = getSqlite();
  return sqlite.transaction(() => {
    const now = Date.now();
    const row = getDb().select().from(jobs).where(and(eq(jobs.id, id), eq(jobs.status, "running"), eq(jobs.lease_owner, WORKER_ID))).get();
    if (!row) return false;
    const final = row.attempts >= row.max_attempts;
    getDb().update(jobs).set({
      status: final ? "failed" : "queued", error: error.slice(0, 2000), lease_owner: null, lease_until: null,
      run_after: final ? row.run_after : now + backoffMs(row.attempts), finished_at: final ? now : null, updated_at: now,
    }).where(and(eq(jobs.id, id), eq(jobs.lease_owner, WORKER_ID))).run();
    if (final) runExhausted(row, error);
    return true;
  }).immediate();
}

export const getJob = (id: number) => getDb().select().from(jobs).where(eq(jobs.id, id)).get() ?? null;

/** Finished jobs are history, not state: done/failed rows older than `keepMs` are removed. */
export function purgeFinishedJobs(keepMs = 7 * 86400_000, now = Date.now()): number {
  // bun:sqlite directly, like the updates above: drizzle types bun-sqlite's run() result as void.
  return getSqlite().query("DELETE FROM jobs WHERE status IN ('done', 'failed') AND finished_at < ?").run(now - keepMs).changes;
}
