import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { setting } from "#src/features/settings/service.ts";

// The one streaming client for every provider (design.md §6): the official `openai` package with
// the provider's OpenAI-compatible baseURL. The caller's AbortSignal goes down to the upstream
// fetch, so a stop closes the provider's connection, not just our reading of it.

export interface LlmConfig {
  provider: string;
  base_url: string;
  api_key: string;
  model: string;
  temperature: number;
  max_tokens: number;
  /** seconds: to the response headers, and between two chunks of the stream */
  timeout: number;
}

export interface ChatTurn { role: "system" | "user" | "assistant"; content: string }
export interface Usage { prompt_tokens: number; completion_tokens: number; total_tokens: number }

/** A failure the user may read: Chinese message, the HTTP status to answer with, a stable code. */
export class LlmError extends Error {
  constructor(message: string, readonly code: string, readonly status: 502 | 504 | 400 = 502) {
    super(message);
  }
}

export function llmConfig(): LlmConfig {
  const n = (name: string, def: number) => {
    const v = Number(setting("llm", name));
    return Number.isFinite(v) ? v : def;
  };
  return {
    provider: String(setting("llm", "provider") ?? ""),
    base_url: String(setting("llm", "base_url") ?? "").trim(),
    api_key: String(setting("llm", "api_key") ?? "").trim(),
    model: String(setting("llm", "model") ?? "").trim(),
    temperature: n("temperature", 0.3),
    max_tokens: Math.floor(n("max_tokens", 2048)),
    timeout: n("timeout", 60),
  };
}

/** The provider's error as a sentence for users and admins (never the raw English alone). */
export function describeLlmError(err: unknown, cfg: Pick<LlmConfig, "timeout">): LlmError {
  if (err instanceof LlmError) return err;
  if (err instanceof APIConnectionTimeoutError) return new LlmError(`模型服务在 ${cfg.timeout} 秒内没有响应，请稍后重试或调大超时时间`, "llm_timeout", 504);
  if (err instanceof APIConnectionError) return new LlmError("无法连接模型服务，请检查接口地址（base_url）是否正确、服务是否已启动", "llm_unreachable");
  if (err instanceof APIError && typeof err.status === "number") {
    const detail = upstreamMessage(err);
    const text: Record<number, string> = {
      400: "模型服务拒绝了请求（参数或模型名称有误）",
      401: "API Key 无效或已过期，请检查大模型设置中的密钥",
      402: "模型服务账户余额不足",
      403: "API Key 没有访问该模型的权限",
      404: "接口地址或模型名称不存在，请检查 base_url 与模型名称",
      413: "提问与参考资料过长，超出了模型的上下文长度",
      429: "模型服务请求过于频繁或额度已用完，请稍后再试",
    };
    const head = text[err.status] ?? (err.status >= 500 ? `模型服务出错（HTTP ${err.status}），请稍后再试` : `模型服务返回错误（HTTP ${err.status}）`);
    return new LlmError(detail ? `${head}：${detail}` : head, `llm_http_${err.status}`);
  }
  if (err instanceof SyntaxError || (err instanceof Error && /JSON|parse|Unexpected/i.test(err.message))) {
    return new LlmError("模型服务返回了无法解析的数据，请检查接口地址是否为 OpenAI 兼容接口", "llm_malformed");
  }
  return new LlmError(`调用模型服务失败：${err instanceof Error ? err.message : String(err)}`, "llm_error");
}

function upstreamMessage(err: APIError): string {
  const e = err.error as { message?: unknown; error?: { message?: unknown } } | undefined;
  const m = e?.message ?? e?.error?.message;
  return typeof m === "string" ? m.slice(0, 200) : "";
}

export const isAbort = (err: unknown) => err instanceof APIUserAbortError || (err instanceof Error && err.name === "AbortError");

function makeClient(cfg: LlmConfig) {
  if (!/^https?:\/\/[^\s]+$/i.test(cfg.base_url)) throw new LlmError("接口地址（base_url）未配置或格式不正确，应以 http:// 或 https:// 开头", "llm_config", 400);
  if (!cfg.model) throw new LlmError("模型名称未配置", "llm_config", 400);
  // Local Ollama needs no key; the SDK insists on one.
  return new OpenAI({ baseURL: cfg.base_url.replace(/\/+$/, ""), apiKey: cfg.api_key || "none", timeout: cfg.timeout * 1000, maxRetries: 0, logLevel: "off" });
}

export interface StreamEvents {
  onDelta(text: string): void;
}

/**
 * Streams one completion: calls onDelta for every piece of text and answers the usage the provider
 * reported (null when it sent none). Aborting `signal` aborts the upstream request; a stream that
 * stays silent for `timeout` seconds is aborted as a time-out. Throws LlmError or the abort reason.
 */
export async function streamChat(cfg: LlmConfig, messages: ChatTurn[], events: StreamEvents, signal: AbortSignal): Promise<Usage | null> {
  const client = makeClient(cfg);
  const upstream = new AbortController();
  const onAbort = () => upstream.abort(signal.reason);
  if (signal.aborted) onAbort();
  signal.addEventListener("abort", onAbort, { once: true });
  let idle: Timer | undefined;
  let timedOut = false;
  const arm = () => {
    clearTimeout(idle);
    idle = setTimeout(() => {
      timedOut = true;
      upstream.abort();
    }, cfg.timeout * 1000);
  };
  try {
    arm();
    const stream = await client.chat.completions.create({
      model: cfg.model,
      messages,
      stream: true,
      stream_options: { include_usage: true },
      temperature: cfg.temperature,
      max_tokens: cfg.max_tokens,
    }, { signal: upstream.signal });
    let usage: Usage | null = null;
    for await (const chunk of stream) {
      arm();
      const text = chunk.choices?.[0]?.delta?.content;
      if (text) events.onDelta(text);
      if (chunk.usage) usage = { prompt_tokens: chunk.usage.prompt_tokens ?? 0, completion_tokens: chunk.usage.completion_tokens ?? 0, total_tokens: chunk.usage.total_tokens ?? 0 };
    }
    // The SDK ends the iteration quietly when its request is aborted: say why it ended.
    if (upstream.signal.aborted) throw upstream.signal.reason ?? new DOMException("aborted", "AbortError");
    return usage;
  } catch (err) {
    if (timedOut) throw new LlmError(`模型服务在 ${cfg.timeout} 秒内没有响应，请稍后重试或调大超时时间`, "llm_timeout", 504);
    if (signal.aborted) throw signal.reason ?? err;
    throw describeLlmError(err, cfg);
  } finally {
    clearTimeout(idle);
    signal.removeEventListener("abort", onAbort);
  }
}

/** The admin's 测试连接: one short streamed question; latency to the first token, or the error. */
export async function testConnection(cfg: LlmConfig): Promise<{ latency_ms: number; total_ms: number; reply: string; usage: Usage | null }> {
  const started = performance.now();
  let first = 0;
  let reply = "";
  const ctrl = new AbortController();
  const usage = await streamChat({ ...cfg, max_tokens: 32 }, [{ role: "user", content: "你好，请用一句话介绍你自己。" }], {
    onDelta(t) {
      if (!first) first = performance.now();
      reply += t;
    },
  }, ctrl.signal);
  const end = performance.now();
  return { latency_ms: Math.round((first || end) - started), total_ms: Math.round(end - started), reply: reply.slice(0, 200), usage };
}
