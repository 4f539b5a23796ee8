// The conversion's text work in a Worker thread (textWork.ts starts it): keywords and description
// (TF-IDF over jieba words) and the search index's segmentation of every page, so neither the
// dictionaries' load (~300 ms for jieba, ~450 ms for the TF-IDF table, once per thread) nor the
// segmentation (~0.1–0.3 ms a page) runs on the server's event loop. The thread lowers its own
// priority first: on two cores it would otherwise compete with the event loop for the CPU.
import { dlopen, FFIType } from "bun:ffi";
import { prepareTextHere } from "./textPrep.ts";
import type { TextJob } from "./textWork.ts";

declare const self: Worker;

/** nice 19 for this thread only (setpriority on a thread id), where glibc and bun:ffi allow it. */
function lowerThreadPriority() {
  if (process.platform !== "linux") return;
  try {
    const libc = dlopen("libc.so.6", {
      gettid: { args: [], returns: FFIType.i32 },
      setpriority: { args: [FFIType.i32, FFIType.u32, FFIType.i32], returns: FFIType.i32 },
    });
    libc.symbols.setpriority(0 /* PRIO_PROCESS: a thread id names the thread */, libc.symbols.gettid(), 19);
    libc.close();
  } catch { /* another libc, or no FFI: the thread keeps the process's priority */ }
}
// Only ever in its own thread: setpriority on the main thread would slow the web server itself.
if (!Bun.isMainThread) {
  lowerThreadPriority();
  self.onmessage = (e: MessageEvent<TextJob>) => {
    const { id } = e.data;
    try {
      self.postMessage({ id, result: prepareTextHere(e.data) });
    } catch (err) {
      self.postMessage({ id, error: String((err as Error)?.stack ?? err) });
    }
  };
}
