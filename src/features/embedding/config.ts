import { setting } from "#src/features/settings/service.ts";
import { EMBEDDING_PRESET } from "./presets.ts";

// The embedding settings as one typed value, and the key that says when two sets of vectors are
// comparable (same space) or not (a new space must be built).

export interface EmbeddingConfig {
  enable: boolean;
  provider: string;
  base_url: string;
  api_key: string;
  model: string;
  model_path: string;
  dimensions: number;
  batch_size: number;
  chunk_size: number;
  chunk_overlap: number;
  /** seconds, per batch */
  timeout: number;
  concurrency: number;
}

const int = (v: unknown, def: number, min: number, max: number) => {
  const n = Math.floor(Number(v));
  return Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : def;
};

export function embeddingConfig(): EmbeddingConfig {
  const g = (name: string) => setting("embedding", name);
  const provider = String(g("provider") ?? "local");
  const preset = EMBEDDING_PRESET.get(provider);
  const chunkSize = int(g("chunk_size"), 400, 100, 2000);
  return {
    enable: !!g("enable"),
    provider,
    base_url: String(g("base_url") ?? "").trim().replace(/\/+$/, ""),
    api_key: String(g("api_key") ?? "").trim(),
    model: String(g("model") ?? "").trim(),
    model_path: String(g("model_path") ?? "").trim(),
    dimensions: int(g("dimensions"), 512, 8, 4096),
    // Never more per request than the provider accepts (DashScope takes 10).
    batch_size: int(g("batch_size"), 16, 1, preset?.max_batch ?? 256),
    chunk_size: chunkSize,
    // An overlap as long as the window would never advance.
    chunk_overlap: int(g("chunk_overlap"), 60, 0, Math.floor(chunkSize / 2)),
    timeout: int(g("timeout"), 60, 5, 600),
    concurrency: int(g("concurrency"), 1, 1, 4),
  };
}

/** What the vectors are made by: the local folder or the remote model (base URL and key are not: a new key is the same model). */
export const modelName = (c: Pick<EmbeddingConfig, "provider" | "model" | "model_path">) => (c.provider === "local" ? c.model_path : c.model);

/**
 * provider|model|dimensions|chunk_size|chunk_overlap. Vectors are comparable only within one key:
 * another model or width cannot be searched together, and other chunks are other rows.
 */
export function modelKey(c: Pick<EmbeddingConfig, "provider" | "model" | "model_path" | "dimensions" | "chunk_size" | "chunk_overlap">): string {
  return [c.provider, modelName(c), c.dimensions, c.chunk_size, c.chunk_overlap].join("|");
}

export function parseModelKey(key: string) {
  const [provider = "", model = "", dimensions = "0", chunkSize = "0", chunkOverlap = "0"] = key.split("|");
  return { provider, model, dimensions: Number(dimensions), chunk_size: Number(chunkSize), chunk_overlap: Number(chunkOverlap) };
}

/** Whether the settings name a usable model at all (an empty model name builds nothing). */
export const configured = (c: EmbeddingConfig) => !!modelName(c) && (c.provider === "local" || !!c.base_url);
