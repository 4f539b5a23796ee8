import { and, eq, inArray } from "drizzle-orm";
import { getDb, type Db } from "#db/client.ts";
import { document } from "#db/schema/documents.ts";
import { order } from "#db/schema/orders.ts";
import { user } from "#db/schema/users.ts";
import { changeCredits } from "#src/features/credits/ledger.ts";
import { requestFullRender } from "#src/features/convert/enqueue.ts";
import { earnsIncome } from "#src/features/downloads/service.ts";
import { creditName } from "#src/features/settings/service.ts";
import { extendVip } from "#src/features/vip/membership.ts";
import { badRequest } from "#src/lib/errors.ts";
import { hasBought } from "./ownership.ts";
import { logPayment, PAY_EVENT } from "./paymentLog.ts";
import { ORDER_STATUS, ORDER_TYPE, PAY_TYPE, type OrderRow } from "./types.ts";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface Payment {
  /** 1 WeChat, 2 Alipay, 5 credits */
  paymentType: number;
  /** the gateway's id of the payment ("" for credits) */
  transactionId: string;
  /** what was paid, fen (the order's amount; for credits the order's amount as well) */
  amount: number;
  paidAt: number;
}

export type MarkPaidResult =
  | { applied: true; order: OrderRow }
  | { applied: false; reason: "unknown_order" | "amount_mismatch" | "already_paid" | "not_payable"; order: OrderRow | null };

/**
 * The single way an order becomes paid. One IMMEDIATE transaction: a conditional UPDATE (pending,
 * or closed for money the gateway confirms after we closed — the money was taken) and the order's
 * effects commit together or not at all, so however many notifications arrive and however they
 * race with status queries and jobs, an order is fulfilled exactly once. A wrong amount changes
 * nothing and is logged. Paying with credits (payment_type 5) charges credit_price inside the same
 * transaction and only while the order is pending; too few credits throws and leaves nothing.
 */
export function markPaid(orderNo: string, p: Payment, opts: { ip?: string; source?: string } = {}): MarkPaidResult {
  const r = paidInTransaction(orderNo, p, opts);
  // After the commit: the buyer's page images past the preview are rendered by a job of their own.
  if (r.applied && r.order.order_type === ORDER_TYPE.document) requestFullRender(r.order.product_id);
  return r;
}

function paidInTransaction(orderNo: string, p: Payment, opts: { ip?: string; source?: string }): MarkPaidResult {
  return getDb().transaction((tx) => {
    const o = tx.select().from(order).where(eq(order.order_no, orderNo)).get();
    const base = { orderNo, paymentType: p.paymentType, ip: opts.ip ?? "" };
    const facts = { source: opts.source ?? "", transaction_id: p.transactionId, amount: p.amount };
    if (!o) {
      logPayment({ ...base, event: PAY_EVENT.paid, ok: false, message: "订单不存在", detail: facts }, tx);
      return { applied: false, reason: "unknown_order", order: null } as const;
    }
    if (o.status === ORDER_STATUS.paid) {
      // A second gateway taking money for a paid order is a double payment the admin must refund.
      if (p.paymentType !== PAY_TYPE.credits && (o.payment_type !== p.paymentType || o.transaction_id !== p.transactionId)) {
        logPayment({ ...base, event: PAY_EVENT.duplicate, ok: false, message: "订单已支付，又收到另一笔付款，请核实并退款", detail: { ...facts, paid_transaction_id: o.transaction_id } }, tx);
      }
      return { applied: false, reason: "already_paid", order: o } as const;
    }
    if (p.amount !== o.amount) {
      logPayment({ ...base, event: PAY_EVENT.paid, ok: false, message: `金额不一致：订单 ${o.amount} 分，实付 ${p.amount} 分`, detail: facts }, tx);
      return { applied: false, reason: "amount_mismatch", order: o } as const;
    }
    const credits = p.paymentType === PAY_TYPE.credits;
    if (credits) {
      if (o.status !== ORDER_STATUS.pending) throw badRequest("订单已关闭，请重新下单");
      if (o.expire_at <= p.paidAt) throw badRequest("订单已过期，请重新下单");
      if (o.order_type !== ORDER_TYPE.document || o.credit_price <= 0) throw badRequest(`该订单不能用${creditName()}支付`);
      if (hasBought(o.user_id, o.product_id, tx)) throw badRequest("您已购买过该文档，无需重复购买");
    }
    const payable = credits ? [ORDER_STATUS.pending] : [ORDER_STATUS.pending, ORDER_STATUS.closed];
    const paid = tx.update(order)
      .set({ status: ORDER_STATUS.paid, payment_type: p.paymentType, transaction_id: p.transactionId, paid_at: p.paidAt, updated_at: Date.now() })
      .where(and(eq(order.id, o.id), inArray(order.status, payable)))
      .returning().get();
    if (!paid) return { applied: false, reason: "not_payable", order: o } as const;
    if (credits) {
      const name = creditName();
      const balance = tx.select({ c: user.credit_count }).from(user).where(eq(user.id, o.user_id)).get()?.c ?? 0;
      if (balance < o.credit_price) throw badRequest(`${name}不足：需要 ${o.credit_price} ${name}，当前余额 ${balance} ${name}`);
      changeCredits({ userId: o.user_id, amount: -o.credit_price, kind: "buy_document", reason: `购买文档《${o.product_title}》`, refId: o.product_id }, tx);
    }
    applyEffects(tx, paid);
    if (o.status === ORDER_STATUS.closed) {
      logPayment({ ...base, event: PAY_EVENT.latePaid, message: "订单关闭后收到付款，已按已支付处理", detail: facts }, tx);
    }
    logPayment({ ...base, event: PAY_EVENT.paid, message: "支付成功", detail: facts }, tx);
    return { applied: true, order: paid } as const;
  }, { behavior: "immediate" });
}

/** What a paid order grants, in the paying transaction. */
function applyEffects(tx: Tx, o: OrderRow) {
  const now = Date.now();
  if (o.order_type === ORDER_TYPE.recharge && o.credits > 0) {
    changeCredits({ userId: o.user_id, amount: o.credits, kind: "recharge", reason: `充值 ${o.credits} ${creditName()}（订单 ${o.order_no}）`, refId: o.id }, tx);
  } else if (o.order_type === ORDER_TYPE.vip && o.vip_months > 0) {
    const current = tx.select({ v: user.vip_until }).from(user).where(eq(user.id, o.user_id)).get();
    // An account deleted since ordering has nobody to extend; the order still records the payment.
    if (current) tx.update(user).set({ vip_until: extendVip(current.v, o.vip_months, now) }).where(eq(user.id, o.user_id)).run();
  } else if (o.order_type === ORDER_TYPE.document) {
    // The buyer's paid order is what unlocks the document for good; the uploader earns its price.
    const doc = tx.select({ user_id: document.user_id, title: document.title }).from(document).where(eq(document.id, o.product_id)).get();
    if (doc?.user_id && doc.user_id !== o.user_id && o.credit_price > 0 && earnsIncome(tx, o.user_id, doc.user_id, o.ip, now)) {
      changeCredits({ userId: doc.user_id, amount: o.credit_price, kind: "download_income", reason: `文档《${doc.title}》被购买`, refId: o.product_id }, tx);
    }
  }
}
