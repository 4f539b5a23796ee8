import type { Presegmented } from "#src/features/search/indexer.ts";
import { type IndexSettings, indexSettings } from "#src/features/search/text.ts";
import { prepareTextHere } from "./textPrep.ts";

// Client of textWorker.ts: one Worker thread for every conversion's text work (keywords,
// description, index segmentation), started on first use and ended after IDLE_MS without work.
// The thread with its dictionaries costs ~125 MB of RSS (measured; the same dictionaries on the
// main thread were ~70 MB, kept for the process's life) and ~300 ms of its own CPU to start, so a
// batch of uploads keeps it warm and an idle server gives the memory back a minute after the last
// conversion. If the thread cannot be started or dies, the work is done here on the event loop
// instead (correct, only slower for visitors).

export interface TextJob { id: number; texts: string[]; doc: { title: string; keywords: string; description: string }; settings: IndexSettings }
export interface TextResult { description: string; keywords: string[]; pre: Presegmented }

const IDLE_MS = 60_000;
// Bun's Worker can stop keeping the process alive (unref) and start again (ref).
type BunWorker = Worker & { ref(): void; unref(): void };
let worker: BunWorker | null = null;
let idleTimer: Timer | null = null;
let seq = 0;
const pending = new Map<number, { resolve: (r: TextResult) => void; reject: (e: Error) => void }>();

function stopWorker(reason: Error) {
  worker?.terminate();
  worker = null;
  for (const p of pending.values()) p.reject(reason);
  pending.clear();
}

function getWorker(): BunWorker {
  if (worker) return worker;
  const w = new Worker(new URL("./textWorker.ts", import.meta.url).href) as BunWorker;
  w.onmessage = (e: MessageEvent<{ id: number; result?: TextResult; error?: string }>) => {
    const p = pending.get(e.data.id);
    if (!p) return;
    pending.delete(e.data.id);
    if (e.data.result) p.resolve(e.data.result);
    else p.reject(new Error(e.data.error ?? "text worker failed"));
    settle();
  };
  w.onerror = (e) => stopWorker(new Error(`text worker crashed: ${e.message}`));
  worker = w;
  return w;
}

/** Keeps the process alive only while work is pending; ends the thread after IDLE_MS without any. */
function settle() {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  if (!worker) return;
  if (pending.size) {
    worker.ref();
    return;
  }
  worker.unref();
  idleTimer = setTimeout(() => stopWorker(new Error("text worker idle")), IDLE_MS);
  idleTimer.unref();
}

/**
 * Description, keywords and the search index's segmentation (indexDocument's `pre`) of a converted
 * document's page texts, computed off the event loop. `doc` is the row as the conversion started;
 * indexDocument re-segments row 0 itself if it changed by the commit.
 */
export async function prepareText(texts: string[], doc: TextJob["doc"]): Promise<TextResult> {
  const job = { texts, doc: { title: doc.title, keywords: doc.keywords, description: doc.description }, settings: indexSettings() };
  try {
    const w = getWorker();
    const id = ++seq;
    const result = new Promise<TextResult>((resolve, reject) => pending.set(id, { resolve, reject }));
    settle();
    w.postMessage({ id, ...job } satisfies TextJob);
    return await result;
  } catch {
    // No thread (or it died): the same work on the event loop.
    return prepareTextHere(job);
  }
}
