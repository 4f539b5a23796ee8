// Alipay settings (group `payment`) and the official SDK client built from them, rebuilt only when
// the settings change. Keys are normalised first: the SDK only re-wraps the base64 between PEM
// armour lines and breaks on a pasted PEM with a trailing newline or a PKCS#8 key under its default
// PKCS#1 label, so it always gets a clean PKCS#8 private key and an SPKI public key.
import { AlipaySdk } from "alipay-sdk";
import { getSettings, type Settings } from "#src/features/settings/service.ts";
import { GatewayError } from "../gateway.ts";
import { isRsa, parsePrivateKey, parsePublicKey } from "../keys.ts";

export const DEFAULT_ALIPAY_GATEWAY = "https://openapi.alipay.com/gateway.do";
const TIMEOUT_MS = 10_000;

export interface AlipayConfig { appId: string; gateway: string; sdk: AlipaySdk }

const text = (s: Settings, name: string) => String(s.payment?.[name] ?? "").trim();

/** The settings Alipay cannot work without, as the labels an administrator sees; empty when complete. */
export function alipayMissing(s: Settings = getSettings()): string[] {
  const missing: string[] = [];
  if (!text(s, "alipay_app_id")) missing.push("支付宝 AppID");
  if (!text(s, "alipay_private_key")) missing.push("支付宝应用私钥");
  if (!text(s, "alipay_public_key")) missing.push("支付宝公钥");
  return missing;
}

const built = new WeakMap<Settings, AlipayConfig>();

/** The SDK client for the current settings; throws a GatewayError naming what is missing or unreadable. */
export function alipayConfig(): AlipayConfig {
  const s = getSettings();
  const hit = built.get(s);
  if (hit) return hit;
  const missing = alipayMissing(s);
  if (missing.length) throw new GatewayError(`支付宝未配置完整：缺少${missing.join("、")}`, { missing });
  const privateKey = parsePrivateKey(text(s, "alipay_private_key"));
  if (!privateKey || !isRsa(privateKey)) throw new GatewayError("支付宝应用私钥无法解析，请粘贴 RSA2 应用私钥（PEM 或单行）");
  const publicKey = parsePublicKey(text(s, "alipay_public_key"));
  if (!publicKey || !isRsa(publicKey)) throw new GatewayError("支付宝公钥无法解析，请粘贴支付宝公钥（不是应用公钥，PEM 或单行）");
  const gateway = text(s, "alipay_gateway") || DEFAULT_ALIPAY_GATEWAY;
  const appId = text(s, "alipay_app_id");
  const sdk = new AlipaySdk({
    appId,
    privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString().trim(),
    keyType: "PKCS8",
    alipayPublicKey: publicKey.export({ type: "spki", format: "pem" }).toString().trim(),
    signType: "RSA2",
    gateway,
    timeout: TIMEOUT_MS,
    // Answers keep Alipay's own snake_case field names, as the API reference spells them.
    camelcase: false,
  });
  const cfg = { appId, gateway, sdk };
  built.set(s, cfg);
  return cfg;
}
