// Where gateways post their payment notifications when the caller (which knows the request's
// origin) did not say: the site's configured domain.
import { setting } from "#src/features/settings/service.ts";
import { GatewayError } from "./gateway.ts";

/** `${system.domain}/api/v1/payment/notify/<name>`; refuses without an absolute http(s) domain. */
export function defaultNotifyUrl(name: "wechatpay" | "alipay", label: string): string {
  const domain = String(setting("system", "domain") ?? "").trim().replace(/\/+$/, "");
  if (!/^https?:\/\/[^/\s]+/i.test(domain)) throw new GatewayError(`${label}无法生成支付通知地址：请先在系统设置中填写网站域名（含 https://）`);
  return `${domain}/api/v1/payment/notify/${name}`;
}
