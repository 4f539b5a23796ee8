// The order API without a money gateway: creating each kind of order with the server's own
// prices, paying documents with credits (once, never below zero), closing, who may see what,
// the admin list, deletion, system recharge, the payment log, VIP plans and state, and the
// user JSON's is_vip / vip_until.
import { beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { order, vipPlan } from "#db/schema/orders.ts";
import { user } from "#db/schema/users.ts";
import { markPaid } from "#src/features/orders/fulfil.ts";
import { expireOrders } from "#src/features/orders/jobs.ts";
import { addCalendarMonths } from "#src/features/vip/membership.ts";
import { ledgerConsistent, setupOrders } from "./orders-fixtures.ts";

const o = setupOrders();
const { t } = o;

beforeAll(() => {
  o.settings("recharge", { enable: true, credit_exchange: 10, recharge_discount: "100:0.95\n500:0.9" });
  o.settings("vip", { enable: true });
});

describe("POST /api/v1/order: recharge", () => {
  test("1000 credits at 10 per 元 with a 0.95 tier (0.9 from 500): the server's price, credits, expiry", async () => {
    o.settings("recharge", { recharge_discount: "100:0.95" });
    const m = await o.member();
    const before = Date.now();
    const r = await t.req("POST", "/api/v1/order", { token: m.token, body: { order_type: 3, quantity: 1000 } });
    expect(r.status).toBe(200);
    expect(r.body.order_no).toMatch(/^\d{26}$/);
    const row = o.orderRow(r.body.order_no);
    expect(row).toMatchObject({ user_id: m.id, order_type: 3, product_id: 0, product_title: "1000 魔豆", quantity: 1000, amount: 9500, discount: 500, credits: 1000, status: 1, payment_type: 0 });
    expect(row.expire_at - before).toBeGreaterThanOrEqual(30 * 60_000 - 50);
    expect(row.expire_at - Date.now()).toBeLessThanOrEqual(30 * 60_000);
    expect(o.events(r.body.order_no)).toMatchObject([{ event: "created", ok: true }]);
    o.settings("recharge", { recharge_discount: "100:0.95\n500:0.9" });
  });

  test("the client cannot name a price: amount and discount in the body are ignored", async () => {
    const m = await o.member();
    const no = await o.create(m.token, { order_type: 3, quantity: 500, amount: 1, discount: 99999, credits: 1e6, price: 1 });
    expect(o.orderRow(no)).toMatchObject({ amount: 4500, discount: 500, credits: 500 });
  });

  test("order_expire_minutes sets the expiry", async () => {
    o.settings("payment", { order_expire_minutes: 5 });
    const m = await o.member();
    const no = await o.create(m.token, { order_type: 3, quantity: 10 });
    expect(Math.abs(o.orderRow(no).expire_at - (Date.now() + 5 * 60_000))).toBeLessThan(2000);
    o.settings("payment", { order_expire_minutes: 30 });
  });

  test("refused: recharge switched off, not a multiple of the exchange, zero, too many, bad types — 400 in Chinese, nothing written", async () => {
    const m = await o.member();
    const count = () => getDb().select().from(order).where(eq(order.user_id, m.id)).all().length;
    o.settings("recharge", { enable: false });
    const off = await t.req("POST", "/api/v1/order", { token: m.token, body: { order_type: 3, quantity: 100 } });
    expect([off.status, off.body.message]).toEqual([400, "魔豆充值未开启"]);
    o.settings("recharge", { enable: true });
    for (const body of [
      { order_type: 3, quantity: 15 }, { order_type: 3, quantity: 0 }, { order_type: 3, quantity: -10 }, { order_type: 3, quantity: 10_000_010 },
      { order_type: 3, quantity: 10.5 }, { order_type: 3, quantity: "100" }, { order_type: 4, quantity: 10 }, { order_type: "3", quantity: 10 }, {}, [1], null,
    ]) {
      const r = await t.req("POST", "/api/v1/order", { token: m.token, body });
      expect([JSON.stringify(body), r.status]).toEqual([JSON.stringify(body), 400]);
      expect(r.body.message).toMatch(/[\u4e00-\u9fa5]/);
    }
    expect(count()).toBe(0);
  });

  test("anonymous: 401", async () => {
    const r = await t.req("POST", "/api/v1/order", { body: { order_type: 3, quantity: 100 } });
    expect(r.status).toBe(401);
  });
});

describe("POST /api/v1/order: VIP and documents", () => {
  test("VIP: the plan's price × periods, months × periods; off, disabled plan, unknown plan or 13 periods refused", async () => {
    const m = await o.member();
    const plan = getDb().select().from(vipPlan).where(eq(vipPlan.months, 3)).get()!;
    const no = await o.create(m.token, { order_type: 2, product_id: plan.id, quantity: 2 });
    expect(o.orderRow(no)).toMatchObject({ order_type: 2, product_id: plan.id, product_title: plan.title, quantity: 2, amount: plan.price * 2, discount: (plan.original_price - plan.price) * 2, vip_months: 6, credits: 0 });
    o.settings("vip", { enable: false });
    expect((await t.req("POST", "/api/v1/order", { token: m.token, body: { order_type: 2, product_id: plan.id, quantity: 1 } })).body.message).toBe("VIP 会员暂未开放");
    o.settings("vip", { enable: true });
    for (const body of [{ order_type: 2, product_id: 999_999, quantity: 1 }, { order_type: 2, quantity: 1 }, { order_type: 2, product_id: plan.id, quantity: 13 }]) {
      const r = await t.req("POST", "/api/v1/order", { token: m.token, body });
      expect(r.status).toBe(400);
    }
    getDb().update(vipPlan).set({ enable: false }).where(eq(vipPlan.id, plan.id)).run();
    expect((await t.req("POST", "/api/v1/order", { token: m.token, body: { order_type: 2, product_id: plan.id, quantity: 1 } })).body.message).toBe("请选择有效的 VIP 套餐");
    getDb().update(vipPlan).set({ enable: true }).where(eq(vipPlan.id, plan.id)).run();
  });

  test("document: money at ceil(price ÷ exchange) 元, credit_price the price; free, own, invisible, unknown or bought documents refused", async () => {
    const owner = await o.member();
    const m = await o.member(100);
    const d = o.doc(owner.id, { price: 7, title: "七个魔豆的文档" });
    const no = await o.create(m.token, { order_type: 1, product_id: d.id });
    expect(o.orderRow(no)).toMatchObject({ order_type: 1, product_id: d.id, product_title: "七个魔豆的文档", quantity: 1, amount: 70, credit_price: 7 });
    const refuse = async (body: Record<string, unknown>, token: string, status: number, message?: string) => {
      const r = await t.req("POST", "/api/v1/order", { token, body });
      expect([JSON.stringify(body), r.status]).toEqual([JSON.stringify(body), status]);
      if (message) expect(r.body.message).toBe(message);
    };
    await refuse({ order_type: 1, product_id: o.doc(owner.id, { price: 0 }).id }, m.token, 400, "该文档免费，无需购买");
    await refuse({ order_type: 1, product_id: d.id }, owner.token, 400, "这是您自己上传的文档，无需购买");
    await refuse({ order_type: 1, product_id: o.doc(owner.id, { status: 1 }).id }, m.token, 404);
    await refuse({ order_type: 1, product_id: 2_000_000_000 }, m.token, 404);
    await refuse({ order_type: 1 }, m.token, 400, "请指定要购买的文档");
    await refuse({ order_type: 1, product_id: d.id, quantity: 2 }, m.token, 400, "文档每次只能购买 1 份");
    // Bought: paid with credits, then a second order is refused.
    expect((await t.req("POST", "/api/v1/order/pay", { token: m.token, body: { order_no: no, payment_type: 5 } })).status).toBe(200);
    await refuse({ order_type: 1, product_id: d.id }, m.token, 400, "您已购买过该文档，可直接下载");
  });
});

describe("GET /api/v1/order and pay_types", () => {
  test("the Order JSON, with pay_types: no gateway enabled → credits only when the balance covers credit_price", async () => {
    const owner = await o.member();
    const rich = await o.member(50);
    const poor = await o.member(3);
    const d = o.doc(owner.id, { price: 10 });
    const a = await o.create(rich.token, { order_type: 1, product_id: d.id });
    const b = await o.create(poor.token, { order_type: 1, product_id: d.id });
    const r = await t.req("GET", `/api/v1/order?order_no=${a}`, { token: rich.token });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual([
      "amount", "closed_at", "created_at", "credit_price", "credits", "discount", "expire_at", "id", "order_no", "order_type", "paid_at", "pay_types",
      "payment_type", "product_id", "product_title", "quantity", "remark", "status", "transaction_id", "updated_at", "user_id", "username", "vip_months",
    ]);
    expect(r.body).toMatchObject({ order_no: a, user_id: rich.id, username: rich.username, status: 1, pay_types: [5] });
    expect((await t.req("GET", `/api/v1/order?order_no=${b}`, { token: poor.token })).body.pay_types).toEqual([]);
    const rc = await o.create(rich.token, { order_type: 3, quantity: 100 });
    expect((await t.req("GET", `/api/v1/order?order_no=${rc}`, { token: rich.token })).body.pay_types).toEqual([]);
  });

  test("bad or missing order_no → 400; unknown → 404 订单不存在", async () => {
    const m = await o.member();
    expect((await t.req("GET", "/api/v1/order", { token: m.token })).status).toBe(400);
    expect((await t.req("GET", "/api/v1/order?order_no=abc", { token: m.token })).status).toBe(400);
    const r = await t.req("GET", "/api/v1/order?order_no=20240101000000123456789012", { token: m.token });
    expect([r.status, r.body.message]).toEqual([404, "订单不存在"]);
  });
});

describe("another member's order is 404 everywhere; the admin sees any", () => {
  test("get, status, pay, close → 404 for another member; nothing changes", async () => {
    const owner = await o.member();
    const a = await o.member(100);
    const b = await o.member(100);
    const d = o.doc(owner.id, { price: 10 });
    const no = await o.create(a.token, { order_type: 1, product_id: d.id });
    const calls = [
      t.req("GET", `/api/v1/order?order_no=${no}`, { token: b.token }),
      t.req("GET", `/api/v1/order/status?order_no=${no}`, { token: b.token }),
      t.req("POST", "/api/v1/order/pay", { token: b.token, body: { order_no: no, payment_type: 5 } }),
      t.req("PUT", "/api/v1/order/close", { token: b.token, body: { order_no: no } }),
    ];
    for (const r of await Promise.all(calls)) expect([r.status, r.body.message]).toEqual([404, "订单不存在"]);
    expect(o.orderRow(no).status).toBe(1);
    expect([o.balance(a.id), o.balance(b.id)]).toEqual([100, 100]);
    // Anonymous: 401.
    expect((await t.req("GET", `/api/v1/order?order_no=${no}`)).status).toBe(401);
    expect((await t.req("GET", `/api/v1/order/status?order_no=${no}`)).status).toBe(401);
    // The root administrator sees it (and its status), but does not pay or close another's order.
    expect((await t.req("GET", `/api/v1/order?order_no=${no}`, { token: t.rootToken })).body.user_id).toBe(a.id);
    expect((await t.req("GET", `/api/v1/order/status?order_no=${no}`, { token: t.rootToken })).body).toEqual({ status: 1, paid_at: null });
    expect((await t.req("POST", "/api/v1/order/pay", { token: t.rootToken, body: { order_no: no, payment_type: 5 } })).status).toBe(404);
  });
});

describe("paying a document with credits (payment_type 5)", () => {
  test("charged once in one transaction: order paid, ledger rows, uploader earns, the document is the buyer's for good", async () => {
    const owner = await o.member(1);
    const m = await o.member(25);
    const d = o.doc(owner.id, { price: 10, title: "积分购买测试" });
    const no = await o.create(m.token, { order_type: 1, product_id: d.id });
    const r = await t.req("POST", "/api/v1/order/pay", { token: m.token, body: { order_no: no, payment_type: 5 } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ payment_type: 5, status: 2 });
    expect(o.orderRow(no)).toMatchObject({ status: 2, payment_type: 5, amount: 100, credit_price: 10 });
    expect(o.orderRow(no).paid_at).toBeGreaterThan(0);
    expect([o.balance(m.id), o.balance(owner.id)]).toEqual([15, 11]);
    expect(o.ledger(m.id, "buy_document")).toMatchObject([{ amount: -10, balance: 15, ref_id: d.id, reason: "购买文档《积分购买测试》" }]);
    expect(o.ledger(owner.id, "download_income")).toMatchObject([{ amount: 10, ref_id: d.id }]);
    expect(o.events(no).map((e) => e.event)).toEqual(["created", "paid"]);
    // Paying again: refused, nothing charged.
    const again = await t.req("POST", "/api/v1/order/pay", { token: m.token, body: { order_no: no, payment_type: 5 } });
    expect([again.status, again.body.message]).toEqual([400, "订单已支付，无需重复支付"]);
    expect(o.balance(m.id)).toBe(15);
    // Downloading it is free now.
    const dl = await t.req("POST", "/api/v1/document/download", { token: m.token, body: { id: d.id } });
    expect(dl.body.price).toBe(0);
    expect(o.balance(m.id)).toBe(15);
    expect((await t.req("GET", `/api/v1/order/status?order_no=${no}`, { token: m.token })).body).toEqual({ status: 2, paid_at: o.orderRow(no).paid_at });
  });

  test("too few credits: 400 naming the balance; the order stays pending and nothing moves", async () => {
    const owner = await o.member();
    const m = await o.member(9);
    const no = await o.create(m.token, { order_type: 1, product_id: o.doc(owner.id, { price: 10 }).id });
    const r = await t.req("POST", "/api/v1/order/pay", { token: m.token, body: { order_no: no, payment_type: 5 } });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe("魔豆不足：需要 10 魔豆，当前余额 9 魔豆");
    expect(o.orderRow(no).status).toBe(1);
    expect([o.balance(m.id), o.balance(owner.id)]).toEqual([9, 0]);
    expect(o.events(no).map((e) => e.event)).toEqual(["created"]);
  });

  test("credits only for documents; money types without an enabled gateway refused; unknown types refused", async () => {
    const m = await o.member(1000);
    const rc = await o.create(m.token, { order_type: 3, quantity: 100 });
    expect((await t.req("POST", "/api/v1/order/pay", { token: m.token, body: { order_no: rc, payment_type: 5 } })).body.message).toBe("该订单不能用魔豆支付");
    expect((await t.req("POST", "/api/v1/order/pay", { token: m.token, body: { order_no: rc, payment_type: 1 } })).body.message).toBe("微信支付未开启");
    expect((await t.req("POST", "/api/v1/order/pay", { token: m.token, body: { order_no: rc, payment_type: 2 } })).body.message).toBe("支付宝未开启");
    for (const pt of [3, 6, 0, 11, "5"]) {
      expect((await t.req("POST", "/api/v1/order/pay", { token: m.token, body: { order_no: rc, payment_type: pt } })).status).toBe(400);
    }
    expect(o.orderRow(rc)).toMatchObject({ status: 1, payment_type: 0 });
  });

  test("20 concurrent purchases by one member with credits for 7: exactly 7 paid, the balance never below zero, the ledger adds up", async () => {
    const owner = await o.member();
    const m = await o.member(70);
    const docs = Array.from({ length: 20 }, () => o.doc(owner.id, { price: 10 }));
    const nos = await Promise.all(docs.map((d) => o.create(m.token, { order_type: 1, product_id: d.id })));
    const results = await Promise.all(nos.map((no) => t.req("POST", "/api/v1/order/pay", { token: m.token, body: { order_no: no, payment_type: 5 } })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(7);
    for (const r of results.filter((x) => x.status !== 200)) expect([r.status, r.body.message]).toEqual([400, "魔豆不足：需要 10 魔豆，当前余额 0 魔豆"]);
    expect(o.balance(m.id)).toBe(0);
    expect(nos.map((no) => o.orderRow(no).status).filter((s) => s === 2)).toHaveLength(7);
    expect(ledgerConsistent(o.ledger(m.id), 0)).toBe(true);
    expect(o.ledger(owner.id, "download_income").reduce((n, r) => n + r.amount, 0)).toBe(70);
  });

  test("two orders for one document: once one is paid the other cannot be paid with credits", async () => {
    const owner = await o.member();
    const m = await o.member(100);
    const d = o.doc(owner.id, { price: 10 });
    const a = await o.create(m.token, { order_type: 1, product_id: d.id });
    const b = await o.create(m.token, { order_type: 1, product_id: d.id });
    expect((await t.req("POST", "/api/v1/order/pay", { token: m.token, body: { order_no: a, payment_type: 5 } })).status).toBe(200);
    const r = await t.req("POST", "/api/v1/order/pay", { token: m.token, body: { order_no: b, payment_type: 5 } });
    expect([r.status, r.body.message]).toEqual([400, "您已购买过该文档，无需重复购买"]);
    expect(o.balance(m.id)).toBe(90);
  });
});

describe("closing and expiry (no gateway)", () => {
  test("PUT /order/close: own pending → {status: 3} with closed_at; then it cannot be paid; closing twice is fine", async () => {
    const owner = await o.member();
    const m = await o.member(100);
    const no = await o.create(m.token, { order_type: 1, product_id: o.doc(owner.id).id });
    const r = await t.req("PUT", "/api/v1/order/close", { token: m.token, body: { order_no: no } });
    expect([r.status, r.body]).toEqual([200, { status: 3 }]);
    expect(o.orderRow(no).closed_at).toBeGreaterThan(0);
    const pay = await t.req("POST", "/api/v1/order/pay", { token: m.token, body: { order_no: no, payment_type: 5 } });
    expect([pay.status, pay.body.message]).toEqual([400, "订单已关闭，请重新下单"]);
    expect(o.balance(m.id)).toBe(100);
    expect((await t.req("PUT", "/api/v1/order/close", { token: m.token, body: { order_no: no } })).body).toEqual({ status: 3 });
    expect((await t.req("GET", `/api/v1/order?order_no=${no}`, { token: m.token })).body.pay_types).toEqual([]);
  });

  test("a paid order cannot be closed", async () => {
    const owner = await o.member();
    const m = await o.member(100);
    const no = await o.create(m.token, { order_type: 1, product_id: o.doc(owner.id).id });
    await t.req("POST", "/api/v1/order/pay", { token: m.token, body: { order_no: no, payment_type: 5 } });
    const r = await t.req("PUT", "/api/v1/order/close", { token: m.token, body: { order_no: no } });
    expect([r.status, r.body.message]).toEqual([400, "订单已支付，不能关闭"]);
    expect(o.orderRow(no).status).toBe(2);
  });

  test("an expired order cannot be paid; the expiry job closes it (status 3, closed_at, logged)", async () => {
    const owner = await o.member();
    const m = await o.member(100);
    const no = await o.create(m.token, { order_type: 1, product_id: o.doc(owner.id).id });
    getDb().update(order).set({ expire_at: Date.now() - 1000 }).where(eq(order.order_no, no)).run();
    const pay = await t.req("POST", "/api/v1/order/pay", { token: m.token, body: { order_no: no, payment_type: 5 } });
    expect([pay.status, pay.body.message]).toEqual([400, "订单已过期，请重新下单"]);
    const r = await expireOrders();
    expect(r.closed).toBeGreaterThanOrEqual(1);
    expect(o.orderRow(no)).toMatchObject({ status: 3 });
    expect(o.orderRow(no).closed_at).toBeGreaterThan(0);
    expect(o.events(no).at(-1)).toMatchObject({ event: "expire", ok: true });
    expect(o.balance(m.id)).toBe(100);
  });
});

describe("markPaid: the single way an order becomes paid", () => {
  test("recharge grants exactly its credits, once, however often it is called; a wrong amount changes nothing", async () => {
    const m = await o.member(5);
    const no = await o.create(m.token, { order_type: 3, quantity: 1000 });
    const wrong = markPaid(no, { paymentType: 1, transactionId: "tx-1", amount: 9499, paidAt: Date.now() });
    expect(wrong).toMatchObject({ applied: false, reason: "amount_mismatch" });
    expect([o.orderRow(no).status, o.balance(m.id)]).toEqual([1, 5]);
    expect(o.events(no).at(-1)).toMatchObject({ event: "paid", ok: false });
    const results = Array.from({ length: 5 }, () => markPaid(no, { paymentType: 1, transactionId: "tx-1", amount: 9000, paidAt: Date.now() }));
    expect(results.map((r) => r.applied)).toEqual([true, false, false, false, false]);
    expect(o.balance(m.id)).toBe(1005);
    expect(o.ledger(m.id, "recharge")).toMatchObject([{ amount: 1000, balance: 1005 }]);
    expect(o.orderRow(no)).toMatchObject({ status: 2, payment_type: 1, transaction_id: "tx-1" });
  });

  test("a payment confirmed after the order closed still counts (late payment, logged)", async () => {
    const m = await o.member();
    const no = await o.create(m.token, { order_type: 3, quantity: 100 });
    await t.req("PUT", "/api/v1/order/close", { token: m.token, body: { order_no: no } });
    expect(markPaid(no, { paymentType: 2, transactionId: "ali-1", amount: 950, paidAt: Date.now() }).applied).toBe(true);
    expect(o.balance(m.id)).toBe(100);
    expect(o.events(no).map((e) => e.event)).toContain("late_paid");
  });

  test("VIP extends from the later of now and the current expiry, by calendar months", async () => {
    const m = await o.member();
    const plan = getDb().select().from(vipPlan).where(eq(vipPlan.months, 1)).get()!;
    const first = await o.create(m.token, { order_type: 2, product_id: plan.id, quantity: 1 });
    const t0 = Date.now();
    markPaid(first, { paymentType: 1, transactionId: "v1", amount: plan.price, paidAt: t0 });
    const after1 = o.vipUntil(m.id)!;
    const month = (from: number) => addCalendarMonths(from, 1);
    expect(Math.abs(after1 - month(t0))).toBeLessThan(5000);
    // A second month stacks on the current expiry, not on now.
    const second = await o.create(m.token, { order_type: 2, product_id: plan.id, quantity: 1 });
    markPaid(second, { paymentType: 1, transactionId: "v2", amount: plan.price, paidAt: Date.now() });
    expect(o.vipUntil(m.id)).toBe(month(after1));
    // An expired membership restarts from now.
    getDb().update(user).set({ vip_until: Date.now() - 86400_000 * 40 }).where(eq(user.id, m.id)).run();
    const third = await o.create(m.token, { order_type: 2, product_id: plan.id, quantity: 1 });
    const t3 = Date.now();
    markPaid(third, { paymentType: 1, transactionId: "v3", amount: plan.price, paidAt: t3 });
    expect(Math.abs(o.vipUntil(m.id)! - month(t3))).toBeLessThan(5000);
  });
});

describe("VIP state, the user JSON and VIP benefits on downloads", () => {
  test("GET /user/vip and /user/vip/order; is_vip and vip_until in GET /user, the login answer and /user/list", async () => {
    const m = await o.member();
    const none = await t.req("GET", "/api/v1/user/vip", { token: m.token });
    expect(none.body).toEqual({ enable: true, is_vip: false, vip_until: null, plan: null });
    expect((await t.req("GET", "/api/v1/user", { token: m.token })).body.user).toMatchObject({ is_vip: false, vip_until: null });
    const plan = getDb().select().from(vipPlan).where(eq(vipPlan.months, 12)).get()!;
    const no = await o.create(m.token, { order_type: 2, product_id: plan.id, quantity: 1 });
    markPaid(no, { paymentType: 2, transactionId: "ali-vip", amount: plan.price, paidAt: Date.now() });
    const until = o.vipUntil(m.id)!;
    expect((await t.req("GET", "/api/v1/user/vip", { token: m.token })).body).toEqual({ enable: true, is_vip: true, vip_until: until, plan: { id: plan.id, title: plan.title, months: 12 } });
    const vo = await t.req("GET", "/api/v1/user/vip/order", { token: m.token });
    expect(vo.body.total).toBe(1);
    expect(vo.body.order[0]).toMatchObject({ order_no: no, order_type: 2, status: 2 });
    expect((await t.req("GET", "/api/v1/user", { token: m.token })).body.user).toMatchObject({ is_vip: true, vip_until: until });
    expect((await t.req("GET", `/api/v1/user?id=${m.id}`, { token: t.userToken })).body.user.is_vip).toBe(true);
    const login = await t.req("POST", "/api/v1/user/login", { body: { username: m.username, password: "password-123" } });
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ is_vip: true, vip_until: until });
    const list = await t.req("GET", `/api/v1/user/list?wd=${m.username}`, { token: t.rootToken });
    expect(list.body.user[0]).toMatchObject({ id: m.id, is_vip: true, vip_until: until });
  });

  test("VIPs download paid documents free with vip.download_free, else at ceil(price × discount); their own daily allowance", async () => {
    const owner = await o.member();
    const vip = await o.member(100);
    getDb().update(user).set({ vip_until: Date.now() + 86400_000 }).where(eq(user.id, vip.id)).run();
    o.settings("download", { times_every_day: 1, times_every_ip: 0 });
    o.settings("vip", { download_free: true, times_every_day: 3 });
    const dl = (id: number) => t.req("POST", "/api/v1/document/download", { token: vip.token, body: { id } });
    expect((await dl(o.doc(owner.id, { price: 10 }).id)).body.price).toBe(0);
    o.settings("vip", { download_free: false, download_discount: 0.75 });
    expect((await dl(o.doc(owner.id, { price: 10 }).id)).body.price).toBe(8);
    expect(o.balance(vip.id)).toBe(92);
    // 3 a day for this VIP (the ordinary allowance is 1).
    const fourth = await dl(o.doc(owner.id, { price: 0 }).id);
    expect(fourth.status).toBe(200);
    expect((await dl(o.doc(owner.id, { price: 0 }).id)).status).toBe(429);
    // vip.times_every_day 0: the ordinary allowance applies to VIPs too.
    o.settings("vip", { times_every_day: 0 });
    expect((await dl(o.doc(owner.id, { price: 0 }).id)).status).toBe(429);
    o.settings("download", { times_every_day: 20, times_every_ip: 50 });
    o.settings("vip", { download_free: true, times_every_day: 100, download_discount: 0.8 });
  });
});

describe("admin: list, totals, delete, system recharge, payment log", () => {
  test("anonymous 401, members 403 on every admin order route", async () => {
    const calls: [string, string, unknown?][] = [
      ["GET", "/api/v1/order/list"], ["DELETE", "/api/v1/order?id=1"], ["POST", "/api/v1/order/system/recharge", { user_id: 1, amount: 10, remark: "" }],
      ["GET", "/api/v1/payment/log"], ["GET", "/api/v1/wechatpay/cert"], ["GET", "/api/v1/vip?id=1"], ["POST", "/api/v1/vip", { title: "x", months: 1, price: 100 }],
      ["PUT", "/api/v1/vip", { id: 1, price: 1 }], ["DELETE", "/api/v1/vip?id=1"],
    ];
    for (const [method, path, body] of calls) {
      expect([method, path, (await t.req(method, path, { body })).status]).toEqual([method, path, 401]);
      expect([method, path, (await t.req(method, path, { body, token: t.userToken })).status]).toEqual([method, path, 403]);
    }
  });

  test("the admin routes are permissions in the order, payment, wechatpay and vip categories", async () => {
    const r = await t.req("GET", "/api/v1/permission/list?size=1000", { token: t.rootToken });
    const rows = (r.body.permission ?? r.body.list ?? []) as { method: string; path: string; category: string }[];
    const has = (method: string, path: string, category: string) => rows.some((p) => p.method === method && p.path === path && p.category === category);
    expect(has("GET", "/api/v1/order/list", "order")).toBe(true);
    expect(has("DELETE", "/api/v1/order", "order")).toBe(true);
    expect(has("POST", "/api/v1/order/system/recharge", "order")).toBe(true);
    expect(has("GET", "/api/v1/payment/log", "payment")).toBe(true);
    expect(has("GET", "/api/v1/wechatpay/cert", "wechatpay")).toBe(true);
    expect(has("POST", "/api/v1/vip", "vip")).toBe(true);
  });

  test("system recharge: order type 3, payment 6, paid, credits through the ledger, remark, logged", async () => {
    const m = await o.member(5);
    const r = await t.req("POST", "/api/v1/order/system/recharge", { token: t.rootToken, body: { user_id: m.id, amount: 300, remark: "活动奖励" } });
    expect(r.status).toBe(200);
    expect(r.body.balance).toBe(305);
    expect(o.orderRow(r.body.order_no)).toMatchObject({ user_id: m.id, order_type: 3, payment_type: 6, status: 2, credits: 300, amount: 0, remark: "活动奖励" });
    expect(o.ledger(m.id, "system_recharge")).toMatchObject([{ amount: 300, balance: 305, reason: "系统充值：活动奖励" }]);
    expect(o.events(r.body.order_no)).toMatchObject([{ event: "system_recharge", payment_type: 6, ok: true }]);
    for (const body of [{ user_id: m.id, amount: 0 }, { user_id: m.id, amount: -5 }, { user_id: m.id, amount: 1.5 }, { user_id: 0, amount: 5 }, { user_id: m.id, amount: 5, remark: "x".repeat(256) }]) {
      expect((await t.req("POST", "/api/v1/order/system/recharge", { token: t.rootToken, body })).status).toBe(400);
    }
    expect((await t.req("POST", "/api/v1/order/system/recharge", { token: t.rootToken, body: { user_id: 2_000_000, amount: 5 } })).status).toBe(404);
    expect(o.balance(m.id)).toBe(305);
  });

  test("GET /order/list filters by type, status, method, user, number and dates, with totals over the filter", async () => {
    const m = await o.member(100);
    const owner = await o.member();
    const paidDoc = await o.create(m.token, { order_type: 1, product_id: o.doc(owner.id, { price: 10 }).id });
    await t.req("POST", "/api/v1/order/pay", { token: m.token, body: { order_no: paidDoc, payment_type: 5 } });
    const rc = await o.create(m.token, { order_type: 3, quantity: 1000 });
    markPaid(rc, { paymentType: 1, transactionId: "wx-list", amount: 9000, paidAt: Date.now() });
    const pending = await o.create(m.token, { order_type: 3, quantity: 100 });
    const list = (q: string) => t.req("GET", `/api/v1/order/list?user_id=${m.id}&${q}`, { token: t.rootToken });
    const all = await list("");
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(3);
    expect(all.body.order.map((x: { order_no: string }) => x.order_no)).toEqual([pending, rc, paidDoc]);
    expect(all.body.totals).toEqual({ count: 3, paid_amount: 100 + 9000, paid_count: 2, credits: 1000 });
    expect((await list("status=1")).body.order.map((x: { order_no: string }) => x.order_no)).toEqual([pending]);
    expect((await list("order_type=1")).body.total).toBe(1);
    expect((await list("payment_type=1")).body.order[0].order_no).toBe(rc);
    expect((await list(`order_no=${rc}`)).body.total).toBe(1);
    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    expect((await list(`start=${today}&end=${today}`)).body.total).toBe(3);
    expect((await list("start=2000-01-01&end=2000-01-02")).body.total).toBe(0);
    expect((await list("status=9")).status).toBe(400);
    expect((await list("start=2024-13-01")).status).toBe(400);
    // Own orders for the member.
    const mine = await t.req("GET", "/api/v1/user/order?order_type=3", { token: m.token });
    expect(mine.body.total).toBe(2);
    expect((await t.req("GET", "/api/v1/user/order", { token: owner.token })).body.total).toBe(0);
  });

  test("DELETE /order: closed orders only; paid and pending refused (nothing deleted); unknown 404", async () => {
    const m = await o.member(100);
    const closed = await o.create(m.token, { order_type: 3, quantity: 100 });
    await t.req("PUT", "/api/v1/order/close", { token: m.token, body: { order_no: closed } });
    const pending = await o.create(m.token, { order_type: 3, quantity: 100 });
    const paid = await o.create(m.token, { order_type: 3, quantity: 100 });
    markPaid(paid, { paymentType: 1, transactionId: "wx-del", amount: 950, paidAt: Date.now() });
    const id = (no: string) => o.orderRow(no).id;
    const r1 = await t.req("DELETE", "/api/v1/order", { token: t.rootToken, body: { id: [id(closed), id(paid)] } });
    expect([r1.status, r1.body.message]).toEqual([400, "已支付的订单不能删除"]);
    const r2 = await t.req("DELETE", `/api/v1/order?id=${id(pending)}`, { token: t.rootToken });
    expect([r2.status, r2.body.message]).toEqual([400, "只能删除已关闭的订单"]);
    const r3 = await t.req("DELETE", `/api/v1/order?id=${id(closed)}`, { token: t.rootToken });
    expect([r3.status, r3.body.deleted]).toEqual([200, 1]);
    expect(getDb().select().from(order).where(eq(order.order_no, closed)).get()).toBeUndefined();
    expect((await t.req("DELETE", "/api/v1/order?id=2000000000", { token: t.rootToken })).status).toBe(404);
  });

  test("GET /payment/log by order number, newest first, without secrets", async () => {
    const m = await o.member();
    const no = await o.create(m.token, { order_type: 3, quantity: 100 });
    await t.req("PUT", "/api/v1/order/close", { token: m.token, body: { order_no: no } });
    const r = await t.req("GET", `/api/v1/payment/log?order_no=${no}`, { token: t.rootToken });
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(2);
    expect(r.body.log.map((l: { event: string }) => l.event)).toEqual(["close", "created"]);
    expect(Object.keys(r.body.log[0]).sort()).toEqual(["created_at", "detail", "event", "id", "ip", "message", "ok", "order_no", "payment_type"]);
  });

  test("an admin with the order list permission sees any order; a member of that group without it does not", async () => {
    const viewer = await o.member();
    const m = await o.member();
    const no = await o.create(m.token, { order_type: 3, quantity: 100 });
    expect((await t.req("GET", `/api/v1/order?order_no=${no}`, { token: viewer.token })).status).toBe(404);
    const perms = (await t.req("GET", "/api/v1/permission/list?size=1000", { token: t.rootToken })).body;
    const rows = (perms.permission ?? perms.list ?? []) as { id: number; method: string; path: string }[];
    const listPerm = rows.find((p) => p.method === "GET" && p.path === "/api/v1/order/list")!;
    const g = await t.req("POST", "/api/v1/group", { token: t.rootToken, body: { title: `订单管理员${Date.now()}` } });
    expect(g.status).toBe(200);
    expect((await t.req("PUT", "/api/v1/group/permission", { token: t.rootToken, body: { id: g.body.id, permission_id: [listPerm.id] } })).status).toBe(200);
    expect((await t.req("PUT", "/api/v1/user", { token: t.rootToken, body: { id: viewer.id, group_id: [g.body.id] } })).status).toBe(200);
    expect((await t.req("GET", `/api/v1/order?order_no=${no}`, { token: viewer.token })).body.order_no).toBe(no);
    expect((await t.req("GET", `/api/v1/order/list?order_no=${no}`, { token: viewer.token })).body.total).toBe(1);
    expect((await t.req("GET", "/api/v1/payment/log", { token: viewer.token })).status).toBe(403);
  });
});

describe("VIP plans", () => {
  test("three plans out of the box; public list shows enabled ones by sort; admin CRUD with Chinese validation", async () => {
    const pub = await t.req("GET", "/api/v1/vip/list");
    expect(pub.status).toBe(200);
    expect(pub.body.vip.map((p: { months: number }) => p.months)).toEqual([1, 3, 12]);
    const created = await t.req("POST", "/api/v1/vip", { token: t.rootToken, body: { title: "半年 VIP", months: 6, price: 6800, original_price: 9000, benefits: "免广告", sort: 5, enable: false } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ title: "半年 VIP", months: 6, price: 6800, enable: false });
    expect((await t.req("GET", "/api/v1/vip/list")).body.vip.some((p: { id: number }) => p.id === created.body.id)).toBe(false);
    expect((await t.req("GET", "/api/v1/vip/list?enable=false")).body.vip).toEqual([]);
    expect((await t.req("GET", "/api/v1/vip/list?enable=false", { token: t.rootToken })).body.vip.map((p: { id: number }) => p.id)).toEqual([created.body.id]);
    const upd = await t.req("PUT", "/api/v1/vip", { token: t.rootToken, body: { id: created.body.id, enable: true } });
    expect(upd.body.enable).toBe(true);
    expect((await t.req("GET", "/api/v1/vip/list")).body.vip[0].id).toBe(created.body.id);
    for (const body of [{ title: "", months: 1, price: 100 }, { title: "x", months: 0, price: 100 }, { title: "x", months: 1, price: 0 }, { title: "x", months: 1, price: 1.5 }, { title: "x", months: 1, price: 100, original_price: 50 }]) {
      const r = await t.req("POST", "/api/v1/vip", { token: t.rootToken, body });
      expect([JSON.stringify(body), r.status]).toEqual([JSON.stringify(body), 400]);
      expect(r.body.message).toMatch(/[\u4e00-\u9fa5]/);
    }
    expect((await t.req("DELETE", `/api/v1/vip?id=${created.body.id}`, { token: t.rootToken })).status).toBe(200);
  });
});
