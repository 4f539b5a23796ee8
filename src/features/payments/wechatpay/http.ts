// Signed calls to WeChat Pay API v3 and the one check every answer and notification passes
// before anything reads it: signature headers present, not a signature probe, timestamp within
// five minutes, Wechatpay-Serial naming a key we hold, SHA256withRSA over timestamp\nnonce\nbody\n.
import type { KeyObject } from "node:crypto";
import { GatewayError } from "../gateway.ts";
import type { WechatPayConfig } from "./config.ts";
import {
  SIGN_TEST_PREFIX, answerMessage, authorization, nonceStr, requestMessage, rsaSign, rsaVerify, timestampFresh,
} from "./crypto.ts";

const TIMEOUT_MS = 10_000;
const USER_AGENT = "wenku-wechatpay-v3 (Bun)";

/** Finds the public key for a Wechatpay-Serial (public key ID or platform certificate serial); null when unknown. */
export type KeyLookup = (serial: string) => Promise<KeyObject | null>;

/** "应答" for answers to our calls, "通知" for notifications: the word used in the error messages. */
export type SignedKind = "应答" | "通知";

export interface SignedHeaders { timestamp: string; nonce: string; signature: string; serial: string }

export function signedHeadersOf(headers: Headers): SignedHeaders | null {
  const timestamp = headers.get("wechatpay-timestamp")?.trim() ?? "";
  const nonce = headers.get("wechatpay-nonce")?.trim() ?? "";
  const signature = headers.get("wechatpay-signature")?.trim() ?? "";
  const serial = headers.get("wechatpay-serial")?.trim() ?? "";
  return timestamp && nonce && signature && serial ? { timestamp, nonce, signature, serial } : null;
}

/** Throws a GatewayError unless the body is signed by WeChat Pay with a key we know, recently. */
export async function verifySigned(headers: Headers, body: string, lookup: KeyLookup, kind: SignedKind): Promise<SignedHeaders> {
  const h = signedHeadersOf(headers);
  if (!h) throw new GatewayError(`微信支付${kind}缺少签名`, { reason: "missing_signature" });
  if (h.signature.startsWith(SIGN_TEST_PREFIX)) throw new GatewayError(`微信支付${kind}签名验证失败（签名探测）`, { reason: "sign_test", serial: h.serial.slice(0, 64) });
  if (!timestampFresh(h.timestamp)) throw new GatewayError(`微信支付${kind}时间戳与本机时间相差超过 5 分钟`, { reason: "stale", timestamp: h.timestamp.slice(0, 20) });
  const key = await lookup(h.serial);
  if (!key) throw new GatewayError(`微信支付${kind}的证书序列号未知：${h.serial.slice(0, 64)}`, { reason: "unknown_serial", serial: h.serial.slice(0, 64) });
  if (!rsaVerify(answerMessage(h.timestamp, h.nonce, body), h.signature, key)) {
    throw new GatewayError(`微信支付${kind}签名验证失败`, { reason: "bad_signature", serial: h.serial.slice(0, 64) });
  }
  return h;
}

export interface WechatAnswer {
  status: number;
  text: string;
  json: any;
  headers: Headers;
  /** false until checkAnswer passed; stays false for an error answer that carried no signature at all */
  verified: boolean;
}

/** One signed request; the answer is not yet verified (see checkAnswer). `action` names the call in errors. */
export async function sendSigned(cfg: WechatPayConfig, method: "GET" | "POST", path: string, body: unknown, action: string): Promise<WechatAnswer> {
  const bodyText = body === undefined ? "" : JSON.stringify(body);
  const url = new URL(cfg.baseUrl + path);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonce = nonceStr();
  const signature = rsaSign(requestMessage(method, url.pathname + url.search, timestamp, nonce, bodyText), cfg.privateKey);
  const headers: Record<string, string> = {
    Authorization: authorization({ mchId: cfg.mchId, nonce, signature, timestamp, serialNo: cfg.serialNo }),
    Accept: "application/json",
    "User-Agent": USER_AGENT,
  };
  if (bodyText) headers["Content-Type"] = "application/json";
  // Naming the public key ID makes WeChat Pay sign its answer with that key (the switch-over from
  // platform certificates is decided per request); without it answers come signed by a platform certificate.
  if (cfg.mode === "public_key") headers["Wechatpay-Serial"] = cfg.publicKeyId;
  try {
    const res = await fetch(url, { method, headers, body: bodyText || undefined, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: "manual" });
    const text = await res.text();
    let json: any = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {}
    return { status: res.status, text, json, headers: res.headers, verified: false };
  } catch (e) {
    const timedOut = (e as Error).name === "TimeoutError";
    throw new GatewayError(`微信支付${action}失败：${timedOut ? "请求超时" : "无法连接微信支付"}`, {
      reason: timedOut ? "timeout" : "network", error: String((e as Error).message ?? e).slice(0, 200),
    });
  }
}

/**
 * Every answer that carries a signature, and every 2xx answer, must verify; otherwise this throws.
 * An unsigned error answer (401 SIGN_ERROR and the like) stays `verified: false`: the caller may
 * report it but never act on it.
 */
export async function checkAnswer(a: WechatAnswer, lookup: KeyLookup): Promise<WechatAnswer> {
  if (!signedHeadersOf(a.headers) && !(a.status >= 200 && a.status < 300)) return a;
  try {
    await verifySigned(a.headers, a.text, lookup, "应答");
  } catch (e) {
    if (e instanceof GatewayError) e.detail.status = a.status;
    throw e;
  }
  a.verified = true;
  return a;
}

/** "微信支付下单失败：订单号重复（INVALID_REQUEST）" from an error answer. */
export function answerError(action: string, a: WechatAnswer): GatewayError {
  const code = typeof a.json?.code === "string" ? a.json.code : "";
  const message = typeof a.json?.message === "string" ? a.json.message.slice(0, 200) : `HTTP ${a.status}`;
  return new GatewayError(`微信支付${action}失败：${message}${code ? `（${code}）` : ""}`, { status: a.status, code, verified: a.verified });
}
