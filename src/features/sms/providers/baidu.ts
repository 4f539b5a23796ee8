// Baidu AI Cloud SMS v3: POST /api/v3/sendSms with a bce-auth-v1 Authorization header:
// prefix = bce-auth-v1/{AK}/{timestamp}/{expiration}; SigningKey = HMAC-SHA256-HEX(SK, prefix);
// CanonicalRequest = METHOD \n UriEncodeExceptSlash(path) \n canonical query \n sorted "name:UriEncode(value)" lines;
// Signature = HMAC-SHA256-HEX(SigningKey, CanonicalRequest); header = prefix/{signedHeaders}/{signature}.
// Docs: cloud.baidu.com "生成认证字符串" (Reference/njwvz1yfu) and SMS "API详情 · 短信下发" (/api/v3/sendSms).
import {
  brief, guarded, hmac, isoSeconds, joinUrl, missing, post, rfc3986, str, templateFor, templateVars, timeoutOf, unexpected,
  type SendInput, type SmsConfig, type SmsProvider,
} from "./types.ts";
import { SMS_DEFAULT_ENDPOINTS } from "../settings.ts";

const LABEL = "百度云短信";
export const BAIDU_PATH = "/api/v3/sendSms";
const EXPIRATION_SECONDS = 1800;

export function bceAuthorization(o: { ak: string; sk: string; method: string; path: string; query?: Record<string, string>; headers: Record<string, string>; timestamp: string }) {
  const prefix = `bce-auth-v1/${o.ak}/${o.timestamp}/${EXPIRATION_SECONDS}`;
  const names = Object.keys(o.headers).map((h) => h.trim().toLowerCase()).sort();
  const lower = Object.fromEntries(Object.entries(o.headers).map(([k, v]) => [k.trim().toLowerCase(), v]));
  const canonicalHeaders = names.map((n) => `${rfc3986(n)}:${rfc3986(String(lower[n]).trim())}`).join("\n");
  const canonicalUri = rfc3986(decodeURIComponent(o.path)).replace(/%2F/g, "/");
  const canonicalQuery = Object.keys(o.query ?? {}).sort().map((k) => `${rfc3986(k)}=${rfc3986(o.query![k]!)}`).join("&");
  const canonicalRequest = [o.method, canonicalUri, canonicalQuery, canonicalHeaders].join("\n");
  const signingKey = hmac("sha256", o.sk, prefix).toString("hex");
  const signature = hmac("sha256", signingKey, canonicalRequest).toString("hex");
  return `${prefix}/${names.join(";")}/${signature}`;
}

export function baidu(cfg: SmsConfig): SmsProvider {
  return {
    name: "smsBaidu",
    send: ({ mobile, code, type }: SendInput) => guarded(async () => {
      const gap = missing(cfg, [["baidu_access_key", "百度云 Access Key"], ["baidu_secret_key", "百度云 Secret Key"], ["sign_name", "短信签名 ID"]], type);
      if (gap) return { ok: false, error: gap };
      const url = joinUrl(str(cfg, "baidu_endpoint") || SMS_DEFAULT_ENDPOINTS.baidu, BAIDU_PATH);
      const { host, pathname } = new URL(url);
      const timestamp = isoSeconds();
      const body = JSON.stringify({ mobile, template: templateFor(cfg, type), signatureId: str(cfg, "sign_name"), contentVar: templateVars(cfg, code) });
      const authorization = bceAuthorization({ ak: str(cfg, "baidu_access_key"), sk: str(cfg, "baidu_secret_key"), method: "POST", path: pathname, headers: { host, "x-bce-date": timestamp }, timestamp });
      const headers = { Authorization: authorization, "Content-Type": "application/json; charset=utf-8", "x-bce-date": timestamp };
      const r = await post(LABEL, url, { headers, body }, timeoutOf(cfg));
      const j = r.json;
      if (!j || j.code === undefined) return { ok: false, error: unexpected(LABEL, r) };
      if (String(j.code) !== "1000") return { ok: false, error: `${LABEL}发送失败：${brief(j.message)}（${brief(j.code, 80)}）` };
      const item = Array.isArray(j.data) ? j.data[0] : undefined;
      if (item && String(item.code) !== "1000") return { ok: false, error: `${LABEL}发送失败：${brief(item.message)}（${brief(item.code, 80)}）` };
      return { ok: true, provider_message_id: String(item?.messageId ?? j.requestId ?? "") };
    }),
  };
}
