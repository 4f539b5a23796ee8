// Huawei Cloud Message&SMS: POST {APP接入地址}/sms/batchSendSms/v1, form-encoded, X-WSSE authentication:
// X-WSSE: UsernameToken Username="AppKey",PasswordDigest="…",Nonce="…",Created="…" with
// PasswordDigest = Base64 of the SHA-256 of Nonce + Created + AppSecret. Huawei's own samples and the example
// header in the doc (its digest decodes to 64 hex characters) Base64-encode the lowercase hex digest, so that is
// what is sent. Docs: support.huaweicloud.com/api-msgsms/sms_05_0046 (认证鉴权) and sms_05_0001 (发送短信).
import {
  brief, guarded, isoSeconds, joinUrl, missing, nonceHex, post, sha256Hex, str, templateFor, templateValues, timeoutOf, unexpected,
  type SendInput, type SmsConfig, type SmsProvider,
} from "./types.ts";
import { SMS_DEFAULT_ENDPOINTS } from "../settings.ts";

const LABEL = "华为云短信";
export const HUAWEI_PATH = "/sms/batchSendSms/v1";
export const HUAWEI_AUTHORIZATION = 'WSSE realm="SDP",profile="UsernameToken",type="Appkey"';

export const wssePasswordDigest = (nonce: string, created: string, appSecret: string) =>
  Buffer.from(sha256Hex(nonce + created + appSecret), "utf8").toString("base64");

export function wsseHeader(appKey: string, appSecret: string, nonce = nonceHex(), created = isoSeconds()) {
  return `UsernameToken Username="${appKey}",PasswordDigest="${wssePasswordDigest(nonce, created, appSecret)}",Nonce="${nonce}",Created="${created}"`;
}

export function huawei(cfg: SmsConfig): SmsProvider {
  return {
    name: "smsHuawei",
    send: ({ mobile, code, type }: SendInput) => guarded(async () => {
      const gap = missing(cfg, [["huawei_app_key", "华为云 Application Key"], ["huawei_app_secret", "华为云 Application Secret"], ["huawei_sender", "华为云签名通道号"]], type);
      if (gap) return { ok: false, error: gap };
      const form = new URLSearchParams({
        from: str(cfg, "huawei_sender"),
        to: `+86${mobile}`,
        templateId: templateFor(cfg, type),
        templateParas: JSON.stringify(templateValues(cfg, code)),
      });
      // Only needed for "通用模板"; harmless otherwise.
      if (str(cfg, "sign_name")) form.set("signature", str(cfg, "sign_name"));
      const headers = {
        "Content-Type": "application/x-www-form-urlencoded",
        Accept: "application/json",
        Authorization: HUAWEI_AUTHORIZATION,
        "X-WSSE": wsseHeader(str(cfg, "huawei_app_key"), str(cfg, "huawei_app_secret")),
      };
      const url = joinUrl(str(cfg, "huawei_endpoint") || SMS_DEFAULT_ENDPOINTS.huawei, HUAWEI_PATH);
      const r = await post(LABEL, url, { headers, body: form.toString() }, timeoutOf(cfg));
      const j = r.json;
      if (!j || j.code === undefined) return { ok: false, error: unexpected(LABEL, r) };
      if (String(j.code) !== "000000") return { ok: false, error: `${LABEL}发送失败：${brief(j.description)}（${brief(j.code, 80)}）` };
      const item = Array.isArray(j.result) ? j.result[0] : undefined;
      if (item && item.status !== undefined && String(item.status) !== "000000") return { ok: false, error: `${LABEL}发送失败：短信状态码 ${brief(item.status, 80)}` };
      return { ok: true, provider_message_id: String(item?.smsMsgId ?? "") };
    }),
  };
}
