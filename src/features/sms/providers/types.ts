// What every SMS provider module implements, and the HTTP/crypto helpers they share.
import { createHash, createHmac } from "node:crypto";

/** Code types of spec §3: register 0, login 1, find password 2. */
export type SmsType = 0 | 1 | 2;

export interface SendInput { mobile: string; code: string; type: SmsType }
export interface SendResult { ok: boolean; provider_message_id?: string; error?: string }
export interface SmsProvider { name: string; send(input: SendInput): Promise<SendResult> }

/** The `sms` settings group as stored (see ../settings.ts). */
export type SmsConfig = Record<string, string | number | boolean>;

export const str = (cfg: SmsConfig, key: string) => String(cfg[key] ?? "").trim();

const TEMPLATE_KEYS: Record<SmsType, string> = { 0: "template_register", 1: "template_login", 2: "template_find_password" };
export const templateFor = (cfg: SmsConfig, type: SmsType) => str(cfg, TEMPLATE_KEYS[type]);

/** Template variables in order: the code, then the validity in minutes when the template has it. */
export const templateValues = (cfg: SmsConfig, code: string): string[] =>
  cfg.template_with_minutes ? [code, String(Number(cfg.code_duration) || 5)] : [code];

/** Named variables for providers whose templates use ${code} / ${minutes}. */
export function templateVars(cfg: SmsConfig, code: string): Record<string, string> {
  const [c, minutes] = templateValues(cfg, code);
  return minutes ? { code: c!, minutes } : { code: c! };
}

/** A configuration gap is reported before any network call, naming what to fill in. */
export function missing(cfg: SmsConfig, fields: [string, string][], type: SmsType): string | null {
  for (const [key, label] of fields) if (!str(cfg, key)) return `未配置${label}`;
  if (!templateFor(cfg, type)) return "未配置该用途的短信模板 ID";
  return null;
}

export const sha256Hex = (data: string) => createHash("sha256").update(data, "utf8").digest("hex");
export const hmac = (alg: "sha1" | "sha256", key: string | Buffer, data: string) => createHmac(alg, key).update(data, "utf8").digest();

/** RFC 3986 encoding: only A-Z a-z 0-9 - _ . ~ stay as they are (encodeURIComponent leaves !'()* alone). */
export const rfc3986 = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);

/** ISO 8601 UTC to the second: 2024-05-01T08:00:00Z. */
export const isoSeconds = (d = new Date()) => d.toISOString().replace(/\.\d{3}Z$/, "Z");

export const nonceHex = () => Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("hex");

export function joinUrl(base: string, path: string) {
  return base.replace(/\/+$/, "") + path;
}

export interface HttpReply { status: number; text: string; json: any }

/**
 * POST with a time-out. Network failures and time-outs become Chinese errors naming the provider;
 * a body that is not JSON leaves `json` undefined for the caller to report.
 */
export async function post(label: string, url: string, init: { headers: Record<string, string>; body: string }, timeoutMs: number): Promise<HttpReply> {
  let res: Response;
  try {
    res = await fetch(url, { method: "POST", headers: init.headers, body: init.body, signal: AbortSignal.timeout(timeoutMs), redirect: "error" });
  } catch (err) {
    const name = (err as Error).name;
    if (name === "TimeoutError" || name === "AbortError") throw new Error(`${label}接口请求超时（${Math.round(timeoutMs / 1000)} 秒）`);
    throw new Error(`无法连接${label}接口：${(err as Error).message}`);
  }
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, text, json };
}

export const timeoutOf = (cfg: SmsConfig) => Math.max(1, Number(cfg.timeout_seconds) || 10) * 1000;

/** Provider texts are kept short: they end up in the admin list, never in front of visitors. */
export const brief = (s: unknown, max = 200) => String(s ?? "").replace(/\s+/g, " ").trim().slice(0, max);

export function unexpected(label: string, r: HttpReply) {
  return `${label}返回了无法识别的内容（HTTP ${r.status}）：${brief(r.text, 120)}`;
}

/** Wraps a provider's request so a thrown error (network, time-out) is a failed result, never an exception. */
export async function guarded(run: () => Promise<SendResult>): Promise<SendResult> {
  try {
    return await run();
  } catch (err) {
    return { ok: false, error: brief((err as Error).message, 480) };
  }
}
