// Haomas (号码商/浩信). Its HTTP API is not published anywhere this project could consult, so this speaks a
// conventional signed JSON API (the admin placeholder says so, so an operator can match it to the vendor's):
// POST {endpoint} with JSON { app_key, mobile, sign_name, template_id, template_params (JSON text), timestamp,
// nonce, signature }, where signature = hex(HMAC-SHA256(AppSecret, "k=v&…" over every other field sorted by
// name)); success is { code: 0, data: { message_id } }, anything else is { code: ≠0, message }.
import {
  brief, guarded, hmac, missing, nonceHex, post, str, templateFor, templateVars, timeoutOf, unexpected,
  type SendInput, type SmsConfig, type SmsProvider,
} from "./types.ts";

const LABEL = "号码商短信";

export const haomasStringToSign = (fields: Record<string, string>) =>
  Object.keys(fields).filter((k) => k !== "signature").sort().map((k) => `${k}=${fields[k]}`).join("&");

export const haomasSignature = (fields: Record<string, string>, secret: string) => hmac("sha256", secret, haomasStringToSign(fields)).toString("hex");

export function haomas(cfg: SmsConfig): SmsProvider {
  return {
    name: "smsHaomas",
    send: ({ mobile, code, type }: SendInput) => guarded(async () => {
      const gap = missing(cfg, [["haomas_endpoint", "号码商接口地址"], ["haomas_app_key", "号码商 AppKey"], ["haomas_app_secret", "号码商 AppSecret"], ["sign_name", "短信签名"]], type);
      if (gap) return { ok: false, error: gap };
      const fields: Record<string, string> = {
        app_key: str(cfg, "haomas_app_key"),
        mobile,
        sign_name: str(cfg, "sign_name"),
        template_id: templateFor(cfg, type),
        template_params: JSON.stringify(templateVars(cfg, code)),
        timestamp: String(Math.floor(Date.now() / 1000)),
        nonce: nonceHex(),
      };
      fields.signature = haomasSignature(fields, str(cfg, "haomas_app_secret"));
      const r = await post(LABEL, str(cfg, "haomas_endpoint"), { headers: { "Content-Type": "application/json; charset=utf-8", Accept: "application/json" }, body: JSON.stringify(fields) }, timeoutOf(cfg));
      const j = r.json;
      if (!j || j.code === undefined) return { ok: false, error: unexpected(LABEL, r) };
      if (Number(j.code) !== 0) return { ok: false, error: `${LABEL}发送失败：${brief(j.message)}（${brief(j.code, 80)}）` };
      return { ok: true, provider_message_id: String(j.data?.message_id ?? "") };
    }),
  };
}
