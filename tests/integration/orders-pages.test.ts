// The member pages of commerce through the app: /order (owner only; another member's order is the
// 404 page, visitors go to /login), the WeChat QR it shows (drawn by the server from the code_url
// our gateway got from the WeChat Pay simulator), /joinvip with the seeded plans, /me/order (filters,
// pages, links to pending orders), /me/vip, the reader's 购买 beside 下载, the VIP mark, and no ads
// for VIP members on the pages that carry them.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { getSqlite } from "#db/client.ts";
import { setDocumentsRoot } from "#src/features/documents/paths.ts";
import { clearPageCache } from "#src/http/pageCache.ts";
import { bumpContentVersion } from "#src/lib/contentVersion.ts";
import { startFakeWechatPay, type FakeWechatPay } from "../helpers/fakeWechatPay.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { makeDoc, setConfig, useDocumentsRoot } from "./reader-fixtures.ts";

const t = setupTestApp();
let wx: FakeWechatPay;
let docsRoot = "";
let other = { token: "", id: 0 };
let vip = { token: "", id: 0 };
let paidDoc = { id: 0, uuid: "" };
let rechargeNo = "";

const html = (token?: string) => ({ headers: { accept: "text/html", ...(token ? { cookie: `wk_token=${token}` } : {}) } });
const page = (path: string, token?: string) => t.req("GET", path, html(token));
const createOrder = async (token: string, body: Record<string, number>) => {
  const r = await t.req("POST", "/api/v1/order", { token, body });
  expect(r.status).toBe(200);
  return r.body.order_no as string;
};
/** The JSON props of an island in the page. */
const propsOf = (text: string, island: string) => {
  const m = new RegExp(`data-island="${island}" data-props="([^"]*)"`).exec(text);
  return m ? JSON.parse(m[1]!.replace(/&quot;/g, '"').replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&#x27;/g, "'")) : null;
};

beforeAll(async () => {
  wx = await startFakeWechatPay();
  docsRoot = useDocumentsRoot();
  const o = await t.createUser("另一位会员");
  other = { token: o.token, id: o.user.id };
  const v = await t.createUser("黄金会员");
  vip = { token: v.token, id: v.user.id };
  getSqlite().query("UPDATE user SET vip_until = ? WHERE id = ?").run(Date.now() + 30 * 86_400_000, vip.id);
  getSqlite().query("UPDATE user SET credit_count = 500 WHERE id = ?").run(t.userId);
  const d = makeDoc({ userId: t.rootId, title: "考研英语真题解析" });
  getSqlite().query("UPDATE document SET price = 30 WHERE id = ?").run(d.id);
  paidDoc = { id: d.id, uuid: d.uuid };
  for (const position of ["global_top", "index_1", "document_top", "document_bottom", "user_1", "global_bottom"]) {
    getSqlite().query("INSERT INTO advertisement (position, content) VALUES (?, ?)").run(position, `<b>广告位 ${position}</b>`);
  }
  setConfig([
    ["recharge", "enable", true], ["recharge", "credit_exchange", 10], ["recharge", "recharge_discount", "100:0.95"],
    ["vip", "enable", true], ["system", "domain", "http://127.0.0.1:1"],
    ...wx.config().map((c) => [c.category, c.name, c.value] as [string, string, unknown]),
  ]);
  bumpContentVersion();
  rechargeNo = await createOrder(t.userToken, { order_type: 3, quantity: 1000 });
});

afterAll(() => {
  wx?.stop();
  setDocumentsRoot(null);
  rmSync(docsRoot, { recursive: true, force: true });
});

describe("/order", () => {
  test("visitors go to /login and come back to the same order", async () => {
    const r = await page(`/order?order_no=${rechargeNo}`);
    expect(r.status).toBe(302);
    expect(r.res.headers.get("location")).toBe(`/login?redirect=${encodeURIComponent(`/order?order_no=${rechargeNo}`)}`);
  });

  test("another member's order, an unknown or missing order number: the 404 page, nothing of the order", async () => {
    for (const path of [`/order?order_no=${rechargeNo}`, "/order?order_no=20990101000000000000", "/order", "/order?order_no=%3Cscript%3E"]) {
      const r = await page(path, other.token);
      expect({ path, status: r.status }).toEqual({ path, status: 404 });
      expect(r.text).toContain("This page could not be found");
      expect({ path, shown: ["OrderPay", "1000 魔豆", "¥95.00"].filter((s) => r.text.includes(s)) }).toEqual({ path, shown: [] });
    }
  });

  test("the owner sees what is bought, the amount in 元, the payment choices and the count-down data", async () => {
    const r = await page(`/order?order_no=${rechargeNo}`, t.userToken);
    expect(r.status).toBe(200);
    expect(r.res.headers.get("x-page-cache")).toBeNull();
    expect(r.text).toContain("<title>订单支付");
    expect(r.text).toContain("魔豆充值");
    expect(r.text).toContain("1000 魔豆");
    expect(r.text).toContain("¥95.00");
    expect(r.text).toContain("-¥5.00");
    expect(r.text).toContain(rechargeNo);
    const p = propsOf(r.text, "OrderPay");
    expect(p).toMatchObject({ orderNo: rechargeNo, amount: 9500, status: 1, payTypes: [1], next: { href: "/me" } });
    expect(p.expireAt - p.now).toBeGreaterThan(25 * 60_000);
    // Before hydration nothing is a dead button: the cancel button is disabled.
    expect(r.text).toMatch(/<button type="button" class="btn-link" disabled="">取消订单<\/button>/);
  });

  test("the root administrator may open any order, to look only", async () => {
    const r = await page(`/order?order_no=${rechargeNo}`, t.rootToken);
    expect(r.status).toBe(200);
    expect(propsOf(r.text, "OrderPay")).toMatchObject({ readOnly: true, payTypes: [], balance: 0 });
    expect(r.text).toContain("这是其他用户的订单");
    expect(r.text).not.toContain("取消订单");
  });

  test("the QR code is drawn by the server from the code_url, for the owner's pending order only", async () => {
    const pay = await t.req("POST", "/api/v1/order/pay", { token: t.userToken, body: { order_no: rechargeNo, payment_type: 1 } });
    expect(pay.status).toBe(200);
    const code = pay.body.code_url as string;
    expect(code).toStartWith("weixin://");
    const path = `/order/qrcode?order_no=${rechargeNo}&code_url=${encodeURIComponent(code)}`;
    const r = await t.req("GET", path, { token: t.userToken });
    expect(r.status).toBe(200);
    expect(r.res.headers.get("content-type")).toStartWith("image/svg+xml");
    expect(r.res.headers.get("cache-control")).toContain("no-store");
    expect(r.text).toStartWith("<svg");
    expect(r.text).toContain("<path");
    for (const [who, token, p] of [
      ["someone else", other.token, path],
      ["a visitor", undefined, path],
      ["not a WeChat address", t.userToken, `/order/qrcode?order_no=${rechargeNo}&code_url=${encodeURIComponent("https://evil.test/x")}`],
      ["no address", t.userToken, `/order/qrcode?order_no=${rechargeNo}`],
    ] as const) {
      const x = await t.req("GET", p, { token });
      expect({ who, status: x.status }).toEqual({ who, status: 404 });
    }
  });

  test("paid and closed orders show their end state with the way on", async () => {
    wx.pay(rechargeNo);
    const n = wx.notifyRequest(rechargeNo);
    const res = await t.app.request("/api/v1/payment/notify/wechatpay", { method: "POST", headers: n.headers, body: n.body });
    expect(res.status).toBeLessThan(300);
    const paid = await page(`/order?order_no=${rechargeNo}`, t.userToken);
    expect(paid.text).toContain("支付成功");
    expect(paid.text).toContain('href="/me"');
    expect(propsOf(paid.text, "OrderPay").status).toBe(2);
    // Paid once: the QR is not drawn for it any more.
    expect((await t.req("GET", `/order/qrcode?order_no=${rechargeNo}&code_url=weixin%3A%2F%2Fwxpay%2Fbizpayurl%3Fpr%3Dx`, { token: t.userToken })).status).toBe(404);

    const vipNo = await createOrder(t.userToken, { order_type: 2, product_id: 1, quantity: 1 });
    expect((await t.req("PUT", "/api/v1/order/close", { token: t.userToken, body: { order_no: vipNo } })).status).toBe(200);
    const closed = await page(`/order?order_no=${vipNo}`, t.userToken);
    expect(closed.text).toContain("订单已关闭");
    expect(closed.text).toContain('href="/joinvip"');
  });
});

describe("/joinvip", () => {
  test("visitors see the seeded plans side by side with prices, the struck original price and a login link", async () => {
    const r = await page("/joinvip");
    expect(r.status).toBe(200);
    for (const title of ["月度 VIP", "季度 VIP", "年度 VIP"]) expect(r.text).toContain(title);
    expect(r.text).toContain("¥15.00");
    expect(r.text).toMatch(/<del class="vip-plan-was"[^>]*>¥20\.00<\/del>/);
    expect(r.text).toContain("全站无广告");
    expect(r.text).toContain(`href="/login?redirect=${encodeURIComponent("/joinvip")}"`);
    expect(r.text).toContain("登录后开通");
    const p = propsOf(r.text, "JoinVip");
    expect(p.plans.map((x: { title: string }) => x.title)).toEqual(["月度 VIP", "季度 VIP", "年度 VIP"]);
  });

  test("members see their state; a VIP sees the expiry and 续费", async () => {
    const m = await page("/joinvip", t.userToken);
    expect(m.text).toContain("你还不是 VIP 会员");
    expect(m.text).toContain("立即开通");
    const v = await page("/joinvip", vip.token);
    expect(v.text).toContain("你是尊贵的 VIP 会员");
    expect(v.text).toContain("有效期至");
    expect(v.text).toContain("立即续费");
  });

  test("with VIP switched off the page says so and offers no plans", async () => {
    setConfig([["vip", "enable", false]]);
    try {
      const r = await page("/joinvip", t.userToken);
      expect(r.status).toBe(200);
      expect(r.text).toContain("本站暂未开放 VIP 会员");
      expect(propsOf(r.text, "JoinVip")).toBeNull();
    } finally {
      setConfig([["vip", "enable", true]]);
    }
  });
});

describe("/me/order and /me/vip", () => {
  test("/me/order lists the member's own orders, links pending ones to /order, filters by type and status", async () => {
    const pending = await createOrder(t.userToken, { order_type: 3, quantity: 200 });
    const otherNo = await createOrder(other.token, { order_type: 3, quantity: 300 });
    const r = await page("/me/order", t.userToken);
    expect(r.status).toBe(200);
    expect(r.text).toContain(rechargeNo);
    expect(r.text).toContain(`href="/order?order_no=${pending}"`);
    expect(r.text).toContain("去支付");
    expect(r.text).not.toContain(otherNo);
    const paidOnly = await page("/me/order?status=2", t.userToken);
    expect(paidOnly.text).toContain(rechargeNo);
    expect(paidOnly.text).not.toContain(pending);
    expect(paidOnly.text).toMatch(/<option value="2" selected="">已支付<\/option>/);
    const docs = await page("/me/order?order_type=1", t.userToken);
    expect(docs.text).toContain("没有符合条件的订单");
  });

  test("/me/order pages through many orders, keeping the filter", async () => {
    for (let i = 0; i < 11; i++) await createOrder(other.token, { order_type: 3, quantity: 10 * (i + 1) });
    const first = await page("/me/order?order_type=3", other.token);
    expect(first.text).toContain('href="/me/order?order_type=3&amp;page=2"');
    const second = await page("/me/order?order_type=3&page=2", other.token);
    expect(second.status).toBe(200);
    expect(second.text).toMatch(/>2(<!-- -->)? \/ (<!-- -->)?2</);
  });

  test("/me offers 充值 when recharge is on (the menus' link without scripts lands there)", async () => {
    expect(propsOf((await page("/me", t.userToken)).text, "RechargeButton")).toMatchObject({ label: "魔豆充值" });
    setConfig([["recharge", "enable", false]]);
    expect(propsOf((await page("/me", t.userToken)).text, "RechargeButton")).toBeNull();
    setConfig([["recharge", "enable", true]]);
  });

  test("/me/vip: a member without VIP, and a VIP with expiry and purchases", async () => {
    const m = await page("/me/vip", t.userToken);
    expect(m.status).toBe(200);
    expect(m.text).toContain("你还不是 VIP 会员");
    expect(m.text).toContain('href="/joinvip"');
    const v = await page("/me/vip", vip.token);
    expect(v.text).toContain("有效期至");
    expect(v.text).toContain("续费会员");
    expect(v.text).toContain("浏览全站无广告");
    expect(v.text).toContain('class="vip-icon"');
  });
});

describe("VIP members see no ads; the VIP mark shows beside the name", () => {
  test("home, the reader and the personal homepage carry ads for members and visitors, none for a VIP", async () => {
    clearPageCache();
    for (const path of ["/", `/document/${paidDoc.uuid}`, `/user/${t.rootId}`]) {
      for (const token of [undefined, t.userToken]) expect((await page(path, token)).text).toContain('class="ad-slot');
      const r = await page(path, vip.token);
      expect({ path, ads: r.text.includes('class="ad-slot') || r.text.includes("广告位") }).toEqual({ path, ads: false });
    }
  });

  test("the header and the personal homepage show the VIP mark", async () => {
    const home = await page(`/user/${vip.id}`, vip.token);
    expect(home.text).toMatch(/<h1 class="me-name"><span>黄金会员<\/span><svg class="vip-icon"/);
    // Drawn by the server beside the menu island (desktop) and on the avatar (phones): no script.
    expect(home.text).toMatch(/<a class="header-vip" href="\/me\/vip" title="VIP 会员"><svg class="vip-icon"/);
    expect(home.text).toMatch(/<span class="mobile-vip"><svg class="vip-icon"/);
    setConfig([["vip", "icon", "/uploads/config/vip.png"]]);
    expect((await page("/", vip.token)).text).toContain('<a class="header-vip" href="/me/vip" title="VIP 会员"><img class="vip-icon" src="/uploads/config/vip.png" alt="VIP"');
    setConfig([["vip", "icon", ""]]);
    const member = (await page("/", t.userToken)).text;
    expect(member).not.toContain("header-vip");
    expect(member).toContain('<a href="/me?recharge=1" data-recharge="">魔豆<!-- -->充值</a>');
    setConfig([["vip", "enable", false]]);
    expect((await page("/", vip.token)).text).not.toContain("header-vip");
    setConfig([["vip", "enable", true]]);
  });
});

describe("the reader's 购买 beside 下载", () => {
  test("a member who has not bought the paid document is offered 购买 with credits and money", async () => {
    const r = await page(`/document/${paidDoc.uuid}`, other.token);
    const p = propsOf(r.text, "DownloadButton");
    // 30 credits at 10 per 元 is ¥3.00; the dialog's code is its own chunk, loaded on the first click.
    expect(p).toMatchObject({ price: 30, buy: { documentId: paidDoc.id, title: "考研英语真题解析", credits: 30, amount: 300 } });
    // Its chunk's URL from dist/manifest.json (the browser test loads it for real).
    expect(typeof p.buy.url).toBe("string");
    expect(r.text).toContain('<button type="button" class="btn buy-doc-btn" disabled="">购买</button>');
  });

  test("bought with credits: no 购买 any more, the download is marked 已购买 and free", async () => {
    const no = await createOrder(t.userToken, { order_type: 1, product_id: paidDoc.id, quantity: 1 });
    const paid = await t.req("POST", "/api/v1/order/pay", { token: t.userToken, body: { order_no: no, payment_type: 5 } });
    expect(paid.body).toEqual({ payment_type: 5, status: 2 });
    const r = await page(`/document/${paidDoc.uuid}`, t.userToken);
    expect(propsOf(r.text, "DownloadButton")).toMatchObject({ price: 0, note: "已购买" });
    expect(propsOf(r.text, "DownloadButton").buy).toBeUndefined();
  });

  test("visitors (cached page) get no 购买; the uploader sees 我上传的", async () => {
    expect(propsOf((await page(`/document/${paidDoc.uuid}`)).text, "DownloadButton").buy).toBeUndefined();
    const own = await page(`/document/${paidDoc.uuid}`, t.rootToken);
    expect(propsOf(own.text, "DownloadButton")).toMatchObject({ price: 0, note: "我上传的" });
  });
});
