// Markdown (an AI answer) → a PNG card 640 px wide. The rendering (fonts, satori layout, resvg
// raster) runs in one Bun Worker (imageWorker.ts), so it never blocks the event loop and its memory
// (≈100 MB of Noto Sans SC plus satori's and resvg's buffers) is given back when the worker, idle
// for IDLE_MS, is terminated. Jobs run one at a time (the server has two cores), in arrival order;
// each has JOB_TIMEOUT_MS from its start before it fails with 生成图片超时 and the worker is dropped.
import { dlopen, FFIType } from "bun:ffi";
import { AppError } from "#src/lib/errors.ts";
import type { ImageJob, ImageReply } from "./imageWorker.ts";

export { MAX_HEIGHT, WIDTH } from "./imageSize.ts";

export const JOB_TIMEOUT_MS = 20_000;
export const IDLE_MS = 60_000;

let jobTimeoutMs = JOB_TIMEOUT_MS;
let idleMs = IDLE_MS;

/** For tests: shorter job and idle time-outs; no argument restores the defaults. */
export function setImageWorkerTimeouts(t: { jobMs?: number; idleMs?: number } = {}) {
  jobTimeoutMs = t.jobMs ?? JOB_TIMEOUT_MS;
  idleMs = t.idleMs ?? IDLE_MS;
  if (idleTimer) armIdle();
}

interface Pending {
  markdown: string;
  opts: { title?: string; siteName: string };
  resolve: (png: Uint8Array) => void;
  reject: (err: Error) => void;
}

const queue: Pending[] = [];
let worker: Worker | null = null;
let running: { id: number; job: Pending; timer: Timer } | null = null;
let idleTimer: Timer | null = null;
let nextId = 1;
let started = 0;

/** For tests and benchmarks: whether a worker is alive, and how many have been started so far. */
export function imageWorkerState() {
  return { alive: worker !== null, started, queued: queue.length, busy: running !== null };
}

function stopWorker() {
  const w = worker;
  worker = null;
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  w?.terminate();
}

function armIdle() {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = setTimeout(stopWorker, idleMs);
  // An idle worker does not keep the process alive.
  idleTimer.unref();
}

/** Ends the running job (if any) and starts the next one. */
function finish(id: number, outcome: { png: Uint8Array } | { error: Error }) {
  if (!running || running.id !== id) return;
  const { job, timer } = running;
  clearTimeout(timer);
  running = null;
  if ("png" in outcome) job.resolve(outcome.png);
  else job.reject(outcome.error);
  next();
}

/** The worker died or misbehaved: the running job fails with `error`, the next job gets a new worker. */
function crash(w: Worker, error: Error) {
  if (w !== worker) return;
  stopWorker();
  if (running) finish(running.id, { error });
}

let allocatorTuned = false;

/**
 * resvg-js carries its own mimalloc, which frees memory back to the system only "10 ms later", on
 * its next call: after the last render of a burst that is never, and 40–90 MB stay resident after
 * the worker is gone. With MIMALLOC_PURGE_DELAY=0 it returns them at once (idle RSS after a burst
 * ≈35 MB lower, peak lower too, renders ≈5% slower). mimalloc reads the C environment once, when
 * the addon is loaded (in the first worker), and Bun's process.env does not write to it: hence
 * setenv via bun:ffi, before the first worker, and never over a value the operator has set.
 */
function tuneResvgAllocator() {
  if (allocatorTuned) return;
  allocatorTuned = true;
  if (process.platform !== "linux" || process.env.MIMALLOC_PURGE_DELAY !== undefined) return;
  try {
    const libc = dlopen("libc.so.6", { setenv: { args: [FFIType.cstring, FFIType.cstring, FFIType.i32], returns: FFIType.i32 } });
    libc.symbols.setenv(Buffer.from("MIMALLOC_PURGE_DELAY\0"), Buffer.from("0\0"), 0);
    libc.close();
  } catch {
    // Not glibc (or no FFI): the images are the same, only the memory comes back later.
  }
}

function spawn(): Worker {
  tuneResvgAllocator();
  const w = new Worker(new URL("./imageWorker.ts", import.meta.url));
  started++;
  // Only the running job's timer keeps the process alive, never the worker itself.
  // (Bun's Worker has unref(); the DOM lib's Worker type, which tsc sees here, does not.)
  (w as Worker & { unref(): void }).unref();
  w.onmessage = (e: MessageEvent<ImageReply>) => {
    if (w !== worker) return;
    const r = e.data;
    if ("png" in r) finish(r.id, { png: new Uint8Array(r.png) });
    else finish(r.id, { error: new Error(`生成图片失败：${r.error}`) });
  };
  w.onerror = (e: ErrorEvent) => {
    e.preventDefault();
    crash(w, new Error(`生成图片失败：${e.message || "渲染线程出错"}`));
  };
  w.onmessageerror = () => crash(w, new Error("生成图片失败：渲染结果无法读取"));
  // Bun fires "close" when the worker's thread ends: after terminate() (then w is no longer `worker`)
  // or on its own (process.exit in the worker, a fatal error).
  w.addEventListener("close", () => crash(w, new Error("生成图片失败：渲染线程意外退出")));
  return w;
}

function next() {
  if (running) return;
  const job = queue.shift();
  if (!job) {
    if (worker) armIdle();
    return;
  }
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  worker ??= spawn();
  const id = nextId++;
  const w = worker;
  const timer = setTimeout(() => {
    // A render stuck in layout or raster: this worker is dropped, the next job starts a fresh one.
    if (w === worker) stopWorker();
    finish(id, { error: new AppError(503, "image_timeout", "生成图片超时") });
  }, jobTimeoutMs);
  running = { id, job, timer };
  try {
    w.postMessage({ id, markdown: job.markdown, opts: { title: job.opts.title, siteName: job.opts.siteName } } satisfies ImageJob);
  } catch (err) {
    crash(w, new Error(`生成图片失败：${err instanceof Error ? err.message : String(err)}`));
  }
}

export function markdownToPng(markdown: string, opts: { title?: string; siteName: string }): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    queue.push({ markdown, opts, resolve, reject });
    next();
  });
}
