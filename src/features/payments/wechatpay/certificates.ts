// The keys WeChat Pay signs with. Public-key mode: the configured public key under its
// PUB_KEY_ID_… id. Platform-certificate mode: certificates from GET /v3/certificates, each
// decrypted with the APIv3 key (only WeChat Pay and the merchant hold it, so a certificate that
// decrypts and authenticates is genuine), cached by serial, fetched again when an unknown serial
// arrives. In public-key mode an unknown serial also falls back to platform certificates: while a
// merchant switches over, WeChat Pay still signs a share of notifications with the old certificates.
import { createHash, createPublicKey, X509Certificate, type KeyObject } from "node:crypto";
import { GatewayError } from "../gateway.ts";
import { wechatPayConfig, type WechatPayConfig, type WechatPayMode } from "./config.ts";
import { decryptResource, fingerprint, normalSerial } from "./crypto.ts";
import { answerError, checkAnswer, sendSigned, type KeyLookup } from "./http.ts";

export interface PlatformCertificate {
  serialNo: string;
  effectiveTime: string;
  expireTime: string;
  /** the earlier of expire_time and the certificate's notAfter, in ms: past it the key is refused */
  expiresAt: number;
  publicKey: KeyObject;
  fingerprint: string;
}

/** An unknown serial triggers at most one fetch per interval, so forged traffic cannot make us hammer WeChat Pay. */
export const REFRESH_MIN_INTERVAL_MS = 60_000;
/** Certificates are fetched again after this long even when every serial is known (the docs: under 12 hours). */
const MAX_AGE_MS = 12 * 3600_000;

interface Store {
  /** base URL + merchant + APIv3 key hash: certificates of another merchant or simulator never mix in */
  owner: string;
  certs: Map<string, PlatformCertificate>;
  fetchedAt: number;
  lastAttempt: number;
  inflight: Promise<PlatformCertificate[]> | null;
}

let store: Store | null = null;

function storeFor(cfg: WechatPayConfig): Store {
  const owner = `${cfg.baseUrl}|${cfg.mchId}|${createHash("sha256").update(cfg.apiV3Key).digest("hex")}`;
  if (!store || store.owner !== owner) store = { owner, certs: new Map(), fetchedAt: 0, lastAttempt: 0, inflight: null };
  return store;
}

const usable = (c: PlatformCertificate | undefined) => (c && c.expiresAt > Date.now() ? c : undefined);

function decryptCertificate(item: any, apiV3Key: string): PlatformCertificate {
  const serialNo = normalSerial(String(item?.serial_no ?? ""));
  const enc = item?.encrypt_certificate;
  if (!serialNo || !enc || typeof enc !== "object") throw new GatewayError("微信支付平台证书列表格式不正确");
  let pem: string;
  try {
    pem = decryptResource(enc, apiV3Key);
  } catch {
    throw new GatewayError("微信支付平台证书解密失败，请检查 APIv3 密钥", { serial: serialNo });
  }
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(pem);
  } catch {
    throw new GatewayError("微信支付平台证书无法解析", { serial: serialNo });
  }
  if (normalSerial(cert.serialNumber) !== serialNo) throw new GatewayError("微信支付平台证书序列号与列表不符", { serial: serialNo });
  const expireTime = String(item.expire_time ?? "");
  const listed = Date.parse(expireTime);
  const notAfter = Date.parse(cert.validTo);
  return {
    serialNo,
    effectiveTime: String(item.effective_time ?? ""),
    expireTime,
    // WeChat Pay moves expire_time earlier when it retires a certificate; the earlier date wins.
    expiresAt: Math.min(Number.isFinite(listed) ? listed : Infinity, Number.isFinite(notAfter) ? notAfter : Infinity),
    publicKey: cert.publicKey ?? createPublicKey(pem),
    fingerprint: fingerprint(Buffer.from(cert.raw)),
  };
}

async function download(cfg: WechatPayConfig, s: Store): Promise<PlatformCertificate[]> {
  const answer = await sendSigned(cfg, "GET", "/v3/certificates", undefined, "获取平台证书");
  if (answer.status !== 200 || !Array.isArray(answer.json?.data)) {
    await checkAnswer(answer, async (serial) => (cfg.publicKey && serial === cfg.publicKeyId ? cfg.publicKey : usable(s.certs.get(normalSerial(serial)))?.publicKey ?? null));
    throw answerError("获取平台证书", answer);
  }
  // The list is signed by one of the certificates it carries (or by the public key in public-key
  // mode): decrypt first, then verify the answer with them, and keep nothing unless it verifies.
  const fresh = new Map<string, PlatformCertificate>();
  for (const item of answer.json.data) {
    const c = decryptCertificate(item, cfg.apiV3Key);
    fresh.set(c.serialNo, c);
  }
  await checkAnswer(answer, async (serial) => {
    if (cfg.publicKey && serial === cfg.publicKeyId) return cfg.publicKey;
    const n = normalSerial(serial);
    return (usable(fresh.get(n)) ?? usable(s.certs.get(n)))?.publicKey ?? null;
  });
  s.certs = fresh;
  s.fetchedAt = Date.now();
  return [...fresh.values()];
}

/** Fetches the platform certificates now (one request however many callers ask at once). */
function refresh(cfg: WechatPayConfig, s: Store): Promise<PlatformCertificate[]> {
  if (!s.inflight) {
    s.lastAttempt = Date.now();
    s.inflight = download(cfg, s).finally(() => {
      s.inflight = null;
    });
  }
  return s.inflight;
}

/**
 * The key for a Wechatpay-Serial, or null when it is none we know even after the (throttled)
 * fetch of the platform certificates. A failed fetch counts as unknown: the message is refused.
 */
export function keyLookup(cfg: WechatPayConfig): KeyLookup {
  return async (serial) => {
    if (cfg.publicKey && serial === cfg.publicKeyId) return cfg.publicKey;
    const s = storeFor(cfg);
    const n = normalSerial(serial);
    const cached = usable(s.certs.get(n));
    const now = Date.now();
    if (cached && now - s.fetchedAt < MAX_AGE_MS) return cached.publicKey;
    const mayFetch = s.inflight || s.lastAttempt === 0 || now - s.lastAttempt >= REFRESH_MIN_INTERVAL_MS;
    if (!mayFetch) return cached?.publicKey ?? null;
    try {
      await refresh(cfg, s);
    } catch {
      return cached?.publicKey ?? null;
    }
    return usable(s.certs.get(n))?.publicKey ?? null;
  };
}

export interface CertificateInfo {
  serial_no: string;
  /** RFC 3339; null for a public key, which has no validity period */
  effective_time: string | null;
  expire_time: string | null;
  /** SHA-256 of the DER certificate (of the DER public key in public-key mode), AB:CD:… */
  fingerprint: string;
}

/**
 * What GET /wechatpay/cert shows the administrator: the mode and the keys in use. In
 * platform-certificate mode the certificates are fetched from WeChat Pay right now, so a wrong
 * APIv3 key or merchant key shows up here as a Chinese GatewayError.
 */
export async function wechatPayCertificates(): Promise<{ mode: WechatPayMode; certificates: CertificateInfo[] }> {
  const cfg = wechatPayConfig();
  if (cfg.mode === "public_key" && cfg.publicKey) {
    const der = cfg.publicKey.export({ type: "spki", format: "der" });
    return { mode: "public_key", certificates: [{ serial_no: cfg.publicKeyId, effective_time: null, expire_time: null, fingerprint: fingerprint(der) }] };
  }
  const certs = await refresh(cfg, storeFor(cfg));
  return {
    mode: "platform_cert",
    certificates: certs
      .sort((a, b) => b.expiresAt - a.expiresAt)
      .map((c) => ({ serial_no: c.serialNo, effective_time: c.effectiveTime || null, expire_time: c.expireTime || null, fingerprint: c.fingerprint })),
  };
}
