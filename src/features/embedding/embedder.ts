import { EmbeddingError } from "./errors.ts";
import { localEmbedder } from "./local.ts";
import { remoteEmbedder } from "./remote.ts";
import type { Space, SpaceSettings } from "./spaces.ts";

// One interface over the local ONNX folder and the OpenAI-compatible endpoints. Every vector that
// leaves here has the space's width and finite numbers: a provider answering another width (a
// wrong `dimensions` setting, another model behind the same name) fails loudly instead of
// filling a vec0 table with rows it would reject or, worse, with incomparable vectors.

export interface Embedder {
  dimensions: number;
  embed(input: string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

export function embedderFor(s: SpaceSettings): Embedder {
  return s.provider === "local" ? localEmbedder(s) : remoteEmbedder(s);
}

/** Embeds `texts` in batches of `batchSize`, checking every vector; `onBatch` reports progress. */
export async function embedAll(e: Embedder, texts: string[], batchSize: number, signal?: AbortSignal, onBatch?: (done: number) => void): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += batchSize) {
    signal?.throwIfAborted();
    const batch = texts.slice(i, i + batchSize);
    const vectors = await e.embed(batch, signal);
    for (const v of vectors) out.push(checked(v, e.dimensions));
    onBatch?.(out.length);
  }
  return out;
}

export function checked(v: Float32Array, dims: number): Float32Array {
  if (v.length !== dims) {
    throw new EmbeddingError(`模型返回的向量维度是 ${v.length}，与设置的向量维度 ${dims} 不一致，请把「向量维度」改为 ${v.length}`, "embedding_dimensions");
  }
  for (let i = 0; i < v.length; i++) if (!Number.isFinite(v[i]!)) throw new EmbeddingError("模型返回的向量含有无效数值（NaN 或无穷大）", "embedding_malformed");
  return v;
}

// Embedders per space and settings: a local one holds its loaded model, so it is made once.
const cache = new Map<string, Embedder>();

/** The space's embedder, made once per space, settings and time-out cap (queries wait less than jobs). */
export function spaceEmbedder(space: Space, timeoutCap?: number): Embedder {
  const key = `${space.id}:${timeoutCap ?? ""}:${JSON.stringify(space.settings)}`;
  let e = cache.get(key);
  if (!e) {
    for (const k of cache.keys()) if (k.startsWith(`${space.id}:${timeoutCap ?? ""}:`)) cache.delete(k);
    const timeout = timeoutCap ? Math.min(space.settings.timeout || timeoutCap, timeoutCap) : space.settings.timeout || 60;
    e = embedderFor({ ...space.settings, dimensions: space.dimensions, timeout });
    cache.set(key, e);
  }
  return e;
}

export const clearEmbedders = () => cache.clear();
