import { describeLlmError, llmConfig, testConnection, type LlmConfig, LlmError } from "../llm/client.ts";
import type { LlmTestBody } from "./schema.ts";

// 测试连接 of the 大模型设置 screen: the form's unsaved values over the saved settings.

const hostOf = (url: string) => {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return "";
  }
};

/**
 * The configuration to test. A blank API key means the saved one, but only towards the saved
 * base_url's host: an admin allowed to test may not be allowed to read the key, and pointing the
 * test at a server of their own must not hand it over.
 */
export function testConfig(body: LlmTestBody, saved: LlmConfig = llmConfig()): LlmConfig {
  const cfg: LlmConfig = { ...saved, ...Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined && v !== "")) };
  if (!body.api_key) cfg.api_key = hostOf(cfg.base_url) === hostOf(saved.base_url) ? saved.api_key : "";
  return cfg;
}

/** seconds */
export const TEST_TIMEOUT = 25;

export interface LlmTestResult { ok: true; message: string; latency_ms: number; total_ms: number; reply: string; model: string; provider: string }

/** Runs the test; a failure is an LlmError with a Chinese message (never a hang: the client times out). */
export async function runLlmTest(body: LlmTestBody): Promise<LlmTestResult> {
  // The browser gives up after 30 s (spec §9): a longer llm.timeout would leave the admin with
  // "请求超时" instead of the provider's own answer, so the test waits at most TEST_TIMEOUT.
  const merged = testConfig(body);
  const cfg = { ...merged, timeout: Math.min(merged.timeout, TEST_TIMEOUT) };
  try {
    const r = await testConnection(cfg);
    return {
      ok: true, message: `连接成功，首字延迟 ${r.latency_ms} ms，总耗时 ${r.total_ms} ms`,
      latency_ms: r.latency_ms, total_ms: r.total_ms, reply: r.reply, model: cfg.model, provider: cfg.provider,
    };
  } catch (err) {
    throw err instanceof LlmError ? err : describeLlmError(err, cfg);
  }
}
