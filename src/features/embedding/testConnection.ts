import { embeddingConfig } from "./config.ts";
import { embedderFor } from "./embedder.ts";
import { EmbeddingError, describe } from "./errors.ts";
import type { SpaceSettings } from "./spaces.ts";

// 测试连接 of the 向量模型 screen: the form's unsaved values over the saved settings; one sample
// sentence embedded, its width and the time it took, or the provider's error in Chinese.

export interface EmbeddingTestBody { provider?: string; base_url?: string; api_key?: string; model?: string; model_path?: string; dimensions?: number }

const hostOf = (url: string) => {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return "";
  }
};

/** seconds: the browser gives up after 30 */
export const TEST_TIMEOUT = 25;
export const SAMPLE = "劳动合同解除时，用人单位应当如何支付经济补偿？";

/**
 * The settings to test. A blank key means the saved one, but only towards the saved base URL's
 * host: an admin allowed to test may not be allowed to read the key, and pointing the test at a
 * server of their own must not hand it over.
 */
export function testSettings(body: EmbeddingTestBody): SpaceSettings {
  const saved = embeddingConfig();
  const given = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined && v !== ""));
  const s = { ...saved, ...given } as SpaceSettings;
  s.base_url = String(s.base_url).trim().replace(/\/+$/, "");
  if (!body.api_key) s.api_key = hostOf(s.base_url) === hostOf(saved.base_url) ? saved.api_key : "";
  s.timeout = Math.min(saved.timeout, TEST_TIMEOUT);
  return s;
}

export interface EmbeddingTestResult { ok: true; message: string; dimensions: number; expected: number; latency_ms: number; provider: string; model: string }

export async function runEmbeddingTest(body: EmbeddingTestBody): Promise<EmbeddingTestResult> {
  const s = testSettings(body);
  const started = performance.now();
  let vectors: Float32Array[];
  try {
    vectors = await embedderFor(s).embed([SAMPLE]);
  } catch (err) {
    throw err instanceof EmbeddingError ? err : new EmbeddingError(`向量化失败：${describe(err)}`, "embedding_error");
  }
  const latency = Math.round(performance.now() - started);
  const dims = vectors[0]?.length ?? 0;
  const model = s.provider === "local" ? s.model_path : s.model;
  const message = dims === s.dimensions
    ? `连接成功：向量维度 ${dims}，耗时 ${latency} ms`
    : `连接成功，但模型返回的向量维度是 ${dims}，与设置的 ${s.dimensions} 不一致，请把「向量维度」改为 ${dims} 后保存`;
  return { ok: true, message, dimensions: dims, expected: s.dimensions, latency_ms: latency, provider: s.provider, model };
}
