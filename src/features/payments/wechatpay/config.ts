// WeChat Pay settings (group `payment`) read into one typed value, re-parsed only when the settings
// change. With wechatpay_public_key_id + wechatpay_public_key it runs in public-key mode; with both
// blank it runs in platform-certificate mode (certificates fetched with GET /v3/certificates).
import type { KeyObject } from "node:crypto";
import { getSettings, type Settings } from "#src/features/settings/service.ts";
import { GatewayError } from "../gateway.ts";
import { isRsa, parsePrivateKey, parsePublicKey } from "../keys.ts";

export const DEFAULT_WECHATPAY_BASE_URL = "https://api.mch.weixin.qq.com";

export type WechatPayMode = "public_key" | "platform_cert";

export interface WechatPayConfig {
  appId: string;
  mchId: string;
  apiV3Key: string;
  serialNo: string;
  privateKey: KeyObject;
  baseUrl: string;
  mode: WechatPayMode;
  publicKeyId: string;
  publicKey: KeyObject | null;
}

const text = (s: Settings, name: string) => String(s.payment?.[name] ?? "").trim();

/** The settings the gateway cannot work without, as the labels an administrator sees; empty when complete. */
export function wechatPayMissing(s: Settings = getSettings()): string[] {
  const missing: string[] = [];
  if (!text(s, "wechatpay_app_id")) missing.push("微信支付 AppID");
  if (!text(s, "wechatpay_mch_id")) missing.push("微信支付商户号");
  if (Buffer.byteLength(text(s, "wechatpay_api_v3_key"), "utf8") !== 32) missing.push("APIv3 密钥（32 位）");
  if (!text(s, "wechatpay_serial_no")) missing.push("商户证书序列号");
  if (!text(s, "wechatpay_private_key")) missing.push("商户 API 私钥");
  const id = text(s, "wechatpay_public_key_id");
  const key = text(s, "wechatpay_public_key");
  // One of the pair without the other is neither mode: say which half is missing.
  if (id && !key) missing.push("微信支付公钥");
  if (key && !id) missing.push("微信支付公钥 ID");
  return missing;
}

const parsed = new WeakMap<Settings, WechatPayConfig>();

/** The configuration in use; throws a GatewayError naming what is missing or unreadable. */
export function wechatPayConfig(): WechatPayConfig {
  const s = getSettings();
  const hit = parsed.get(s);
  if (hit) return hit;
  const missing = wechatPayMissing(s);
  if (missing.length) throw new GatewayError(`微信支付未配置完整：缺少${missing.join("、")}`, { missing });
  const privateKey = parsePrivateKey(text(s, "wechatpay_private_key"));
  if (!privateKey || !isRsa(privateKey)) throw new GatewayError("微信支付商户 API 私钥无法解析，请粘贴 apiclient_key.pem 的完整内容");
  const publicKeyId = text(s, "wechatpay_public_key_id");
  let publicKey: KeyObject | null = null;
  if (publicKeyId) {
    publicKey = parsePublicKey(text(s, "wechatpay_public_key"));
    if (!publicKey || !isRsa(publicKey)) throw new GatewayError("微信支付公钥无法解析，请粘贴 pub_key.pem 的完整内容");
  }
  const cfg: WechatPayConfig = {
    appId: text(s, "wechatpay_app_id"),
    mchId: text(s, "wechatpay_mch_id"),
    apiV3Key: text(s, "wechatpay_api_v3_key"),
    serialNo: text(s, "wechatpay_serial_no").toUpperCase(),
    privateKey,
    baseUrl: (text(s, "wechatpay_base_url") || DEFAULT_WECHATPAY_BASE_URL).replace(/\/+$/, ""),
    mode: publicKeyId ? "public_key" : "platform_cert",
    publicKeyId,
    publicKey,
  };
  parsed.set(s, cfg);
  return cfg;
}
