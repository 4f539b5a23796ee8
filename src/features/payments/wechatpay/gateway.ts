// WeChat Pay API v3 Native (扫码支付) as a Gateway: POST /v3/pay/transactions/native for the
// code_url, GET …/out-trade-no/{no}?mchid= to ask, POST …/{no}/close to close, and the payment
// notification (signature first, then AEAD_AES_256_GCM resource, then merchant and app ids).
// Only start() needs the switch on; query, close and notifications keep working with it off so
// orders begun before an administrator switched WeChat Pay off still complete.
import { setting } from "#src/features/settings/service.ts";
import { GatewayError, type Gateway, type GatewayOrder, type GatewayState, type NotifyReply, type PayStart, type VerifiedNotify } from "../gateway.ts";
import { parseRfc3339, rfc3339Beijing } from "../money.ts";
import { defaultNotifyUrl } from "../notifyUrl.ts";
import { keyLookup } from "./certificates.ts";
import { wechatPayConfig, wechatPayMissing, type WechatPayConfig } from "./config.ts";
import { decryptResource, truncateUtf8 } from "./crypto.ts";
import { answerError, checkAnswer, sendSigned, verifySigned, type WechatAnswer } from "./http.ts";

/** description is limited to 127 bytes of UTF-8 */
export const DESCRIPTION_MAX_BYTES = 127;
const ORDER_NO = /^[0-9A-Za-z_\-|*]{6,32}$/;

export interface NativeOrderBody {
  appid: string;
  mchid: string;
  description: string;
  out_trade_no: string;
  time_expire: string;
  notify_url: string;
  amount: { total: number; currency: "CNY" };
}

/** The JSON body of a Native order, fields in the order of the API reference. */
export function nativeOrderBody(cfg: Pick<WechatPayConfig, "appId" | "mchId">, order: GatewayOrder, notifyUrl: string): NativeOrderBody {
  return {
    appid: cfg.appId,
    mchid: cfg.mchId,
    description: truncateUtf8(order.description.trim() || order.orderNo, DESCRIPTION_MAX_BYTES),
    out_trade_no: order.orderNo,
    time_expire: rfc3339Beijing(order.expireAt),
    notify_url: notifyUrl,
    amount: { total: order.amount, currency: "CNY" },
  };
}

function checkOrder(order: GatewayOrder) {
  if (!ORDER_NO.test(order.orderNo)) throw new GatewayError("微信支付下单失败：订单号格式不正确", { orderNo: order.orderNo });
  if (!Number.isSafeInteger(order.amount) || order.amount <= 0) throw new GatewayError("微信支付下单失败：金额必须是正整数分", { amount: order.amount });
  if (!(order.expireAt > Date.now())) throw new GatewayError("微信支付下单失败：订单已过期");
}

const transactionPath = (orderNo: string) => `/v3/pay/transactions/out-trade-no/${encodeURIComponent(orderNo)}`;

async function call(cfg: WechatPayConfig, method: "GET" | "POST", path: string, body: unknown, action: string): Promise<WechatAnswer> {
  return checkAnswer(await sendSigned(cfg, method, path, body, action), keyLookup(cfg));
}

const notFound = (a: WechatAnswer) => a.verified && a.status === 404 && a.json?.code === "ORDER_NOT_EXIST";

/** A transaction (query answer or decrypted notification) must name our merchant and app. */
function checkIds(cfg: WechatPayConfig, t: any, what: string) {
  if (String(t?.mchid ?? "") !== cfg.mchId) throw new GatewayError(`${what}商户号与配置不符`, { mchid: t?.mchid });
  if (String(t?.appid ?? "") !== cfg.appId) throw new GatewayError(`${what} AppID 与配置不符`, { appid: t?.appid });
}

function paidAmount(t: any, what: string): number {
  const total = t?.amount?.total;
  if (!Number.isSafeInteger(total) || total < 0) throw new GatewayError(`${what}金额格式不正确`, { amount: t?.amount });
  return total;
}

export const wechatPayGateway: Gateway = {
  paymentType: 1,

  enabled() {
    return setting("payment", "enable_wechatpay") === true && wechatPayMissing().length === 0;
  },

  async start(order) {
    if (setting("payment", "enable_wechatpay") !== true) throw new GatewayError("微信支付未开启");
    const cfg = wechatPayConfig();
    checkOrder(order);
    const body = nativeOrderBody(cfg, order, order.notifyUrl || defaultNotifyUrl("wechatpay", "微信支付"));
    const a = await call(cfg, "POST", "/v3/pay/transactions/native", body, "下单");
    if (a.status !== 200) throw answerError("下单", a);
    const codeUrl = a.json?.code_url;
    if (typeof codeUrl !== "string" || !codeUrl) throw new GatewayError("微信支付下单失败：应答中没有 code_url", { status: a.status });
    return { kind: "qr", codeUrl } satisfies PayStart;
  },

  async query(orderNo): Promise<GatewayState> {
    const cfg = wechatPayConfig();
    const a = await call(cfg, "GET", `${transactionPath(orderNo)}?mchid=${encodeURIComponent(cfg.mchId)}`, undefined, "查单");
    if (notFound(a)) return { state: "unknown" };
    if (a.status !== 200) throw answerError("查单", a);
    const t = a.json;
    checkIds(cfg, t, "微信支付查单应答");
    if (t?.out_trade_no !== orderNo) throw new GatewayError("微信支付查单应答的订单号不符", { out_trade_no: t?.out_trade_no });
    switch (t.trade_state) {
      case "SUCCESS":
        return {
          state: "paid",
          transactionId: String(t.transaction_id ?? ""),
          amount: paidAmount(t, "微信支付查单应答"),
          paidAt: parseRfc3339(t.success_time) ?? Date.now(),
          raw: t,
        };
      case "NOTPAY":
      case "USERPAYING":
        return { state: "pending" };
      case "CLOSED":
      case "REVOKED":
      case "PAYERROR":
        return { state: "closed" };
      default:
        // REFUND and anything newer: not a state an unpaid order can move to by itself.
        throw new GatewayError(`微信支付查单失败：未识别的交易状态 ${String(t.trade_state).slice(0, 32)}`, { trade_state: t.trade_state });
    }
  },

  async close(orderNo) {
    const cfg = wechatPayConfig();
    const a = await call(cfg, "POST", `${transactionPath(orderNo)}/close`, { mchid: cfg.mchId }, "关单");
    if (a.status === 204 || notFound(a)) return;
    throw answerError("关单", a);
  },

  async verifyNotify(headers, rawBody): Promise<VerifiedNotify> {
    const cfg = wechatPayConfig();
    // Nothing in the body is read before its signature verifies.
    await verifySigned(headers, rawBody, keyLookup(cfg), "通知");
    let note: any;
    try {
      note = JSON.parse(rawBody);
    } catch {
      throw new GatewayError("微信支付通知不是有效的 JSON");
    }
    const resource = note?.resource;
    if (!resource || typeof resource !== "object") throw new GatewayError("微信支付通知缺少 resource");
    if (resource.algorithm !== "AEAD_AES_256_GCM") throw new GatewayError(`微信支付通知加密算法不受支持：${String(resource.algorithm).slice(0, 32)}`);
    let t: any;
    try {
      t = JSON.parse(decryptResource(resource, cfg.apiV3Key));
    } catch {
      throw new GatewayError("微信支付通知解密失败", { event: note?.id });
    }
    checkIds(cfg, t, "微信支付通知");
    const orderNo = String(t?.out_trade_no ?? "");
    if (!orderNo) throw new GatewayError("微信支付通知缺少订单号");
    const success = note.event_type === "TRANSACTION.SUCCESS" && t.trade_state === "SUCCESS";
    return {
      orderNo,
      success,
      transactionId: String(t.transaction_id ?? ""),
      amount: paidAmount(t, "微信支付通知"),
      paidAt: parseRfc3339(t.success_time) ?? Date.now(),
      raw: { ...t, notify_id: note.id, event_type: note.event_type },
    };
  },

  reply(ok, message): NotifyReply {
    if (ok) return { status: 204, body: "", contentType: "text/plain; charset=utf-8" };
    return { status: 400, body: JSON.stringify({ code: "FAIL", message: message || "失败" }), contentType: "application/json; charset=utf-8" };
  },
};
