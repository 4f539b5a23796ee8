// Talking to the gateways about orders already started there: asking whether they were paid (a
// lost notification, a crash between the gateway's success and our crediting) and closing them.
// Whatever a gateway confirms goes through markPaid, so a payment is applied exactly once.
import { and, eq, lte, sql } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { order } from "#db/schema/orders.ts";
import { GatewayError } from "#src/features/payments/gateway.ts";
import { gatewayFor } from "#src/features/payments/registry.ts";
import { markPaid } from "./fulfil.ts";
import { logPayment, PAY_EVENT, startedGateways } from "./paymentLog.ts";
import { ORDER_STATUS, type OrderRow } from "./types.ts";

const reason = (e: unknown) => (e instanceof GatewayError ? e.message : `无法连接支付网关：${e instanceof Error ? e.message : String(e)}`);
const detailOf = (e: unknown) => (e instanceof GatewayError ? e.detail : {});

export type SyncResult = "paid" | "pending" | "closed" | "error";

/**
 * Asks every gateway the order's payment was started at. A payment one of them confirms is
 * applied (markPaid); answers "paid" when the order is paid now, "error" when a gateway could
 * not be asked (so callers do not close what may have been paid), else what the gateways say.
 */
export async function syncWithGateways(o: Pick<OrderRow, "order_no" | "amount">, source: string): Promise<SyncResult> {
  const types = startedGateways(o.order_no);
  let failed = false;
  let allClosed = types.length > 0;
  for (const t of types) {
    try {
      const state = await gatewayFor(t).query(o.order_no);
      logPayment({ orderNo: o.order_no, paymentType: t, event: PAY_EVENT.query, message: `网关状态：${state.state}`, detail: { source, state: state.state, ...(state.state === "paid" ? { transaction_id: state.transactionId, amount: state.amount } : {}) } });
      if (state.state === "paid") {
        const r = markPaid(o.order_no, { paymentType: t, transactionId: state.transactionId, amount: state.amount, paidAt: state.paidAt || Date.now() }, { source });
        if (r.applied) await closeAtGateways(o.order_no, "paid_elsewhere", t);
        if (r.applied || r.reason === "already_paid") return "paid";
      }
      if (state.state !== "closed") allClosed = false;
    } catch (e) {
      logPayment({ orderNo: o.order_no, paymentType: t, event: PAY_EVENT.query, ok: false, message: reason(e), detail: { source, ...detailOf(e) } });
      failed = true;
      allClosed = false;
    }
  }
  return failed ? "error" : allClosed ? "closed" : "pending";
}

/**
 * Closes the order at every gateway it was started at (but `except`, the one that was paid);
 * false when one of them refused or was unreachable.
 */
export async function closeAtGateways(orderNo: string, source: string, except = 0): Promise<boolean> {
  let ok = true;
  for (const t of startedGateways(orderNo)) {
    if (t === except) continue;
    try {
      await gatewayFor(t).close(orderNo);
      logPayment({ orderNo, paymentType: t, event: PAY_EVENT.close, message: "已在支付网关关闭", detail: { source } });
    } catch (e) {
      ok = false;
      logPayment({ orderNo, paymentType: t, event: PAY_EVENT.close, ok: false, message: reason(e), detail: { source, ...detailOf(e) } });
    }
  }
  return ok;
}

/** Closes a pending order here (status 3); false when it is no longer pending. */
export function closeLocally(o: Pick<OrderRow, "id" | "order_no" | "payment_type">, source: string, message = "订单已关闭"): boolean {
  const now = Date.now();
  const closed = getDb().transaction((tx) => {
    const row = tx.update(order).set({ status: ORDER_STATUS.closed, closed_at: now, updated_at: now })
      .where(and(eq(order.id, o.id), eq(order.status, ORDER_STATUS.pending))).returning({ id: order.id }).get();
    if (row) logPayment({ orderNo: o.order_no, paymentType: o.payment_type, event: source === "expire" ? PAY_EVENT.expire : PAY_EVENT.close, message, detail: { source } }, tx);
    return !!row;
  }, { behavior: "immediate" });
  return closed;
}

export const STATUS_QUERY_INTERVAL_MS = 3_000;

/**
 * Takes the right to ask the gateway about this order now: at most one query per order every
 * STATUS_QUERY_INTERVAL_MS however many pollers ask (the conditional UPDATE decides).
 */
export function claimStatusQuery(orderId: number, now = Date.now()): boolean {
  return !!getDb().update(order).set({ queried_at: now })
    .where(and(eq(order.id, orderId), eq(order.status, ORDER_STATUS.pending), lte(order.queried_at, now - STATUS_QUERY_INTERVAL_MS), sql`${order.payment_type} IN (1, 2)`))
    .returning({ id: order.id }).get();
}
