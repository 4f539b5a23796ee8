import { existsSync, readFileSync } from "node:fs";
import { cpus } from "node:os";
import { isAbsolute, join, relative, resolve } from "node:path";
import { env as appEnv } from "#src/env.ts";
import { EmbeddingError } from "./errors.ts";
import type { Embedder } from "./embedder.ts";
import type { SpaceSettings } from "./spaces.ts";

// A local ONNX model folder (a Hugging Face export: config.json, tokenizer.json,
// tokenizer_config.json, onnx/model.onnx or onnx/model_quantized.onnx) run by
// @huggingface/transformers on onnxruntime-node. Nothing is ever fetched: remote models are off,
// and the folder must be inside DATA_DIR so a setting cannot make the server read other files.
// onnxruntime-node's run() blocks its calling thread for the whole inference, so the model lives
// in a worker thread (localWorker.ts): the server's event loop only posts texts and gets floats.

// Tests point this at a temp folder (as documents/paths.ts does for documents).
let dataOverride: string | null = null;
export const setModelDataDir = (dir: string | null) => void (dataOverride = dir ? resolve(dir) : null);
const dataDir = () => dataOverride ?? appEnv.DATA_DIR;
export const modelsRoot = () => join(dataDir(), "models");

/** The model folder of a setting, or a Chinese error: relative to DATA_DIR/models, or absolute inside DATA_DIR. */
export function resolveModelFolder(modelPath: string): string {
  const p = modelPath.trim();
  if (!p) throw new EmbeddingError("请填写本地模型文件夹（相对 DATA_DIR/models 的路径）", "embedding_config");
  const folder = resolve(isAbsolute(p) ? p : join(modelsRoot(), p));
  const rel = relative(dataDir(), folder);
  if (!rel || rel.startsWith("..") || isAbsolute(rel)) throw new EmbeddingError("本地模型文件夹必须位于数据目录（DATA_DIR）之内", "embedding_config");
  if (!existsSync(folder)) throw new EmbeddingError(`本地模型文件夹不存在：${folder}`, "embedding_model_missing");
  const missing = ["config.json", "tokenizer.json"].filter((f) => !existsSync(join(folder, f)));
  if (missing.length) throw new EmbeddingError(`本地模型文件夹缺少 ${missing.join("、")}：${folder}`, "embedding_model_missing");
  if (!modelFile(folder)) throw new EmbeddingError(`本地模型文件夹缺少 onnx/model.onnx（或 onnx/model_quantized.onnx）：${folder}`, "embedding_model_missing");
  return folder;
}

/** fp32 when the export has it, else the 8-bit one (transformers.js names files by dtype). */
function modelFile(folder: string): { dtype: "fp32" | "q8" } | null {
  if (existsSync(join(folder, "onnx", "model.onnx"))) return { dtype: "fp32" };
  if (existsSync(join(folder, "onnx", "model_quantized.onnx"))) return { dtype: "q8" };
  return null;
}

/**
 * How the model pools token vectors: what its sentence-transformers export says (1_Pooling), else
 * CLS for the BGE family (how BGE was trained) and mean for the rest.
 */
export function poolingOf(folder: string): "cls" | "mean" {
  const cfg = join(folder, "1_Pooling", "config.json");
  if (existsSync(cfg)) {
    try {
      const p = JSON.parse(readFileSync(cfg, "utf8")) as Record<string, unknown>;
      if (p.pooling_mode_cls_token) return "cls";
      if (p.pooling_mode_mean_tokens) return "mean";
    } catch {
      // An unreadable pooling file is no reason to refuse the model; fall back below.
    }
  }
  return /bge/i.test(folder) ? "cls" : "mean";
}

/** A model loaded in its own worker thread; batches go one at a time. */
class ModelWorker {
  private worker: Worker;
  private ready: Promise<void>;
  private seq = 0;
  private waiting = new Map<number, { resolve: (v: { dims: number[]; data: Float32Array }) => void; reject: (e: Error) => void }>();
  dead = false;

  constructor(folder: string) {
    this.worker = new Worker(new URL("./localWorker.ts", import.meta.url).href);
    // An idle model must not keep a finishing process (a script, a test run) alive.
    (this.worker as Worker & { unref(): void }).unref();
    const file = modelFile(folder)!;
    // One core stays with the server on a 2-core machine; more cores, more inference threads.
    const threads = Math.max(1, Math.min(4, cpus().length - 1));
    this.ready = new Promise((resolve, reject) => {
      this.worker.onmessage = (e: MessageEvent) => {
        const m = e.data as { type: string; seq?: number; message?: string; error?: string; dims?: number[]; data?: Float32Array };
        if (m.type === "ready") return resolve();
        if (m.type === "failed") {
          this.kill();
          return reject(new EmbeddingError(`本地模型加载失败：${m.message}`, "embedding_model_invalid"));
        }
        const w = this.waiting.get(m.seq!);
        this.waiting.delete(m.seq!);
        if (!w) return;
        if (m.error) w.reject(new EmbeddingError(`本地模型推理失败：${m.error}`, "embedding_model_invalid"));
        else w.resolve({ dims: m.dims!, data: m.data! });
      };
      this.worker.onerror = (e) => {
        const err = new EmbeddingError(`本地模型进程出错：${e.message}`, "embedding_model_invalid", true);
        this.kill(err);
        reject(err);
      };
    });
    this.ready.catch(() => {});
    this.worker.postMessage({ type: "init", dataDir: dataDir(), id: relative(dataDir(), folder), dtype: file.dtype, threads });
  }

  /** Ends the worker (a hung or broken model); everyone waiting gets `err`. The next call starts a fresh one. */
  kill(err = new EmbeddingError("本地模型已停止", "embedding_model_invalid", true)) {
    this.dead = true;
    this.worker.terminate();
    for (const w of this.waiting.values()) w.reject(err);
    this.waiting.clear();
  }

  async run(texts: string[], pooling: "cls" | "mean", timeoutS: number, signal?: AbortSignal) {
    await this.ready;
    signal?.throwIfAborted();
    const seq = ++this.seq;
    return await new Promise<{ dims: number[]; data: Float32Array }>((resolve, reject) => {
      // A batch that takes longer than the time-out means a stuck model: the worker is replaced.
      const timer = setTimeout(() => this.kill(new EmbeddingError(`本地模型在 ${timeoutS} 秒内没有完成一批向量化，请调小每批片段数或调大超时时间`, "embedding_timeout", true)), timeoutS * 1000);
      const onAbort = () => {
        // The batch finishes in the worker; its answer is dropped.
        this.waiting.delete(seq);
        clearTimeout(timer);
        reject(signal!.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiting.set(seq, {
        resolve: (v) => { clearTimeout(timer); signal?.removeEventListener("abort", onAbort); resolve(v); },
        reject: (e) => { clearTimeout(timer); signal?.removeEventListener("abort", onAbort); reject(e); },
      });
      this.worker.postMessage({ type: "embed", seq, texts, pooling });
    });
  }
}

// One worker per folder: loading parses the ONNX graph and the tokeniser, which takes seconds for a real model.
const loaded = new Map<string, ModelWorker>();

function workerFor(folder: string): ModelWorker {
  let w = loaded.get(folder);
  if (!w || w.dead) {
    w = new ModelWorker(folder);
    loaded.set(folder, w);
  }
  return w;
}

export function localEmbedder(s: SpaceSettings): Embedder {
  const folder = resolveModelFolder(s.model_path);
  const pooling = poolingOf(folder);
  return {
    dimensions: s.dimensions,
    async embed(input, signal) {
      const out = await workerFor(folder).run(input, pooling, s.timeout || 60, signal);
      const [n, width] = out.dims as [number, number];
      if (n !== input.length) throw new EmbeddingError(`本地模型返回的向量数（${n}）与片段数（${input.length}）不一致`, "embedding_malformed");
      return Array.from({ length: n }, (_, i) => out.data.slice(i * width, (i + 1) * width));
    },
  };
}

/** Ends the model workers (the folder was replaced; tests; shutdown). */
export function unloadLocalModels() {
  for (const w of loaded.values()) w.kill();
  loaded.clear();
}
