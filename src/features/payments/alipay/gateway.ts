// Alipay through the official alipay-sdk: alipay.trade.page.pay (desktop) / alipay.trade.wap.pay
// (phones) as a signed GET redirect URL, alipay.trade.query and alipay.trade.close with every answer's
// sign verified by the SDK, and the RSA2 asynchronous notification (signature first, then app_id).
// Only start() needs the switch on; query, close and notifications keep working with it off so
// orders begun before an administrator switched Alipay off still complete.
import { AlipayRequestError } from "alipay-sdk";
import { setting } from "#src/features/settings/service.ts";
import { GatewayError, type Gateway, type GatewayState, type NotifyReply, type PayStart, type VerifiedNotify } from "../gateway.ts";
import { beijingDateTime, fenToYuan, parseBeijingDateTime, yuanToFen } from "../money.ts";
import { defaultNotifyUrl } from "../notifyUrl.ts";
import { alipayConfig, alipayMissing } from "./config.ts";

/** subject is limited to 256 characters */
const SUBJECT_MAX = 256;
const ORDER_NO = /^[0-9A-Za-z_]{1,64}$/;

type Answer = Record<string, any>;

/**
 * The SDK signs with its own clock's local time, which is not Beijing time on a UTC server and
 * would be refused as a stale timestamp; every call passes the Beijing time explicitly.
 */
const timestamp = () => beijingDateTime(Date.now());

/** One API call; SDK failures become Chinese GatewayErrors, a failed sign check above all. */
async function exec(method: string, bizContent: Record<string, unknown>, action: string): Promise<Answer> {
  const { sdk } = alipayConfig();
  try {
    return await sdk.exec(method, { bizContent, timestamp: timestamp() }, { validateSign: true });
  } catch (e) {
    const message = String((e as Error)?.message ?? e);
    if (e instanceof AlipayRequestError) {
      if (message.startsWith("验签失败")) throw new GatewayError("支付宝应答签名验证失败", { method });
      if (message.startsWith("HttpClient Request error")) {
        const timedOut = /timeout/i.test(message);
        throw new GatewayError(`支付宝${action}失败：${timedOut ? "请求超时" : "无法连接支付宝"}`, { method, reason: timedOut ? "timeout" : "network" });
      }
      if (message.startsWith("HTTP 请求错误")) throw new GatewayError(`支付宝${action}失败：网关返回 ${message.replace(/^.*status: /, "HTTP ").slice(0, 40)}`, { method });
      throw new GatewayError(`支付宝${action}失败：应答格式不正确`, { method });
    }
    // Outside its own error type the SDK fails only while checking a sign it could not even read
    // (a missing or malformed "sign" in the answer): that is an unverifiable answer too.
    throw new GatewayError("支付宝应答签名验证失败", { method, error: message.slice(0, 200) });
  }
}

const failure = (action: string, a: Answer) =>
  new GatewayError(`支付宝${action}失败：${String(a.sub_msg || a.msg || "未知错误").slice(0, 200)}（${String(a.sub_code || a.code || "")}）`, {
    code: a.code, sub_code: a.sub_code,
  });

const notExist = (a: Answer) => a.code === "40004" && a.sub_code === "ACQ.TRADE_NOT_EXIST";

function fen(value: unknown, what: string): number {
  const n = yuanToFen(value);
  if (n === null) throw new GatewayError(`${what}金额格式不正确`, { total_amount: value });
  return n;
}

export const alipayGateway: Gateway = {
  paymentType: 2,

  enabled() {
    return setting("payment", "enable_alipay") === true && alipayMissing().length === 0;
  },

  async start(order) {
    if (setting("payment", "enable_alipay") !== true) throw new GatewayError("支付宝未开启");
    const { sdk } = alipayConfig();
    if (!ORDER_NO.test(order.orderNo)) throw new GatewayError("支付宝下单失败：订单号格式不正确", { orderNo: order.orderNo });
    if (!Number.isSafeInteger(order.amount) || order.amount <= 0) throw new GatewayError("支付宝下单失败：金额必须是正整数分", { amount: order.amount });
    if (!(order.expireAt > Date.now())) throw new GatewayError("支付宝下单失败：订单已过期");
    const mobile = order.device === "mobile";
    const bizContent: Record<string, unknown> = {
      out_trade_no: order.orderNo,
      total_amount: fenToYuan(order.amount),
      subject: [...(order.description.trim() || order.orderNo)].slice(0, SUBJECT_MAX).join(""),
      product_code: mobile ? "QUICK_WAP_WAY" : "FAST_INSTANT_TRADE_PAY",
      time_expire: beijingDateTime(order.expireAt),
    };
    if (mobile && order.returnUrl) bizContent.quit_url = order.returnUrl;
    const params: Record<string, unknown> = {
      bizContent,
      notifyUrl: order.notifyUrl || defaultNotifyUrl("alipay", "支付宝"),
      timestamp: timestamp(),
    };
    if (order.returnUrl) params.returnUrl = order.returnUrl;
    let url: string;
    try {
      url = sdk.pageExecute(mobile ? "alipay.trade.wap.pay" : "alipay.trade.page.pay", "GET", params);
    } catch (e) {
      throw new GatewayError("支付宝下单失败：请求签名失败，请检查应用私钥", { error: String((e as Error)?.message ?? e).slice(0, 200) });
    }
    return { kind: "redirect", url } satisfies PayStart;
  },

  async query(orderNo): Promise<GatewayState> {
    const a = await exec("alipay.trade.query", { out_trade_no: orderNo }, "查单");
    if (notExist(a)) return { state: "unknown" };
    if (a.code !== "10000") throw failure("查单", a);
    if (a.out_trade_no !== undefined && a.out_trade_no !== orderNo) throw new GatewayError("支付宝查单应答的订单号不符", { out_trade_no: a.out_trade_no });
    switch (a.trade_status) {
      case "TRADE_SUCCESS":
      case "TRADE_FINISHED":
        return {
          state: "paid",
          transactionId: String(a.trade_no ?? ""),
          amount: fen(a.total_amount, "支付宝查单应答"),
          paidAt: parseBeijingDateTime(a.send_pay_date) ?? Date.now(),
          raw: a,
        };
      case "WAIT_BUYER_PAY":
        return { state: "pending" };
      case "TRADE_CLOSED":
        return { state: "closed" };
      default:
        throw new GatewayError(`支付宝查单失败：未识别的交易状态 ${String(a.trade_status).slice(0, 32)}`, { trade_status: a.trade_status });
    }
  },

  async close(orderNo) {
    const a = await exec("alipay.trade.close", { out_trade_no: orderNo }, "关单");
    if (a.code === "10000" || notExist(a)) return;
    throw failure("关单", a);
  },

  async verifyNotify(_headers, rawBody): Promise<VerifiedNotify> {
    const { sdk, appId } = alipayConfig();
    const params: Record<string, string> = Object.fromEntries(new URLSearchParams(rawBody));
    if (!params.sign) throw new GatewayError("支付宝通知缺少签名");
    if (params.sign_type && params.sign_type !== "RSA2") throw new GatewayError("支付宝通知签名类型不是 RSA2", { sign_type: params.sign_type });
    // Values are already form-decoded, so the SDK must not decode them a second time (V2).
    let valid = false;
    try {
      valid = sdk.checkNotifySignV2(params);
    } catch {}
    if (!valid) throw new GatewayError("支付宝通知签名验证失败");
    if (params.app_id !== appId) throw new GatewayError("支付宝通知 AppID 与配置不符", { app_id: params.app_id });
    const orderNo = params.out_trade_no ?? "";
    if (!orderNo) throw new GatewayError("支付宝通知缺少订单号");
    const { sign: _sign, ...raw } = params;
    return {
      orderNo,
      success: params.trade_status === "TRADE_SUCCESS" || params.trade_status === "TRADE_FINISHED",
      transactionId: params.trade_no ?? "",
      amount: fen(params.total_amount, "支付宝通知"),
      paidAt: parseBeijingDateTime(params.gmt_payment) ?? Date.now(),
      raw,
    };
  },

  reply(ok): NotifyReply {
    // Alipay reads only the body: anything but "success" makes it send the notification again.
    return ok
      ? { status: 200, body: "success", contentType: "text/plain; charset=utf-8" }
      : { status: 400, body: "fail", contentType: "text/plain; charset=utf-8" };
  },
};
