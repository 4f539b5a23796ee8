// Orders paid with Alipay against the loopback simulator (its own RSA2 keys): page pay URL,
// verified form notifications paid once, forged or mismatching ones refused, the status query and
// the reconcile job recover a lost notification, expiry closes the trade at Alipay.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { order } from "#db/schema/orders.ts";
import { expireOrders, reconcileOrders } from "#src/features/orders/jobs.ts";
import { updateConfig } from "#src/features/settings/service.ts";
import { startFakeAlipay, type FakeAlipay } from "../helpers/fakeAlipay.ts";
import { setupOrders } from "./orders-fixtures.ts";

const o = setupOrders();
const { t } = o;
let ali: FakeAlipay;

beforeAll(async () => {
  ali = await startFakeAlipay();
  updateConfig(ali.config());
  o.settings("recharge", { enable: true, credit_exchange: 10, recharge_discount: "100:0.95" });
});
afterAll(() => ali?.stop());

const NOTIFY = "/api/v1/payment/notify/alipay";
const notify = async (req: { headers: Record<string, string>; body: string }) => {
  const res = await t.app.request(NOTIFY, { method: "POST", headers: req.headers, body: req.body });
  return { status: res.status, text: await res.text() };
};

/** A recharge order of 1000 credits started with Alipay, its pay URL opened (Alipay now knows the trade). */
async function started(token: string) {
  const no = await o.create(token, { order_type: 3, quantity: 1000 });
  const r = await t.req("POST", "/api/v1/order/pay", { token, body: { order_no: no, payment_type: 2 } });
  if (r.status !== 200) throw new Error(`pay: ${r.status} ${r.text}`);
  await (await fetch(r.body.pay_url)).arrayBuffer();
  return { no, payUrl: r.body.pay_url as string };
}

describe("paying with Alipay", () => {
  test("pay_types offers 2; POST /order/pay answers a signed page-pay URL at the simulator for the server's amount", async () => {
    const m = await o.member();
    const no = await o.create(m.token, { order_type: 3, quantity: 1000 });
    expect((await t.req("GET", `/api/v1/order?order_no=${no}`, { token: m.token })).body.pay_types).toEqual([2]);
    const r = await t.req("POST", "/api/v1/order/pay", { token: m.token, body: { order_no: no, payment_type: 2 } });
    expect(r.status).toBe(200);
    expect(r.body.payment_type).toBe(2);
    expect(r.body.pay_url).toStartWith(ali.url);
    await (await fetch(r.body.pay_url)).arrayBuffer();
    const trade = ali.orders.get(no)!;
    expect(trade).toMatchObject({ amount: 9500, state: "WAIT_BUYER_PAY", method: "alipay.trade.page.pay" });
    expect(trade.notifyUrl).toEndWith("/api/v1/payment/notify/alipay");
    expect(trade.returnUrl).toContain(`/order?order_no=${no}`);
    expect(ali.requests.every((x) => x.signatureValid)).toBe(true);
    expect(o.orderRow(no).payment_type).toBe(2);
  });

  test("a phone gets the wap pay URL", async () => {
    const m = await o.member();
    const no = await o.create(m.token, { order_type: 3, quantity: 100 });
    const r = await t.req("POST", "/api/v1/order/pay", { token: m.token, body: { order_no: no, payment_type: 2 }, headers: { "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148" } });
    await (await fetch(r.body.pay_url)).arrayBuffer();
    expect(ali.orders.get(no)!.method).toBe("alipay.trade.wap.pay");
  });

  test("a verified notification is answered success and credits once, however often it comes", async () => {
    const m = await o.member();
    const { no } = await started(m.token);
    const req = ali.notifyRequest(no);
    const answers = [await notify(req), await notify(req), await notify(ali.notifyRequest(no))];
    expect(answers.map((a) => [a.status, a.text])).toEqual([[200, "success"], [200, "success"], [200, "success"]]);
    expect(o.orderRow(no)).toMatchObject({ status: 2, payment_type: 2, transaction_id: ali.orders.get(no)!.tradeNo });
    expect(o.balance(m.id)).toBe(1000);
    expect(o.ledger(m.id, "recharge")).toHaveLength(1);
  });

  test("refused, nothing changes: forged signature, wrong amount, wrong app_id, unknown order", async () => {
    const m = await o.member();
    const { no } = await started(m.token);
    for (const [name, req] of [
      ["forged", ali.notifyRequest(no, { forge: true })],
      ["amount", ali.notifyRequest(no, { amount: 9499 })],
      ["app_id", ali.notifyRequest(no, { appId: "2021000000000000" })],
      ["unknown", ali.notifyRequest("20240101000000888888888888")],
    ] as const) {
      const r = await notify(req);
      expect([name, r.text === "success"]).toEqual([name, false]);
    }
    expect(o.orderRow(no)).toMatchObject({ status: 1, transaction_id: "" });
    expect(o.balance(m.id)).toBe(0);
  });

  test("a notification that is not a payment (closed trade) is acknowledged and changes nothing", async () => {
    const m = await o.member();
    const { no } = await started(m.token);
    const r = await notify(ali.notifyRequest(no, { tradeState: "TRADE_CLOSED" }));
    expect(r.text).toBe("success");
    expect(o.orderRow(no).status).toBe(1);
  });

  test("a lost notification: GET /order/status asks Alipay and completes the order", async () => {
    const m = await o.member();
    const { no } = await started(m.token);
    ali.pay(no);
    expect((await t.req("GET", `/api/v1/order/status?order_no=${no}`, { token: m.token })).body.status).toBe(2);
    expect(o.balance(m.id)).toBe(1000);
  });

  test("restart recovery through the reconcile job: paid once", async () => {
    const m = await o.member();
    const { no } = await started(m.token);
    ali.pay(no);
    expect((await reconcileOrders()).paid).toBeGreaterThanOrEqual(1);
    expect((await reconcileOrders()).paid).toBe(0);
    expect(await notify(ali.notifyRequest(no))).toEqual({ status: 200, text: "success" });
    expect(o.balance(m.id)).toBe(1000);
    expect(o.events(no).filter((e) => e.event === "paid")).toHaveLength(1);
  });

  test("expiry closes the trade at Alipay, then here; a trade Alipay never saw closes too", async () => {
    const m = await o.member();
    const { no } = await started(m.token);
    const unseen = await o.create(m.token, { order_type: 3, quantity: 100 });
    await t.req("POST", "/api/v1/order/pay", { token: m.token, body: { order_no: unseen, payment_type: 2 } });
    getDb().update(order).set({ expire_at: Date.now() - 1000 }).where(eq(order.order_no, no)).run();
    getDb().update(order).set({ expire_at: Date.now() - 1000 }).where(eq(order.order_no, unseen)).run();
    await expireOrders();
    expect(ali.orders.get(no)!.state).toBe("TRADE_CLOSED");
    expect(o.orderRow(no).status).toBe(3);
    expect(o.orderRow(unseen).status).toBe(3);
  });
});
