import { log } from "#src/http/requestLog.ts";
import { claim, complete, fail, heartbeat, recoverOrphans, type JobRow } from "./queue.ts";

export interface JobContext {
  job: JobRow;
  payload: any;
  /** call periodically; reports progress and keeps the lease */
  progress(pct: number): boolean;
  signal: AbortSignal;
}

/** A handler returns its result; `effects` are committed together with the job's completion. */
export type JobHandler = (ctx: JobContext) => Promise<{ result?: unknown; effects?: () => void } | void>;

const handlers = new Map<string, { fn: JobHandler; timeoutMs: number }>();

export function registerJob(kind: string, fn: JobHandler, timeoutMs = 10 * 60_000) {
  handlers.set(kind, { fn, timeoutMs });
}

export interface WorkerOptions { concurrency?: number; pollMs?: number }

/** Runs registered job kinds with a concurrency limit until stop() is called. */
export function startWorker(opts: WorkerOptions = {}) {
  const concurrency = opts.concurrency ?? 2;
  const pollMs = opts.pollMs ?? 500;
  const recovered = recoverOrphans();
  if (recovered) log("warn", "jobs recovered after restart", { count: recovered });
  let running = 0;
  let stopped = false;
  const active = new Set<Promise<void>>();

  const runOne = async (job: JobRow) => {
    const h = handlers.get(job.kind)!;
    const ctrl = new AbortController();
    const timeout = setTimeout(() => ctrl.abort(new Error("任务超时")), h.timeoutMs);
    const beat = setInterval(() => heartbeat(job.id) || ctrl.abort(new Error("任务租约丢失")), 10_000);
    try {
      const out = await h.fn({ job, payload: JSON.parse(job.payload), progress: (p) => heartbeat(job.id, Math.round(p)), signal: ctrl.signal });
      if (ctrl.signal.aborted) throw ctrl.signal.reason;
      complete(job.id, out?.result ?? null, out?.effects);
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      log("warn", "job failed", { id: job.id, kind: job.kind, attempt: job.attempts, error: msg });
      fail(job.id, msg);
    } finally {
      clearTimeout(timeout);
      clearInterval(beat);
    }
  };

  const tick = () => {
    if (stopped) return;
    while (running < concurrency) {
      const job = claim([...handlers.keys()]);
      if (!job) break;
      running++;
      const p = runOne(job).finally(() => {
        running--;
        active.delete(p);
        queueMicrotask(tick);
      });
      active.add(p);
    }
  };
  const interval = setInterval(tick, pollMs);
  tick();
  return {
    kick: tick,
    async stop() {
      stopped = true;
      clearInterval(interval);
      await Promise.allSettled([...active]);
    },
  };
}
