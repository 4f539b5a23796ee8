import { EMBEDDING_PRESET } from "./presets.ts";
import { EmbeddingError } from "./errors.ts";
import type { Embedder } from "./embedder.ts";
import type { SpaceSettings } from "./spaces.ts";

// OpenAI-compatible POST {base_url}/embeddings: {model, input: string[], dimensions?} with a
// Bearer key → {data: [{index, embedding}], usage}. 429 and 5xx are retried with backoff (the
// provider's Retry-After when it sends one); everything else fails at once with a Chinese message.

const RETRIES = 3;
const sleep = (ms: number, signal?: AbortSignal) => new Promise<void>((resolve, reject) => {
  const t = setTimeout(resolve, ms);
  signal?.addEventListener("abort", () => {
    clearTimeout(t);
    reject(signal.reason);
  }, { once: true });
});

function httpError(status: number, detail: string): EmbeddingError {
  const text: Record<number, string> = {
    400: "向量服务拒绝了请求（参数、模型名称或维度有误）",
    401: "API Key 无效或已过期，请检查向量模型设置中的密钥",
    402: "向量服务账户余额不足",
    403: "API Key 没有访问该向量模型的权限",
    404: "接口地址或模型名称不存在，请检查 base_url 与模型名称",
    413: "一批片段过长，请调小每批向量化的片段数",
    429: "向量服务请求过于频繁或额度已用完，请稍后再试",
  };
  const head = text[status] ?? (status >= 500 ? `向量服务出错（HTTP ${status}），请稍后再试` : `向量服务返回错误（HTTP ${status}）`);
  return new EmbeddingError(detail ? `${head}：${detail}` : head, `embedding_http_${status}`, status === 429 || status >= 500);
}

const upstreamDetail = (body: unknown): string => {
  const b = body as { error?: { message?: unknown } | string; message?: unknown } | null;
  const m = typeof b?.error === "string" ? b.error : (b?.error?.message ?? b?.message);
  return typeof m === "string" ? m.slice(0, 200) : "";
};

export function remoteEmbedder(s: SpaceSettings): Embedder {
  if (!/^https?:\/\/[^\s]+$/i.test(s.base_url)) throw new EmbeddingError("向量服务接口地址（base_url）未配置或格式不正确，应以 http:// 或 https:// 开头", "embedding_config");
  if (!s.model) throw new EmbeddingError("向量模型名称未配置", "embedding_config");
  const url = `${s.base_url.replace(/\/+$/, "")}/embeddings`;
  const sendDimensions = EMBEDDING_PRESET.get(s.provider)?.dimensions_param ?? false;

  async function once(input: string[], signal: AbortSignal | undefined): Promise<Float32Array[]> {
    const timeout = AbortSignal.timeout(s.timeout * 1000);
    const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let res: Response;
    try {
      res = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...(s.api_key ? { Authorization: `Bearer ${s.api_key}` } : {}) },
        body: JSON.stringify({ model: s.model, input, encoding_format: "float", ...(sendDimensions ? { dimensions: s.dimensions } : {}) }),
        signal: both,
      });
    } catch {
      if (signal?.aborted) throw signal.reason;
      if (timeout.aborted) throw new EmbeddingError(`向量服务在 ${s.timeout} 秒内没有响应，请稍后重试或调大超时时间`, "embedding_timeout", true);
      throw new EmbeddingError("无法连接向量服务，请检查接口地址（base_url）是否正确、服务是否已启动", "embedding_unreachable", true);
    }
    const text = await res.text().catch(() => "");
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      if (res.ok) throw new EmbeddingError("向量服务返回了无法解析的数据，请检查接口地址是否为 OpenAI 兼容接口", "embedding_malformed");
    }
    if (!res.ok) {
      const err = httpError(res.status, upstreamDetail(body));
      const retryAfter = Number(res.headers.get("retry-after"));
      (err as EmbeddingError & { retryAfterMs?: number }).retryAfterMs = Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(30_000, retryAfter * 1000) : undefined;
      throw err;
    }
    const data = (body as { data?: { index?: number; embedding?: unknown }[] } | null)?.data;
    if (!Array.isArray(data) || data.length !== input.length) {
      throw new EmbeddingError(`向量服务返回的向量数（${Array.isArray(data) ? data.length : 0}）与请求的片段数（${input.length}）不一致`, "embedding_malformed");
    }
    const out = new Array<Float32Array>(input.length);
    data.forEach((d, i) => {
      const idx = typeof d.index === "number" ? d.index : i;
      if (!Array.isArray(d.embedding) || idx < 0 || idx >= input.length) throw new EmbeddingError("向量服务返回的数据格式不正确（缺少 embedding 数组）", "embedding_malformed");
      out[idx] = Float32Array.from(d.embedding as number[]);
    });
    return out;
  }

  return {
    dimensions: s.dimensions,
    async embed(input, signal) {
      for (let attempt = 0; ; attempt++) {
        try {
          return await once(input, signal);
        } catch (err) {
          const retry = err instanceof EmbeddingError && err.transient && err.code.startsWith("embedding_http_") && attempt < RETRIES;
          if (!retry) throw err;
          const hinted = (err as EmbeddingError & { retryAfterMs?: number }).retryAfterMs;
          await sleep(hinted ?? 500 * 2 ** attempt, signal);
        }
      }
    },
  };
}
