import { describeTimeout } from "#src/features/convert/tools.ts";
import { log } from "#src/http/requestLog.ts";
import type { OcrEngineName } from "../settings.ts";
import { startPaddle } from "./paddle.ts";
import { startTesseract } from "./tesseract.ts";
import { PageError, type EngineInstance, type Recognised } from "./types.ts";

// Loaded engines are kept between pages and jobs (loading takes about a second and tens of MB),
// one per page being recognised at once — the ocr.document job's concurrency bounds that — and
// stopped after a minute without work. An engine that overruns the page time-out, or whose job is
// aborted, is stopped at once: its thread cannot be interrupted any other way.

export const IDLE_MS = 60_000;

interface Slot { key: string; busy: boolean; engine: Promise<EngineInstance> }
const slots: Slot[] = [];
let idleTimer: Timer | undefined;

export class PageTimeout extends Error {
  override name = "PageTimeout";
}

const keyOf = (engine: OcrEngineName, languages: string[]) => (engine === "tesseract" ? `tesseract:${languages.join("+")}` : "paddle");

function drop(slot: Slot) {
  const i = slots.indexOf(slot);
  if (i >= 0) slots.splice(i, 1);
  void slot.engine.then((e) => e.close(), () => {});
}

function scheduleIdleStop() {
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    for (const s of slots.filter((x) => !x.busy)) drop(s);
  }, IDLE_MS);
  idleTimer.unref?.();
}

function take(engine: OcrEngineName, languages: string[]): Slot {
  const key = keyOf(engine, languages);
  // Settings changed: idle engines of the old kind go now rather than after the idle delay.
  for (const s of slots.filter((x) => !x.busy && x.key !== key)) drop(s);
  const free = slots.find((s) => !s.busy && s.key === key);
  if (free) {
    free.busy = true;
    return free;
  }
  const slot: Slot = { key, busy: true, engine: engine === "tesseract" ? startTesseract(languages) : startPaddle() };
  slots.push(slot);
  // An engine that failed to start is not kept for the next page.
  slot.engine.catch(() => drop(slot));
  return slot;
}

/**
 * Recognises one page image with a loaded engine. Throws PageTimeout after `timeoutMs`, the
 * signal's reason when aborted, EngineUnavailable when the engine cannot start.
 */
export async function recognize(image: string, opts: { engine: OcrEngineName; languages: string[]; timeoutMs: number; signal: AbortSignal }): Promise<Recognised> {
  opts.signal.throwIfAborted();
  clearTimeout(idleTimer);
  const slot = take(opts.engine, opts.languages);
  let timer: Timer | undefined;
  let onAbort = () => {};
  const stop = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PageTimeout(`识别超时（超过 ${describeTimeout(opts.timeoutMs)}）`)), opts.timeoutMs);
    onAbort = () => reject(opts.signal.reason);
    opts.signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    const result = await Promise.race([slot.engine.then((e) => e.recognize(image)), stop]);
    slot.busy = false;
    return result;
  } catch (e) {
    if (e instanceof PageError) slot.busy = false;
    else {
      // Timed out, aborted or crashed mid-page: the engine's state is unknown, start afresh next time.
      log("warn", "ocr engine stopped", { engine: slot.key, error: String((e as Error)?.message ?? e) });
      drop(slot);
    }
    throw e;
  } finally {
    clearTimeout(timer);
    opts.signal.removeEventListener("abort", onAbort);
    if (!slots.some((s) => s.busy)) scheduleIdleStop();
  }
}

/** Stops every loaded engine (server shutdown, the end of a bench or a test file). */
export async function closeEngines() {
  clearTimeout(idleTimer);
  const all = slots.splice(0);
  await Promise.all(all.map((s) => s.engine.then((e) => e.close(), () => {})));
}

/** How many engines are loaded (tests check reuse and the idle stop). */
export const loadedEngines = () => slots.length;
