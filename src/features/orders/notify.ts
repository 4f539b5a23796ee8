import { eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { order } from "#db/schema/orders.ts";
import { GatewayError, type NotifyReply, type VerifiedNotify } from "#src/features/payments/gateway.ts";
import { gatewayFor } from "#src/features/payments/registry.ts";
import { log } from "#src/http/requestLog.ts";
import { markPaid } from "./fulfil.ts";
import { logPayment, PAY_EVENT } from "./paymentLog.ts";
import { closeAtGateways } from "./settle.ts";
import type { MoneyPayType } from "./types.ts";

const answer = (r: NotifyReply) => new Response(r.body, { status: r.status, headers: { "Content-Type": r.contentType, "Cache-Control": "no-store" } });

/**
 * A gateway's payment notification: the signature is verified before anything else is read,
 * then the order must exist and the paid amount equal ours; only then markPaid (once, however
 * often the gateway repeats itself). Anything forged or mismatching changes nothing, is logged
 * and answered with the gateway's error reply, so a real gateway would retry and a forger learns
 * nothing.
 */
export async function handleNotify(paymentType: MoneyPayType, headers: Headers, rawBody: string, ip: string): Promise<Response> {
  const gateway = gatewayFor(paymentType);
  let v: VerifiedNotify;
  try {
    v = await gateway.verifyNotify(headers, rawBody);
  } catch (e) {
    const message = e instanceof GatewayError ? e.message : "通知无法解析";
    logPayment({ orderNo: "", paymentType, event: PAY_EVENT.notify, ok: false, message: `通知被拒绝：${message}`, detail: e instanceof GatewayError ? e.detail : { error: String(e) }, ip });
    return answer(gateway.reply(false, "验证失败"));
  }
  const o = getDb().select({ order_no: order.order_no, amount: order.amount }).from(order).where(eq(order.order_no, v.orderNo)).get();
  const facts = { transaction_id: v.transactionId, amount: v.amount, success: v.success };
  if (!o) {
    logPayment({ orderNo: v.orderNo.slice(0, 64), paymentType, event: PAY_EVENT.notify, ok: false, message: "通知被拒绝：订单不存在", detail: facts, ip });
    return answer(gateway.reply(false, "订单不存在"));
  }
  if (!v.success) {
    // Not a payment (closed, waiting): nothing to do, and the gateway may stop repeating it.
    logPayment({ orderNo: o.order_no, paymentType, event: PAY_EVENT.notify, message: "收到非支付成功通知，未处理", detail: { ...facts, raw_state: v.raw.trade_state ?? v.raw.trade_status ?? "" }, ip });
    return answer(gateway.reply(true));
  }
  if (v.amount !== o.amount) {
    logPayment({ orderNo: o.order_no, paymentType, event: PAY_EVENT.notify, ok: false, message: `通知被拒绝：金额不一致（订单 ${o.amount} 分，通知 ${v.amount} 分）`, detail: facts, ip });
    return answer(gateway.reply(false, "金额不一致"));
  }
  try {
    const r = markPaid(o.order_no, { paymentType, transactionId: v.transactionId, amount: v.amount, paidAt: v.paidAt || Date.now() }, { ip, source: "notify" });
    const ok = r.applied || r.reason === "already_paid";
    logPayment({ orderNo: o.order_no, paymentType, event: PAY_EVENT.notify, ok, message: r.applied ? "通知已接受，订单已支付" : ok ? "重复通知，订单此前已支付" : `通知被拒绝：${r.reason}`, detail: facts, ip });
    // A payment also started at the other gateway must not be payable there any more; the
    // gateway's answer does not wait for that (closeAtGateways logs its own failures).
    if (r.applied) void closeAtGateways(o.order_no, "paid_elsewhere", paymentType).catch(() => {});
    return answer(gateway.reply(ok, ok ? undefined : "处理失败"));
  } catch (e) {
    // Busy database or the like: the gateway repeats the notification, and the jobs ask it anyway.
    log("error", "payment notify failed", { order_no: o.order_no, error: String(e) });
    return answer(gateway.reply(false, "系统繁忙"));
  }
}
