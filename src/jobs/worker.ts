import { isBusyError, withBusyTimeout } from "#db/client.ts";
import { log } from "#src/http/requestLog.ts";
import { claim, complete, enqueue, enqueueOnce, fail, getJob, heartbeat, onJobExhausted, recoverOrphans, type ExhaustedHook, type JobRow } from "./queue.ts";

export interface JobContext {
  job: JobRow;
  payload: any;
  /** call periodically; reports progress and keeps the lease */
  progress(pct: number): boolean;
  /** aborted on timeout or lost lease: kill subprocesses and stop */
  signal: AbortSignal;
}

/** A handler returns its result; `effects` are committed together with the job's completion. */
export type JobHandler = (ctx: JobContext) => Promise<{ result?: unknown; effects?: () => void } | void>;

export interface JobOptions {
  timeoutMs?: number;
  /** recurring kinds: one job is kept scheduled, the next one enqueued when a run completes */
  everyMs?: number;
  /** at most this many jobs of the kind run at once in this process (read before every claim) */
  concurrency?: () => number;
  /** kinds naming the same slot count against one concurrency limit together (conversion and full-page renders) */
  slot?: string;
  /** runs in the transaction that fails the job for good (attempts used up, however that happened) */
  onExhausted?: ExhaustedHook;
}

const handlers = new Map<string, { fn: JobHandler; timeoutMs: number; everyMs?: number; concurrency?: () => number; slot: string }>();
const HEARTBEAT_MS = 10_000;

export function registerJob(kind: string, fn: JobHandler, opts: JobOptions = {}) {
  handlers.set(kind, { fn, timeoutMs: opts.timeoutMs ?? 10 * 60_000, everyMs: opts.everyMs, concurrency: opts.concurrency, slot: opts.slot ?? kind });
  onJobExhausted(kind, opts.onExhausted);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// Background writes never wait on the JS thread for another process's lock: they try without
// waiting and, when the database is busy, back off asynchronously (requests keep being served).
const BUSY_BACKOFF_MIN_MS = 100;
const BUSY_BACKOFF_MAX_MS = 5_000;
const BUSY_RETRY_FOR_MS = 120_000;

/** Runs a background write without blocking on the lock; retries with backoff while the database is busy. */
export async function retryWhileBusy<T>(fn: () => T, forMs = BUSY_RETRY_FOR_MS): Promise<T> {
  const until = Date.now() + forMs;
  for (let wait = BUSY_BACKOFF_MIN_MS; ; wait = Math.min(BUSY_BACKOFF_MAX_MS, wait * 2)) {
    try {
      return withBusyTimeout(0, fn);
    } catch (err) {
      if (!isBusyError(err) || Date.now() + wait > until) throw err;
    }
    await sleep(wait);
  }
}

export interface WorkerOptions { concurrency?: number; pollMs?: number; /** how long stop() lets running jobs finish */ stopGraceMs?: number }

/** Runs registered job kinds with a concurrency limit until stop() is called. */
export function startWorker(opts: WorkerOptions = {}) {
  const concurrency = opts.concurrency ?? 2;
  const pollMs = opts.pollMs ?? 500;
  // Start-up, before anything is served: these may wait for another process's write lock.
  const recovered = withBusyTimeout(5_000, () => recoverOrphans());
  if (recovered) log("warn", "jobs recovered after restart", { count: recovered });
  for (const [kind, h] of handlers) if (h.everyMs) withBusyTimeout(5_000, () => enqueueOnce(kind));
  let running = 0;
  const runningBySlot = new Map<string, number>();
  // Kinds with a free slot under their own limit (e.g. converter.concurrency for conversions).
  const claimable = () => [...handlers].filter(([, h]) => !h.concurrency || (runningBySlot.get(h.slot) ?? 0) < Math.max(1, h.concurrency())).map(([kind]) => kind);
  let stopped = false;
  const active = new Set<Promise<void>>();
  const controllers = new Set<AbortController>();

  const runOne = async (job: JobRow) => {
    const h = handlers.get(job.kind)!;
    const ctrl = new AbortController();
    controllers.add(ctrl);
    // A handler that ignores its signal must not hold a slot (and, through heartbeats, its lease) forever.
    const aborted = new Promise<never>((_, reject) => ctrl.signal.addEventListener("abort", () => reject(ctrl.signal.reason), { once: true }));
    aborted.catch(() => {});
    const timeout = setTimeout(() => ctrl.abort(new Error("任务超时")), h.timeoutMs);
    // A busy database skips a beat (never waits for the lock); the lease outlasts a few of them.
    const beatNow = (progress?: number) => {
      try {
        return withBusyTimeout(0, () => heartbeat(job.id, progress));
      } catch (err) {
        if (!isBusyError(err)) log("warn", "job heartbeat failed", { id: job.id, error: String(err) });
        return true;
      }
    };
    const beat = setInterval(() => {
      if (!beatNow()) ctrl.abort(new Error("任务租约丢失"));
    }, HEARTBEAT_MS);
    try {
      const run = h.fn({ job, payload: JSON.parse(job.payload), progress: (p) => beatNow(Math.round(p)), signal: ctrl.signal });
      const out = await Promise.race([run, aborted]);
      if (ctrl.signal.aborted) throw ctrl.signal.reason;
      const effects = out?.effects;
      const next = h.everyMs ? () => enqueue(job.kind, {}, { runAfter: Date.now() + h.everyMs! }) : undefined;
      // Completion is conditional on still owning the job, so waiting out a busy database is safe.
      const done = await retryWhileBusy(() => complete(job.id, out?.result ?? null, effects || next ? () => { effects?.(); next?.(); } : undefined));
      if (!done) log("warn", "job result discarded: another worker holds the job", { id: job.id, kind: job.kind, attempt: job.attempts });
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      log("warn", "job failed", { id: job.id, kind: job.kind, attempt: job.attempts, error: msg });
      try {
        // A recurring kind whose run failed for good still gets its next run.
        if ((await retryWhileBusy(() => fail(job.id, msg))) && h.everyMs && getJob(job.id)?.status === "failed") {
          await retryWhileBusy(() => enqueueOnce(job.kind, {}, { runAfter: Date.now() + h.everyMs! }));
        }
      } catch (e) {
        // The lease runs out and another attempt picks the job up.
        log("error", "job failure not recorded", { id: job.id, error: String(e) });
      }
    } finally {
      controllers.delete(ctrl);
      clearTimeout(timeout);
      clearInterval(beat);
    }
  };

  // While another process holds the write lock, claims pause and retry with backoff.
  let busyUntil = 0;
  let busyWait = 0;
  const tick = () => {
    if (stopped || Date.now() < busyUntil) return;
    try {
      while (running < concurrency) {
        const job = withBusyTimeout(0, () => claim(claimable()));
        busyWait = 0;
        if (!job) break;
        running++;
        const slot = handlers.get(job.kind)!.slot;
        runningBySlot.set(slot, (runningBySlot.get(slot) ?? 0) + 1);
        const p = runOne(job).finally(() => {
          running--;
          runningBySlot.set(slot, runningBySlot.get(slot)! - 1);
          active.delete(p);
          queueMicrotask(tick);
        });
        active.add(p);
      }
    } catch (err) {
      if (isBusyError(err)) {
        busyWait = Math.min(BUSY_BACKOFF_MAX_MS, busyWait ? busyWait * 2 : 250);
        busyUntil = Date.now() + busyWait;
        setTimeout(tick, busyWait + 1);
        log("debug", "job claim deferred: database busy", { retry_ms: busyWait });
        return;
      }
      // Anything else must not kill the server either; the next poll tries again.
      log("error", "job claim failed", { error: String(err) });
    }
  };
  const interval = setInterval(tick, pollMs);
  tick();
  return {
    kick: tick,
    /** Lets running jobs finish for a grace period, then aborts them (they are retried later). */
    async stop() {
      stopped = true;
      clearInterval(interval);
      const all = Promise.allSettled([...active]);
      let timer: Timer | undefined;
      const grace = new Promise<"late">((r) => (timer = setTimeout(() => r("late"), opts.stopGraceMs ?? 10_000)));
      const first = await Promise.race([all, grace]);
      clearTimeout(timer);
      if (first === "late") {
        for (const c of controllers) c.abort(new Error("服务停止，任务稍后重试"));
        await all;
      }
    },
  };
}
