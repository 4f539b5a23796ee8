// Tencent Cloud SMS SendSms, API 3.0 (version 2021-01-11), signed with TC3-HMAC-SHA256:
// CanonicalRequest = POST \n / \n (empty query) \n content-type + host headers \n SignedHeaders \n hex(SHA256(body));
// StringToSign = TC3-HMAC-SHA256 \n timestamp \n date/sms/tc3_request \n hex(SHA256(CanonicalRequest));
// key = HMAC chain "TC3"+SecretKey → date → service → "tc3_request"; Signature = hex(HMAC(key, StringToSign)).
// Docs: cloud.tencent.com "签名方法 v3" and the SendSms API page; TencentCloud/signature-process-demo sms/signature-v3.
import {
  brief, guarded, hmac, joinUrl, missing, post, sha256Hex, str, templateFor, templateValues, timeoutOf, unexpected,
  type SendInput, type SmsConfig, type SmsProvider,
} from "./types.ts";
import { SMS_DEFAULT_ENDPOINTS } from "../settings.ts";

const LABEL = "腾讯云短信";
export const TC3_CONTENT_TYPE = "application/json; charset=utf-8";

export function tc3Signature(o: { secretKey: string; host: string; path: string; payload: string; timestamp: number; service: string }) {
  const date = new Date(o.timestamp * 1000).toISOString().slice(0, 10);
  const signedHeaders = "content-type;host";
  const canonicalRequest = ["POST", o.path, "", `content-type:${TC3_CONTENT_TYPE}\nhost:${o.host}\n`, signedHeaders, sha256Hex(o.payload)].join("\n");
  const scope = `${date}/${o.service}/tc3_request`;
  const toSign = ["TC3-HMAC-SHA256", String(o.timestamp), scope, sha256Hex(canonicalRequest)].join("\n");
  const kDate = hmac("sha256", `TC3${o.secretKey}`, date);
  const kService = hmac("sha256", kDate, o.service);
  const kSigning = hmac("sha256", kService, "tc3_request");
  return { signature: hmac("sha256", kSigning, toSign).toString("hex"), scope, signedHeaders };
}

export function tencent(cfg: SmsConfig): SmsProvider {
  return {
    name: "smsTencent",
    send: ({ mobile, code, type }: SendInput) => guarded(async () => {
      const gap = missing(cfg, [["tencent_secret_id", "腾讯云 SecretId"], ["tencent_secret_key", "腾讯云 SecretKey"], ["tencent_sdk_app_id", "腾讯云短信 SdkAppId"], ["sign_name", "短信签名"]], type);
      if (gap) return { ok: false, error: gap };
      const url = joinUrl(str(cfg, "tencent_endpoint") || SMS_DEFAULT_ENDPOINTS.tencent, "/");
      const { host, pathname } = new URL(url);
      const payload = JSON.stringify({
        PhoneNumberSet: [`+86${mobile}`],
        SmsSdkAppId: str(cfg, "tencent_sdk_app_id"),
        SignName: str(cfg, "sign_name"),
        TemplateId: templateFor(cfg, type),
        TemplateParamSet: templateValues(cfg, code),
      });
      const timestamp = Math.floor(Date.now() / 1000);
      const { signature, scope, signedHeaders } = tc3Signature({ secretKey: str(cfg, "tencent_secret_key"), host, path: pathname, payload, timestamp, service: "sms" });
      const headers = {
        Authorization: `TC3-HMAC-SHA256 Credential=${str(cfg, "tencent_secret_id")}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
        "Content-Type": TC3_CONTENT_TYPE,
        "X-TC-Action": "SendSms",
        "X-TC-Timestamp": String(timestamp),
        "X-TC-Version": "2021-01-11",
        "X-TC-Region": str(cfg, "tencent_region") || "ap-guangzhou",
      };
      const r = await post(LABEL, url, { headers, body: payload }, timeoutOf(cfg));
      const resp = r.json?.Response;
      if (!resp) return { ok: false, error: unexpected(LABEL, r) };
      if (resp.Error) return { ok: false, error: `${LABEL}发送失败：${brief(resp.Error.Message)}（${brief(resp.Error.Code, 80)}）` };
      const status = resp.SendStatusSet?.[0];
      if (!status) return { ok: false, error: unexpected(LABEL, r) };
      if (status.Code !== "Ok") return { ok: false, error: `${LABEL}发送失败：${brief(status.Message)}（${brief(status.Code, 80)}）` };
      return { ok: true, provider_message_id: String(status.SerialNo ?? "") };
    }),
  };
}
