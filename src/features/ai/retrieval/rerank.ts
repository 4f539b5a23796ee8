import { setting } from "#src/features/settings/service.ts";

// Optional second stage: a cross-encoder behind a provider's /rerank endpoint (SiliconFlow, Jina,
// Cohere and vLLM share the shape) reorders the fused candidates. It only ever improves an order
// that is already usable, so any failure keeps the fused order.

export interface RerankConfig { base_url: string; api_key: string; model: string; /** fused candidates sent */ top_n: number }

// The reranker sits on the chat's path to the first token: a slow one is dropped, not waited for.
export const RERANK_TIMEOUT_MS = 1500;
// Rerank models read ~512 tokens per document; a longer page costs upload and time for nothing.
const MAX_DOCUMENT_CHARS = 1200;
const DEFAULT_TOP_N = 20;

/** The rerank settings when reranking is switched on and usable, else null. */
export function rerankConfig(): RerankConfig | null {
  if (!setting<boolean>("embedding", "rerank_enable")) return null;
  const base = String(setting("embedding", "rerank_base_url") ?? "").trim().replace(/\/+$/, "");
  const model = String(setting("embedding", "rerank_model") ?? "").trim();
  if (!/^https?:\/\/\S+$/i.test(base) || !model) return null;
  const n = Math.floor(Number(setting("embedding", "rerank_top_n")));
  return { base_url: base, api_key: String(setting("embedding", "rerank_api_key") ?? "").trim(), model, top_n: n > 0 ? Math.min(n, 100) : DEFAULT_TOP_N };
}

export class RerankError extends Error {}

/**
 * Relevance of each document to the query, by the documents' indexes (best first); throws
 * RerankError with a Chinese message on any failure (HTTP error, time-out, a malformed answer).
 */
export async function rerank(cfg: RerankConfig, query: string, documents: string[], signal?: AbortSignal): Promise<{ index: number; score: number }[]> {
  const timeout = AbortSignal.timeout(RERANK_TIMEOUT_MS);
  let res: Response;
  try {
    res = await fetch(`${cfg.base_url}/rerank`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(cfg.api_key ? { authorization: `Bearer ${cfg.api_key}` } : {}) },
      body: JSON.stringify({ model: cfg.model, query, documents: documents.map((d) => d.slice(0, MAX_DOCUMENT_CHARS)), top_n: documents.length, return_documents: false }),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (err) {
    throw new RerankError(timeout.aborted ? `重排序服务在 ${RERANK_TIMEOUT_MS} 毫秒内没有响应` : `无法连接重排序服务：${(err as Error)?.message ?? err}`);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new RerankError(`重排序服务返回错误（HTTP ${res.status}）`);
  }
  const body = (await res.json().catch(() => null)) as { results?: { index?: unknown; relevance_score?: unknown }[] } | null;
  if (!Array.isArray(body?.results)) throw new RerankError("重排序服务返回了无法解析的数据");
  const out: { index: number; score: number }[] = [];
  const seen = new Set<number>();
  for (const r of body.results) {
    const index = Number(r?.index);
    const score = Number(r?.relevance_score);
    if (!Number.isInteger(index) || index < 0 || index >= documents.length || !Number.isFinite(score) || seen.has(index)) {
      throw new RerankError("重排序服务返回了无法解析的数据");
    }
    seen.add(index);
    out.push({ index, score });
  }
  return out.sort((a, b) => b.score - a.score);
}
