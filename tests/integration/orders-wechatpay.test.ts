// Orders paid with WeChat Pay (API v3 Native) against the loopback simulator, with its own keys:
// paying starts a Native order, a verified notification pays it exactly once (however often it
// arrives and however it races with GET /order/status), forged or mismatching notifications change
// nothing, a lost notification is recovered by status polling or the reconcile job, expired orders
// close at the gateway, and what each kind of order grants.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { jobs } from "#db/schema/jobs.ts";
import { document } from "#db/schema/documents.ts";
import { order, paymentLog, vipPlan } from "#db/schema/orders.ts";
import { user } from "#db/schema/users.ts";
import { retrieve } from "#src/features/ai/retrieve.ts";
import { expireOrders, reconcileOrders } from "#src/features/orders/jobs.ts";
import { updateConfig } from "#src/features/settings/service.ts";
import { addCalendarMonths } from "#src/features/vip/membership.ts";
import { enqueue } from "#src/jobs/queue.ts";
import { startWorker } from "#src/jobs/worker.ts";
import "#src/jobs/registry.ts";
import { startFakeWechatPay, type FakeWechatPay } from "../helpers/fakeWechatPay.ts";
import { setupOrders } from "./orders-fixtures.ts";
import { addDoc } from "./search-fixtures.ts";

const o = setupOrders();
const { t } = o;
let wx: FakeWechatPay;

beforeAll(async () => {
  wx = await startFakeWechatPay();
  updateConfig(wx.config());
  o.settings("recharge", { enable: true, credit_exchange: 10, recharge_discount: "100:0.95" });
  o.settings("vip", { enable: true });
});
afterAll(() => wx?.stop());

const NOTIFY = "/api/v1/payment/notify/wechatpay";
const notify = (req: { headers: Record<string, string>; body: string }) => t.app.request(NOTIFY, { method: "POST", headers: req.headers, body: req.body });

/** A recharge order for `credits` paid with WeChat (the Native order started at the simulator). */
async function started(token: string, body: Record<string, unknown> = { order_type: 3, quantity: 1000 }) {
  const no = await o.create(token, body);
  const r = await t.req("POST", "/api/v1/order/pay", { token, body: { order_no: no, payment_type: 1 } });
  if (r.status !== 200) throw new Error(`pay: ${r.status} ${r.text}`);
  return { no, codeUrl: r.body.code_url as string };
}

const gatewayAsks = (no: string) => wx.requests.filter((r) => r.method === "GET" && r.path.includes(`/out-trade-no/${no}`)).length;

describe("paying with WeChat Pay", () => {
  test("pay_types offers 1; POST /order/pay starts a signed Native order for the server's amount and answers its code_url", async () => {
    const m = await o.member();
    const no = await o.create(m.token, { order_type: 3, quantity: 1000 });
    expect((await t.req("GET", `/api/v1/order?order_no=${no}`, { token: m.token })).body.pay_types).toEqual([1]);
    const r = await t.req("POST", "/api/v1/order/pay", { token: m.token, body: { order_no: no, payment_type: 1 } });
    expect(r.status).toBe(200);
    const sim = wx.orders.get(no)!;
    expect(r.body).toEqual({ payment_type: 1, code_url: sim.codeUrl });
    expect(sim.amount).toBe(9500);
    expect(sim.notifyUrl).toEndWith("/api/v1/payment/notify/wechatpay");
    expect(sim.state).toBe("NOTPAY");
    expect(wx.requests.every((x) => x.signatureValid)).toBe(true);
    expect(o.orderRow(no)).toMatchObject({ status: 1, payment_type: 1 });
    expect(o.events(no).map((e) => [e.event, e.ok])).toEqual([["created", true], ["pay_start", true]]);
  });

  test("a verified notification credits exactly once however often it arrives", async () => {
    const m = await o.member(5);
    const { no } = await started(m.token);
    const req = wx.notifyRequest(no);
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await notify(req));
    expect(answers.map((a) => a.status).every((s) => s >= 200 && s < 300)).toBe(true);
    // A fresh notification of the same payment (new nonce and signature) changes nothing either.
    expect((await notify(wx.notifyRequest(no))).status).toBeLessThan(300);
    expect(o.balance(m.id)).toBe(1005);
    expect(o.ledger(m.id, "recharge")).toMatchObject([{ amount: 1000, balance: 1005 }]);
    const row = o.orderRow(no);
    expect(row).toMatchObject({ status: 2, payment_type: 1, transaction_id: wx.orders.get(no)!.transactionId });
    expect(row.paid_at).toBeGreaterThan(0);
    expect(o.events(no).filter((e) => e.event === "paid")).toHaveLength(1);
    expect(o.events(no).filter((e) => e.event === "notify" && e.ok)).toHaveLength(4);
    expect((await t.req("GET", `/api/v1/order/status?order_no=${no}`, { token: m.token })).body).toEqual({ status: 2, paid_at: row.paid_at });
  });

  test("notifications racing GET /order/status polls: credited once", async () => {
    const m = await o.member();
    const { no } = await started(m.token);
    const req = wx.notifyRequest(no); // the simulator now reports SUCCESS to queries as well
    const polls = Array.from({ length: 5 }, () => t.req("GET", `/api/v1/order/status?order_no=${no}`, { token: m.token }));
    const pushes = Array.from({ length: 3 }, () => notify(req));
    const [statuses, notified] = await Promise.all([Promise.all(polls), Promise.all(pushes)]);
    expect(notified.every((r) => r.status < 300)).toBe(true);
    expect(statuses.every((r) => r.status === 200)).toBe(true);
    expect((await t.req("GET", `/api/v1/order/status?order_no=${no}`, { token: m.token })).body.status).toBe(2);
    expect(o.balance(m.id)).toBe(1000);
    expect(o.ledger(m.id, "recharge")).toHaveLength(1);
    expect(o.events(no).filter((e) => e.event === "paid")).toHaveLength(1);
  });

  test("refused and changing nothing: a forged signature, a wrong amount, a wrong mchid or appid, an unknown order, a stale timestamp, a bad ciphertext", async () => {
    const m = await o.member();
    const { no } = await started(m.token);
    const cases: [string, { headers: Record<string, string>; body: string }][] = [
      ["forged", wx.notifyRequest(no, { forge: true })],
      ["amount", wx.notifyRequest(no, { amount: 1 })],
      ["mchid", wx.notifyRequest(no, { mchid: "1234567890" })],
      ["appid", wx.notifyRequest(no, { appid: "wx0000000000000000" })],
      ["stale", wx.notifyRequest(no, { timestamp: Math.floor(Date.now() / 1000) - 3600 })],
      ["ciphertext", wx.notifyRequest(no, { badCiphertext: true })],
      ["unknown", wx.notifyRequest("20240101000000999999999999")],
      ["garbage", { headers: { "content-type": "application/json" }, body: "{not json" }],
    ];
    for (const [name, req] of cases) {
      const r = await notify(req);
      expect([name, r.status >= 400]).toEqual([name, true]);
    }
    expect(o.orderRow(no)).toMatchObject({ status: 1, transaction_id: "" });
    expect(o.balance(m.id)).toBe(0);
    const refused = getDb().select().from(paymentLog).all().filter((e) => e.event === "notify" && !e.ok);
    expect(refused.length).toBeGreaterThanOrEqual(cases.length);
    // Nothing secret reaches the log.
    const all = JSON.stringify(refused);
    expect(all).not.toContain(wx.apiV3Key);
    expect(all).not.toContain("BEGIN");
  });

  test("the notify endpoint needs no session and is open on a closed or login-only site", async () => {
    const m = await o.member();
    const { no } = await started(m.token);
    o.settings("security", { is_close: true, login_required: true });
    const r = await notify(wx.notifyRequest(no));
    o.settings("security", { is_close: false, login_required: false });
    expect(r.status).toBeLessThan(300);
    expect(o.orderRow(no).status).toBe(2);
  });

  test("GET /order/status asks the gateway at most every 3 s per order; a lost notification still completes the order", async () => {
    const m = await o.member();
    const { no } = await started(m.token);
    for (let i = 0; i < 4; i++) expect((await t.req("GET", `/api/v1/order/status?order_no=${no}`, { token: m.token })).body).toEqual({ status: 1, paid_at: null });
    expect(gatewayAsks(no)).toBe(1);
    wx.pay(no); // the buyer paid; the notification is lost
    expect((await t.req("GET", `/api/v1/order/status?order_no=${no}`, { token: m.token })).body.status).toBe(1);
    getDb().update(order).set({ queried_at: Date.now() - 3001 }).where(eq(order.order_no, no)).run();
    const r = await t.req("GET", `/api/v1/order/status?order_no=${no}`, { token: m.token });
    expect(r.body.status).toBe(2);
    expect(gatewayAsks(no)).toBe(2);
    expect(o.balance(m.id)).toBe(1000);
    expect(o.events(no).some((e) => e.event === "query")).toBe(true);
  });

  test("a gateway that cannot be reached: 502 in Chinese, logged, the order stays pending and unstarted", async () => {
    const m = await o.member();
    const no = await o.create(m.token, { order_type: 3, quantity: 100 });
    updateConfig([{ category: "payment", name: "wechatpay_base_url", value: "http://127.0.0.1:9" }]);
    const r = await t.req("POST", "/api/v1/order/pay", { token: m.token, body: { order_no: no, payment_type: 1 } });
    updateConfig([{ category: "payment", name: "wechatpay_base_url", value: wx.url }]);
    expect(r.status).toBe(502);
    expect(r.body.message).toStartWith("发起支付失败");
    expect(o.orderRow(no)).toMatchObject({ status: 1, payment_type: 0 });
    expect(o.events(no).at(-1)).toMatchObject({ event: "pay_start", ok: false, payment_type: 1 });
  });
});

describe("jobs: expiry and recovery", () => {
  test("orders.expire closes an expired order at the gateway (simulator CLOSED), then here", async () => {
    const m = await o.member();
    const { no } = await started(m.token);
    getDb().update(order).set({ expire_at: Date.now() - 1000 }).where(eq(order.order_no, no)).run();
    await expireOrders();
    expect(wx.orders.get(no)!.state).toBe("CLOSED");
    expect(o.orderRow(no).status).toBe(3);
    expect(o.events(no).map((e) => e.event)).toEqual(["created", "pay_start", "query", "close", "expire"]);
    // Paying it now is refused.
    expect((await t.req("POST", "/api/v1/order/pay", { token: m.token, body: { order_no: no, payment_type: 1 } })).status).toBe(400);
  });

  test("orders.expire: a buyer who paid at the last second is credited, not closed", async () => {
    const m = await o.member();
    const { no } = await started(m.token);
    wx.pay(no);
    getDb().update(order).set({ expire_at: Date.now() - 1000 }).where(eq(order.order_no, no)).run();
    const r = await expireOrders();
    expect(r.paid).toBeGreaterThanOrEqual(1);
    expect(o.orderRow(no).status).toBe(2);
    expect(wx.orders.get(no)!.state).toBe("SUCCESS");
    expect(o.balance(m.id)).toBe(1000);
  });

  test("restart recovery: paid at the gateway, never notified — the reconcile job (run by a worker) pays it once", async () => {
    const m = await o.member();
    const { no } = await started(m.token);
    wx.pay(no);
    getDb().delete(jobs).run();
    enqueue("orders.reconcile");
    const worker = startWorker({ concurrency: 1, pollMs: 20 });
    const deadline = Date.now() + 10_000;
    while (o.orderRow(no).status !== 2 && Date.now() < deadline) await Bun.sleep(20);
    await worker.stop();
    expect(o.orderRow(no).status).toBe(2);
    expect(o.balance(m.id)).toBe(1000);
    // Running it again (a second restart) and a late notification change nothing.
    expect((await reconcileOrders()).paid).toBe(0);
    expect((await notify(wx.notifyRequest(no))).status).toBeLessThan(300);
    expect(o.balance(m.id)).toBe(1000);
    expect(o.events(no).filter((e) => e.event === "paid")).toHaveLength(1);
  });

  test("a closed order paid anyway (money taken) counts when the notification comes", async () => {
    const m = await o.member();
    const { no } = await started(m.token);
    getDb().update(order).set({ status: 3, closed_at: Date.now() }).where(eq(order.order_no, no)).run();
    expect((await notify(wx.notifyRequest(no))).status).toBeLessThan(300);
    expect(o.orderRow(no).status).toBe(2);
    expect(o.balance(m.id)).toBe(1000);
    expect(o.events(no).some((e) => e.event === "late_paid")).toBe(true);
  });

  test("PUT /order/close closes at the gateway first", async () => {
    const m = await o.member();
    const { no } = await started(m.token);
    expect((await t.req("PUT", "/api/v1/order/close", { token: m.token, body: { order_no: no } })).body).toEqual({ status: 3 });
    expect(wx.orders.get(no)!.state).toBe("CLOSED");
  });
});

describe("what each order grants", () => {
  test("VIP bought with WeChat Pay: vip_until from the later of now and the current expiry; is_vip in GET /user", async () => {
    const m = await o.member();
    const plan = getDb().select().from(vipPlan).where(eq(vipPlan.months, 3)).get()!;
    const later = Date.now() + 10 * 86400_000;
    getDb().update(user).set({ vip_until: later }).where(eq(user.id, m.id)).run();
    const { no } = await started(m.token, { order_type: 2, product_id: plan.id, quantity: 1 });
    expect(wx.orders.get(no)!.amount).toBe(plan.price);
    await notify(wx.notifyRequest(no));
    expect(o.vipUntil(m.id)).toBe(addCalendarMonths(later, 3));
    expect((await t.req("GET", "/api/v1/user", { token: m.token })).body.user.is_vip).toBe(true);
  });

  test("a document bought with money: the uploader earns its price, it is free after and unlocks the full preview", async () => {
    const owner = await o.member();
    const m = await o.member();
    const d = addDoc({ title: "全文解锁测试文档", pages: ["第一页 概述", "第二页 细节", "第三页 独有术语甲乙丙丁"], preview: 1, userId: owner.id });
    getDb().update(document).set({ price: 30 }).where(eq(document.id, d.id)).run();
    expect((await retrieve("独有术语甲乙丙丁", { userId: m.id, limit: 5 })).some((p) => p.document_id === d.id)).toBe(false);
    const { no } = await started(m.token, { order_type: 1, product_id: d.id });
    expect(wx.orders.get(no)!.amount).toBe(300);
    await notify(wx.notifyRequest(no));
    expect(o.orderRow(no).status).toBe(2);
    expect(o.ledger(owner.id, "download_income")).toMatchObject([{ amount: 30, ref_id: d.id }]);
    expect((await retrieve("独有术语甲乙丙丁", { userId: m.id, limit: 5 })).some((p) => p.document_id === d.id && p.page === 3)).toBe(true);
    const dl = await t.req("POST", "/api/v1/document/download", { token: m.token, body: { id: d.id } });
    expect(dl.body.price).toBe(0);
    expect((await t.req("POST", "/api/v1/order", { token: m.token, body: { order_type: 1, product_id: d.id } })).status).toBe(400);
  });

  test("a document order shown as a WeChat QR and then paid with credits: the WeChat order is closed, no second payment possible", async () => {
    const owner = await o.member();
    const m = await o.member(50);
    const d = o.doc(owner.id, { price: 20 });
    const { no } = await started(m.token, { order_type: 1, product_id: d.id });
    expect((await t.req("GET", `/api/v1/order?order_no=${no}`, { token: m.token })).body.pay_types).toEqual([1, 5]);
    const r = await t.req("POST", "/api/v1/order/pay", { token: m.token, body: { order_no: no, payment_type: 5 } });
    expect(r.body).toEqual({ payment_type: 5, status: 2 });
    expect(wx.orders.get(no)!.state).toBe("CLOSED");
    expect(o.orderRow(no)).toMatchObject({ status: 2, payment_type: 5 });
    expect(o.balance(m.id)).toBe(30);
  });

  test("GET /wechatpay/cert (admin): the public key in use", async () => {
    const r = await t.req("GET", "/api/v1/wechatpay/cert", { token: t.rootToken });
    expect(r.status).toBe(200);
    expect(r.body.mode).toBe("public_key");
    expect(r.body.certificates[0].serial_no).toBe(wx.publicKeyId);
  });
});
