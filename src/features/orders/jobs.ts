// Durable order jobs. orders.expire (every minute) ends pending orders past their expiry — asking
// the gateway first, since a buyer may have paid at the last second — and closes them at the
// gateway and here. orders.reconcile (at start and every few minutes) asks the gateway about
// pending money orders, so a payment whose notification was lost, or whose crediting a crash cut
// short, is applied (once: markPaid) after a restart.
import { and, asc, eq, inArray, lt } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { order } from "#db/schema/orders.ts";
import { registerJob } from "#src/jobs/worker.ts";
import { startedGateways } from "./paymentLog.ts";
import { closeAtGateways, closeLocally, syncWithGateways } from "./settle.ts";
import { ORDER_STATUS } from "./types.ts";

const BATCH = 200;
// A gateway that stays unreachable must not keep an order pending for ever: after this long past
// expiry it is closed here anyway (a payment confirmed later still counts: markPaid takes closed orders).
const GIVE_UP_AFTER_MS = 24 * 3600_000;

export async function expireOrders(now = Date.now()): Promise<{ closed: number; paid: number; deferred: number }> {
  const due = getDb().select().from(order).where(and(eq(order.status, ORDER_STATUS.pending), lt(order.expire_at, now)))
    .orderBy(asc(order.expire_at)).limit(BATCH).all();
  const out = { closed: 0, paid: 0, deferred: 0 };
  for (const o of due) {
    const overdue = now - o.expire_at > GIVE_UP_AFTER_MS;
    if (startedGateways(o.order_no).length) {
      const state = await syncWithGateways(o, "expire");
      if (state === "paid") {
        out.paid++;
        continue;
      }
      const closedThere = state === "closed" || (state !== "error" && (await closeAtGateways(o.order_no, "expire")));
      if (!closedThere && !overdue) {
        out.deferred++;
        continue;
      }
    }
    if (closeLocally(o, "expire", "订单超时未支付，已自动关闭")) out.closed++;
  }
  return out;
}

export async function reconcileOrders(): Promise<{ checked: number; paid: number }> {
  const pending = getDb().select().from(order).where(and(eq(order.status, ORDER_STATUS.pending), inArray(order.payment_type, [1, 2])))
    .orderBy(asc(order.id)).limit(BATCH).all();
  let paid = 0;
  for (const o of pending) if ((await syncWithGateways(o, "reconcile")) === "paid") paid++;
  return { checked: pending.length, paid };
}

// The worker enqueues each recurring kind at start unless one is already waiting — possibly
// scheduled minutes ahead by the previous process. The first expiry run of every process (within
// a minute of start) therefore reconciles as well, so recovery after a crash never waits long.
let reconciledSinceStart = false;

registerJob("orders.expire", async () => {
  const recovered = reconciledSinceStart ? null : await reconcileOrders();
  reconciledSinceStart = true;
  return { result: { ...(await expireOrders()), ...(recovered ? { reconciled: recovered } : {}) } };
}, { everyMs: 60_000, timeoutMs: 5 * 60_000 });

registerJob("orders.reconcile", async () => {
  reconciledSinceStart = true;
  return { result: await reconcileOrders() };
}, { everyMs: 3 * 60_000, timeoutMs: 5 * 60_000 });
