// Shared set-up of the order tests: a fresh app and database, members with credits, paid
// documents, settings by group, and reading orders, balances, ledgers and the payment log.
import { and, asc, eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { creditLog } from "#db/schema/accounts.ts";
import { document } from "#db/schema/documents.ts";
import { order, paymentLog } from "#db/schema/orders.ts";
import { user } from "#db/schema/users.ts";
import { changeCredits } from "#src/features/credits/ledger.ts";
import { updateConfig } from "#src/features/settings/service.ts";
import { resetAll } from "#src/lib/rateLimit.ts";
import { setupTestApp } from "../helpers/testApp.ts";

export function setupOrders() {
  const t = setupTestApp();
  let n = 0;

  /** A member registered two days ago (old enough that uploaders earn from them), with credits given through the ledger. */
  async function member(credits = 0) {
    const u = await t.createUser(`ord_${++n}_${crypto.randomUUID().slice(0, 6)}`);
    getDb().update(user).set({ created_at: Date.now() - 2 * 86400_000 }).where(eq(user.id, u.user.id)).run();
    if (credits) changeCredits({ userId: u.user.id, amount: credits, kind: "admin", reason: "测试发放" });
    return { id: u.user.id, token: u.token, username: u.user.username };
  }

  /** A converted, visible document (no file: orders never read it). */
  function doc(ownerId: number, opts: { price?: number; title?: string; status?: number } = {}) {
    return getDb().insert(document).values({
      uuid: crypto.randomUUID(), title: opts.title ?? `订单测试文档 ${++n}`, user_id: ownerId, hash: crypto.randomUUID().replaceAll("-", ""), ext: "pdf",
      size: 1000, pages: 5, preview: 2, price: opts.price ?? 10, status: opts.status ?? 2,
    }).returning().get();
  }

  function settings(group: string, values: Record<string, string | number | boolean>) {
    updateConfig(Object.entries(values).map(([name, value]) => ({ category: group, name, value })));
    resetAll();
  }

  const balance = (id: number) => getDb().select({ c: user.credit_count }).from(user).where(eq(user.id, id)).get()!.c;
  const vipUntil = (id: number) => getDb().select({ v: user.vip_until }).from(user).where(eq(user.id, id)).get()!.v;
  const ledger = (id: number, kind?: string) =>
    getDb().select().from(creditLog).where(kind ? and(eq(creditLog.user_id, id), eq(creditLog.kind, kind)) : eq(creditLog.user_id, id)).orderBy(asc(creditLog.id)).all();
  const orderRow = (orderNo: string) => getDb().select().from(order).where(eq(order.order_no, orderNo)).get()!;
  const events = (orderNo: string) => getDb().select().from(paymentLog).where(eq(paymentLog.order_no, orderNo)).orderBy(asc(paymentLog.id)).all();

  async function create(token: string, body: Record<string, unknown>) {
    const r = await t.req("POST", "/api/v1/order", { token, body });
    if (r.status !== 200) throw new Error(`create order: ${r.status} ${r.text}`);
    return r.body.order_no as string;
  }

  return { t, member, doc, settings, balance, vipUntil, ledger, orderRow, events, create };
}

/** Every ledger row's balance is the running sum of the amounts, never negative, and the sum is the balance now. */
export function ledgerConsistent(rows: { amount: number; balance: number }[], now: number): boolean {
  let running = 0;
  for (const r of rows) {
    running += r.amount;
    if (r.balance !== running || r.balance < 0) return false;
  }
  return running === now;
}
