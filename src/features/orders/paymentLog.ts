import { and, count, desc, eq } from "drizzle-orm";
import { getDb, type Db } from "#db/client.ts";
import { paymentLog } from "#db/schema/orders.ts";
import { log } from "#src/http/requestLog.ts";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** Payment events the admin sees per order (spec: every payment event is logged). */
export const PAY_EVENT = {
  created: "created",
  payStart: "pay_start",
  notify: "notify",
  query: "query",
  close: "close",
  paid: "paid",
  latePaid: "late_paid",
  duplicate: "duplicate_payment",
  systemRecharge: "system_recharge",
  expire: "expire",
} as const;
export type PayEvent = (typeof PAY_EVENT)[keyof typeof PAY_EVENT];

export interface PaymentEvent {
  orderNo: string;
  paymentType?: number;
  event: PayEvent;
  ok?: boolean;
  message?: string;
  /** facts for the admin; never keys, signatures or certificates */
  detail?: Record<string, unknown>;
  ip?: string;
}

// Keys whose values must never reach the log even if a gateway's raw answer carries them.
const SECRET_KEY = /key|secret|sign|cert|token|password|ciphertext|nonce/i;
const MAX_DETAIL = 4000;

function scrub(v: unknown, depth = 0): unknown {
  if (depth > 4) return "…";
  if (Array.isArray(v)) return v.slice(0, 20).map((x) => scrub(x, depth + 1));
  if (v && typeof v === "object") {
    return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, SECRET_KEY.test(k) ? "[隐藏]" : scrub(x, depth + 1)]));
  }
  return typeof v === "string" && v.length > 500 ? `${v.slice(0, 500)}…` : v;
}

/** Records one payment event, in the caller's transaction when given (so it commits with the change). */
export function logPayment(e: PaymentEvent, tx?: Tx) {
  const detail = e.detail ? JSON.stringify(scrub(e.detail)).slice(0, MAX_DETAIL) : "";
  const row = { order_no: e.orderNo, payment_type: e.paymentType ?? 0, event: e.event, ok: e.ok ?? true, message: (e.message ?? "").slice(0, 500), detail, ip: e.ip ?? "" };
  (tx ?? getDb()).insert(paymentLog).values(row).run();
  if (!row.ok) log("warn", "payment event refused", { order_no: row.order_no, event: row.event, payment_type: row.payment_type, message: row.message });
}

export function listPaymentLog(q: { order_no?: string; page: number; size: number }) {
  const where = q.order_no ? eq(paymentLog.order_no, q.order_no) : undefined;
  const db = getDb();
  const rows = db.select().from(paymentLog).where(where).orderBy(desc(paymentLog.created_at), desc(paymentLog.id))
    .limit(q.size).offset((q.page - 1) * q.size).all();
  const total = db.select({ n: count() }).from(paymentLog).where(where).get()!.n;
  return { total, log: rows };
}

/** Gateways a payment was started at for this order (it may be paid at any of them). */
export function startedGateways(orderNo: string): (1 | 2)[] {
  const rows = getDb().selectDistinct({ t: paymentLog.payment_type }).from(paymentLog)
    .where(and(eq(paymentLog.order_no, orderNo), eq(paymentLog.event, PAY_EVENT.payStart), eq(paymentLog.ok, true))).all();
  return rows.map((r) => r.t).filter((t): t is 1 | 2 => t === 1 || t === 2).sort();
}
