// The commerce back office (issue 10): /admin/order, /admin/user/vip, /admin/config/pay (with the
// old payment/recharge addresses redirecting there), /admin/config/vip and the dashboard's revenue
// panel. Pages render for the root administrator, stay closed to members without the permission,
// and never carry a payment secret into the HTML.
import { beforeAll, describe, expect, test } from "bun:test";
import { getDb } from "#db/client.ts";
import { order } from "#db/schema/orders.ts";
import { revenue } from "#src/features/admin/dashboard/revenue.ts";
import { setting } from "#src/features/settings/service.ts";
import { resetAll } from "#src/lib/rateLimit.ts";
import { setupTestApp } from "../helpers/testApp.ts";

const t = setupTestApp();
const html = { accept: "text/html" };
const page = (path: string, token?: string) => t.req("GET", path, { token, headers: html });
const PAGES = ["/admin/order", "/admin/user/vip", "/admin/config/pay", "/admin/config/vip"];

const DAY = 86_400_000;
let seq = 0;
/** An order row written directly, as the order code would have left it. */
function insertOrder(o: Partial<typeof order.$inferInsert> & { user_id: number }) {
  seq++;
  const now = Date.now();
  return getDb().insert(order).values({
    order_no: `2026010112000000${String(seq).padStart(6, "0")}`, order_type: 3, product_title: "1000 魔豆", quantity: 1000, amount: 9500, discount: 500,
    credits: 1000, payment_type: 1, status: 2, paid_at: now, expire_at: now + 30 * 60_000, created_at: now, updated_at: now, ...o,
  }).returning().get();
}

/** The labels of the admin side menu in a page's HTML. */
const menuLabels = (text: string) => {
  const menu = text.slice(text.indexOf('class="adm-menu"'), text.indexOf("</nav>"));
  return [...menu.matchAll(/<a href="([^"]+)"[^>]*>(?:<svg[\s\S]*?<\/svg>)?(?:<span class="adm-label">)?([^<]+)/g)].map((m) => [m[1], m[2]]);
};

describe("pages render for the root administrator", () => {
  let paid: typeof order.$inferSelect;
  beforeAll(() => {
    paid = insertOrder({ user_id: t.userId, remark: "测试订单" });
    insertOrder({ user_id: t.userId, status: 1, paid_at: null, payment_type: 0, amount: 1500, credits: 0, order_type: 2, product_title: "月度 VIP", vip_months: 1 });
  });

  test("each page answers 200 inside the admin layout", async () => {
    for (const p of PAGES) {
      const r = await page(p, t.rootToken);
      expect([p, r.status]).toEqual([p, 200]);
      expect(r.res.headers.get("cache-control")).toContain("no-store");
      expect(r.text).toContain("adm-side");
    }
  });

  test("/admin/order lists the orders with money in 元 and the totals", async () => {
    const r = await page("/admin/order", t.rootToken);
    expect(r.text).toContain('data-island="AdminOrderList"');
    expect(r.text).toContain(paid.order_no);
    expect(r.text).toContain("¥95.00");
    expect(r.text).toContain("¥15.00");
    expect(r.text).toContain("系统充值");
    // Totals: two orders, one paid, 95.00 received.
    expect(r.text).toMatch(/共 <b>2<\/b> 笔/);
    expect(r.text).toMatch(/已支付 <b>1<\/b> 笔/);
    expect(r.text).toContain("实收金额 <b>¥95.00</b>");
    expect(r.text).toContain('aria-current="page"><svg');
  });

  test("/admin/user/vip shows the seeded plans with prices in 元", async () => {
    const r = await page("/admin/user/vip", t.rootToken);
    expect(r.text).toContain('data-island="AdminVipPlans"');
    for (const s of ["月度 VIP", "季度 VIP", "年度 VIP", "¥15.00", "¥40.00", "¥128.00", "¥240.00"]) expect(r.text).toContain(s);
    expect(r.text).toContain('href="/admin/config/vip"');
  });

  test("/admin/config/pay holds both groups' forms and the certificate panel", async () => {
    const r = await page("/admin/config/pay", t.rootToken);
    expect(r.text.match(/data-island="AdminConfigForm"/g)?.length).toBe(2);
    expect(r.text).toContain('data-island="AdminWechatpayCert"');
    for (const id of ["f-enable_wechatpay", "f-wechatpay_private_key", "f-alipay_gateway", "f-credit_exchange", "f-recharge_discount"]) expect(r.text).toContain(`id="${id}"`);
    expect(r.text).toContain("/api/v1/payment/notify/wechatpay");
    expect(r.text).toContain("获取证书");
  });

  test("/admin/config/vip is the generic form with the VIP benefit settings", async () => {
    const r = await page("/admin/config/vip", t.rootToken);
    for (const id of ["f-enable", "f-icon", "f-download_free", "f-download_discount", "f-times_every_day", "f-ai_questions_per_day", "f-ai_tokens_per_month"]) expect(r.text).toContain(`id="${id}"`);
    expect(r.text).toContain("VIP 套餐（名称、时长、价格、权益说明）在 <a href=\"/admin/user/vip\">");
  });

  test("the menu has 订单管理 with its icon, VIP 管理 under 用户管理, and 支付设置 once in 系统设置", async () => {
    const r = await page("/admin/dashboard", t.rootToken);
    const items = menuLabels(r.text);
    expect(items).toContainEqual(["/admin/order", "订单管理"]);
    expect(items).toContainEqual(["/admin/user/vip", "VIP 管理"]);
    expect(items.filter(([href]) => href === "/admin/config/pay")).toEqual([["/admin/config/pay", "支付设置"]]);
    expect(items.filter(([, label]) => label === "支付设置")).toHaveLength(1);
    expect(r.text).not.toContain('href="/admin/config/payment"');
    expect(r.text).not.toContain('href="/admin/config/recharge"');
    const entry = r.text.slice(r.text.indexOf('href="/admin/order"'), r.text.indexOf('<span class="adm-label">订单管理'));
    expect(entry).toContain('<svg class="adm-menu-icon"');
  });
});

describe("old addresses and access", () => {
  test("/admin/config/payment and /admin/config/recharge redirect to /admin/config/pay", async () => {
    for (const p of ["/admin/config/payment", "/admin/config/recharge"]) {
      const r = await page(p, t.rootToken);
      expect([p, r.status, r.res.headers.get("location")]).toEqual([p, 302, "/admin/config/pay"]);
    }
  });

  test("anonymous visitors go to login, ordinary users home", async () => {
    for (const p of PAGES) {
      const anon = await page(p);
      expect([p, anon.status, anon.res.headers.get("location")]).toEqual([p, 302, `/login?redirect=${encodeURIComponent(p)}`]);
      const user = await page(p, t.userToken);
      expect([p, user.status, user.res.headers.get("location")]).toEqual([p, 302, "/"]);
    }
  });

  describe("a member of a group with other permissions only", () => {
    let token = "";
    let groupId = 0;
    const grant = async (keys: string[]) => {
      const perms = await t.req("GET", "/api/v1/permission/list?size=1000", { token: t.rootToken });
      const ids = perms.body.permission.filter((p: { method: string; path: string }) => keys.includes(`${p.method} ${p.path}`)).map((p: { id: number }) => p.id);
      expect(ids).toHaveLength(keys.length);
      expect((await t.req("PUT", "/api/v1/group/permission", { token: t.rootToken, body: { id: groupId, permission_id: ids } })).status).toBe(200);
    };
    beforeAll(async () => {
      const g = await t.req("POST", "/api/v1/group", { token: t.rootToken, body: { title: "友链编辑" } });
      groupId = g.body.id;
      await grant(["GET /api/v1/friendlink"]);
      const u = await t.req("POST", "/api/v1/user", { token: t.rootToken, body: { username: "link_editor", password: "editor-pass-1", group_id: [groupId] } });
      expect(u.status).toBe(200);
      resetAll();
      const login = await t.req("POST", "/api/v1/user/login", { body: { username: "link_editor", password: "editor-pass-1" } });
      token = login.body.token;
    });

    test("is sent back to /admin from each commerce page, sees no commerce menu entry or revenue", async () => {
      for (const p of [...PAGES, "/admin/config/payment"]) {
        const r = await page(p, token);
        expect([p, r.status, r.res.headers.get("location")]).toEqual([p, 302, "/admin"]);
      }
      const dash = await page("/admin", token);
      expect(dash.status).toBe(200);
      expect(dash.text).not.toContain("订单管理");
      expect(dash.text).not.toContain("VIP 管理");
      expect(dash.text).not.toContain("收入统计");
    });

    test("granted the order list, opens /admin/order and sees the revenue panel, still not the VIP plans", async () => {
      await grant(["GET /api/v1/friendlink", "GET /api/v1/order/list"]);
      const r = await page("/admin/order", token);
      expect(r.status).toBe(200);
      expect(r.text).toContain('data-island="AdminOrderList"');
      expect(menuLabels(r.text)).toContainEqual(["/admin/order", "订单管理"]);
      expect((await page("/admin/user/vip", token)).res.headers.get("location")).toBe("/admin");
      expect((await page("/admin", token)).text).toContain("收入统计");
    });
  });
});

describe("PUT /order/system/close: the administrator closes anyone's pending order", () => {
  test("pending → closed and logged as the administrator's act; paid refused; unknown 404; members 403", async () => {
    const pending = insertOrder({ user_id: t.userId, status: 1, paid_at: null, payment_type: 0 });
    const close = (orderNo: string, token = t.rootToken) => t.req("PUT", "/api/v1/order/system/close", { token, body: { order_no: orderNo } });
    expect((await close(pending.order_no, t.userToken)).status).toBe(403);
    const r = await close(pending.order_no);
    expect([r.status, r.body]).toEqual([200, { status: 3 }]);
    const list = await t.req("GET", `/api/v1/order/list?order_no=${pending.order_no}`, { token: t.rootToken });
    expect(list.body.order[0]).toMatchObject({ status: 3 });
    expect(list.body.order[0].closed_at).toBeGreaterThan(0);
    const log = await t.req("GET", `/api/v1/payment/log?order_no=${pending.order_no}`, { token: t.rootToken });
    expect(log.body.log.map((l: { event: string; message: string }) => [l.event, l.message])).toEqual([["close", "管理员 root 关闭订单"]]);
    // Closing twice answers the same; a paid order stays paid.
    expect((await close(pending.order_no)).body).toEqual({ status: 3 });
    const paid = insertOrder({ user_id: t.userId });
    const refused = await close(paid.order_no);
    expect([refused.status, refused.body.message]).toEqual([400, "订单已支付，不能关闭"]);
    const missing = await close("20260101120000999999");
    expect([missing.status, missing.body.message]).toEqual([404, "订单不存在"]);
    expect((await close("abc")).status).toBe(400);
  });
});

describe("payment secrets never reach the browser", () => {
  const SECRETS = {
    wechatpay_private_key: "-----BEGIN PRIVATE KEY-----\nMIIEsecretWECHATkeyMaterial0123456789\n-----END PRIVATE KEY-----",
    wechatpay_api_v3_key: "abcdefghijklmnopqrstuvwxyz012345",
    alipay_private_key: "MIIEalipaySECRETprivateKEYmaterial987",
  };
  beforeAll(async () => {
    const config = Object.entries(SECRETS).map(([name, value]) => ({ category: "payment", name, value }));
    const r = await t.req("PUT", "/api/v1/config", { token: t.rootToken, body: { config } });
    expect(r.status).toBe(200);
  });

  test("the page shows secrets as 已设置 and contains none of them", async () => {
    const r = await page("/admin/config/pay", t.rootToken);
    expect(r.status).toBe(200);
    for (const v of Object.values(SECRETS)) {
      expect(r.text).not.toContain(v);
      for (const line of v.split("\n").filter((l) => !l.startsWith("-----"))) expect(r.text).not.toContain(line);
    }
    // The private key is a textarea: its placeholder says it is set, its content is empty.
    const ta = r.text.match(/<textarea[^>]*id="f-wechatpay_private_key"[^>]*>([^<]*)<\/textarea>/);
    expect(ta).not.toBeNull();
    expect(ta![0]).toContain('placeholder="已设置，留空则不修改"');
    expect(ta![1]).toBe("");
    expect(r.text).toMatch(/id="f-wechatpay_api_v3_key"[^>]*placeholder="已设置，留空则不修改"|placeholder="已设置，留空则不修改"[^>]*id="f-wechatpay_api_v3_key"/);
  });

  test("saving the form with the secrets left empty keeps the stored ones", async () => {
    const list = await t.req("GET", "/api/v1/config/list?category=payment", { token: t.rootToken });
    const item = list.body.config.find((c: { name: string }) => c.name === "wechatpay_private_key");
    expect(item).toMatchObject({ value: "", secret: true, has_value: true, input_type: "textarea" });
    // What the form sends: every item of the group as shown, secrets blank.
    const config = list.body.config.map((c: { name: string; value: unknown }) => ({ category: "payment", name: c.name, value: c.name === "wechatpay_mch_id" ? "1900000001" : c.value }));
    expect((await t.req("PUT", "/api/v1/config", { token: t.rootToken, body: { config } })).status).toBe(200);
    for (const [name, v] of Object.entries(SECRETS)) expect(setting("payment", name)).toBe(v);
    expect(setting("payment", "wechatpay_mch_id")).toBe("1900000001");
  });
});

describe("revenue per day", () => {
  test("paid orders' money per Asia/Shanghai day over 30 days; credits and system recharges bring no money", () => {
    const now = Date.UTC(2027, 2, 10, 4); // 2027-03-10 12:00 in Shanghai
    const earlyToday = Date.UTC(2027, 2, 9, 16, 30); // 03-10 00:30 in Shanghai, still 03-09 in UTC
    const lateYesterday = Date.UTC(2027, 2, 9, 15, 59);
    const old = now - 30 * DAY;
    const base = { user_id: t.userId, created_at: earlyToday, expire_at: now + DAY };
    insertOrder({ ...base, amount: 9500, paid_at: earlyToday });
    insertOrder({ ...base, amount: 1, paid_at: earlyToday, payment_type: 2 });
    insertOrder({ ...base, amount: 2000, paid_at: lateYesterday, created_at: lateYesterday, payment_type: 5 });
    insertOrder({ ...base, amount: 0, paid_at: lateYesterday, created_at: lateYesterday, payment_type: 6 });
    insertOrder({ ...base, amount: 700, paid_at: lateYesterday, created_at: lateYesterday });
    insertOrder({ ...base, amount: 12_800, paid_at: old, created_at: old });
    insertOrder({ ...base, amount: 4000, status: 1, paid_at: null });
    insertOrder({ ...base, amount: 4000, status: 3, paid_at: null, closed_at: earlyToday });
    const r = revenue(30, now);
    expect(r.days).toHaveLength(30);
    expect(r.days.at(-1)).toEqual({ day: "03-10", amount: 9501, paid: 2, created: 4 });
    expect(r.days.at(-2)).toEqual({ day: "03-09", amount: 700, paid: 3, created: 3 });
    expect(r.days[0]!.day).toBe("02-09");
    expect(r.amount).toBe(10_201);
    expect(r.paid).toBe(5);
    expect(r.pending).toBe(1);
  });

  test("the dashboard shows the panel to the root administrator", async () => {
    const r = await page("/admin/dashboard", t.rootToken);
    expect(r.text).toContain("收入统计（近 30 天）");
    expect(r.text).toContain("收入（元）");
    expect(r.text).toContain("成交订单");
  });
});
