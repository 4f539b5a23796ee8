// Aliyun Dysms SendSms, RPC style (API version 2017-05-25) with signature version 1.0:
// StringToSign = METHOD & percent("/") & percent(sorted, percent-encoded query),
// Signature = Base64(HMAC-SHA1(AccessKeySecret + "&", StringToSign)).
// Docs: help.aliyun.com "SendSms - 发送短信" and alibabacloud.com/help/en/sms/signature-method.
import {
  guarded, hmac, isoSeconds, joinUrl, missing, post, rfc3986, str, templateFor, templateVars, timeoutOf, unexpected, brief,
  type SendInput, type SmsConfig, type SmsProvider,
} from "./types.ts";
import { SMS_DEFAULT_ENDPOINTS } from "../settings.ts";

const LABEL = "阿里云短信";

export const canonicalQuery = (params: Record<string, string>) =>
  Object.keys(params).sort().map((k) => `${rfc3986(k)}=${rfc3986(params[k]!)}`).join("&");

export function aliyunSignature(method: string, params: Record<string, string>, secret: string): string {
  const toSign = `${method}&${rfc3986("/")}&${rfc3986(canonicalQuery(params))}`;
  return hmac("sha1", `${secret}&`, toSign).toString("base64");
}

export function aliyun(cfg: SmsConfig): SmsProvider {
  return {
    name: "smsAliyun",
    send: ({ mobile, code, type }: SendInput) => guarded(async () => {
      const gap = missing(cfg, [["aliyun_access_key_id", "阿里云 AccessKey ID"], ["aliyun_access_key_secret", "阿里云 AccessKey Secret"], ["sign_name", "短信签名"]], type);
      if (gap) return { ok: false, error: gap };
      const params: Record<string, string> = {
        AccessKeyId: str(cfg, "aliyun_access_key_id"),
        Action: "SendSms",
        Format: "JSON",
        PhoneNumbers: mobile,
        RegionId: str(cfg, "aliyun_region") || "cn-hangzhou",
        SignName: str(cfg, "sign_name"),
        SignatureMethod: "HMAC-SHA1",
        SignatureNonce: crypto.randomUUID(),
        SignatureVersion: "1.0",
        TemplateCode: templateFor(cfg, type),
        TemplateParam: JSON.stringify(templateVars(cfg, code)),
        Timestamp: isoSeconds(),
        Version: "2017-05-25",
      };
      const signature = aliyunSignature("POST", params, str(cfg, "aliyun_access_key_secret"));
      const body = `${canonicalQuery(params)}&Signature=${rfc3986(signature)}`;
      const url = joinUrl(str(cfg, "aliyun_endpoint") || SMS_DEFAULT_ENDPOINTS.aliyun, "/");
      const r = await post(LABEL, url, { headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" }, body }, timeoutOf(cfg));
      const j = r.json;
      if (!j || typeof j.Code !== "string") return { ok: false, error: unexpected(LABEL, r) };
      if (j.Code !== "OK") return { ok: false, error: `${LABEL}发送失败：${brief(j.Message)}（${brief(j.Code, 80)}）` };
      return { ok: true, provider_message_id: String(j.BizId ?? "") };
    }),
  };
}
