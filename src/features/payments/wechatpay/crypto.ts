// WeChat Pay API v3 primitives (pay.weixin.qq.com "签名生成", "签名验证", "证书和回调报文解密"):
// request message  METHOD\nURL(path+query)\ntimestamp\nnonce\nbody\n  signed SHA256withRSA, base64;
// answer/notification message  timestamp\nnonce\nbody\n  (an empty body, as in 204, leaves just "\n");
// resources encrypted AEAD_AES_256_GCM: key = the 32-byte APIv3 key, 12-byte nonce, associated_data
// as AAD, ciphertext = base64(encrypted || 16-byte tag). Pure functions, no settings, no network.
import { createDecipheriv, createHash, createSign, createVerify, randomBytes, type KeyObject } from "node:crypto";

export const AUTH_SCHEMA = "WECHATPAY2-SHA256-RSA2048";
/** Answers and notifications older or newer than this are refused (the docs' replay window). */
export const MAX_CLOCK_SKEW_S = 300;
/** WeChat Pay's signature probes carry this prefix and must fail verification. */
export const SIGN_TEST_PREFIX = "WECHATPAY/SIGNTEST/";

export const requestMessage = (method: string, url: string, timestamp: string, nonce: string, body: string) =>
  `${method}\n${url}\n${timestamp}\n${nonce}\n${body}\n`;

export const answerMessage = (timestamp: string, nonce: string, body: string) => `${timestamp}\n${nonce}\n${body}\n`;

export function rsaSign(message: string, key: KeyObject): string {
  return createSign("RSA-SHA256").update(message, "utf8").sign(key, "base64");
}

/** False for a wrong signature and for one that is not even base64 of the right length. */
export function rsaVerify(message: string, signature: string, key: KeyObject): boolean {
  try {
    return createVerify("RSA-SHA256").update(message, "utf8").verify(key, signature, "base64");
  } catch {
    return false;
  }
}

export interface AuthorizationParts { mchId: string; nonce: string; signature: string; timestamp: string; serialNo: string }

export const authorization = (p: AuthorizationParts) =>
  `${AUTH_SCHEMA} mchid="${p.mchId}",nonce_str="${p.nonce}",signature="${p.signature}",timestamp="${p.timestamp}",serial_no="${p.serialNo}"`;

/** 32 upper-case hex characters, like the docs' example nonce. */
export const nonceStr = () => randomBytes(16).toString("hex").toUpperCase();

/** Unix seconds as a string; a header value that is not plain digits counts as stale. */
export function timestampFresh(header: string, nowMs = Date.now()): boolean {
  if (!/^\d{1,12}$/.test(header)) return false;
  return Math.abs(Math.floor(nowMs / 1000) - Number(header)) <= MAX_CLOCK_SKEW_S;
}

export interface EncryptedResource { algorithm?: string; ciphertext: string; associated_data?: string; nonce: string }

/** The plaintext of an AEAD_AES_256_GCM resource; throws when the key, nonce, AAD or tag do not match. */
export function decryptResource(resource: EncryptedResource, apiV3Key: string): string {
  if (resource.algorithm !== undefined && resource.algorithm !== "AEAD_AES_256_GCM") throw new Error(`unsupported algorithm ${resource.algorithm}`);
  const key = Buffer.from(apiV3Key, "utf8");
  if (key.length !== 32) throw new Error("APIv3 key must be 32 bytes");
  const data = Buffer.from(String(resource.ciphertext ?? ""), "base64");
  if (data.length <= 16) throw new Error("ciphertext too short");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(String(resource.nonce ?? ""), "utf8"));
  decipher.setAAD(Buffer.from(resource.associated_data ?? "", "utf8"));
  decipher.setAuthTag(data.subarray(data.length - 16));
  return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString("utf8");
}

/** At most `max` UTF-8 bytes, never cutting a character in half (description is limited to 127 bytes). */
export function truncateUtf8(text: string, max: number): string {
  if (Buffer.byteLength(text, "utf8") <= max) return text;
  let out = "";
  let bytes = 0;
  for (const ch of text) {
    const n = Buffer.byteLength(ch, "utf8");
    if (bytes + n > max) break;
    out += ch;
    bytes += n;
  }
  return out;
}

/** SHA-256 of DER bytes as upper-case hex pairs joined by colons, the way certificate viewers show it. */
export function fingerprint(der: Buffer): string {
  return createHash("sha256").update(der).digest("hex").toUpperCase().match(/../g)!.join(":");
}

/** Certificate serials compared the way WeChat prints them: upper-case hex without leading zeros. */
export const normalSerial = (s: string) => s.trim().toUpperCase().replace(/^0+(?=.)/, "");
