// The commerce back office in real Chromium, with WeChat Pay pointed at the simulator
// (tests/helpers/fakeWechatPay.ts): /admin/order filtered by status, type, order number, day and
// user; an order's detail drawer with its payment log; closing a pending order (at the gateway too)
// and deleting it; a 系统充值 that shows up as a paid order. A VIP plan's price edited in 元 and
// stored in fen; /admin/config/pay with both forms, secrets shown only as 已设置, and the
// certificate panel asking the simulator. Screenshots at 1280 and 375 px; no console errors.
// Run: bun test ./tests/e2e/admin-commerce.e2e.ts
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { startFakeWechatPay, type FakeWechatPay } from "../helpers/fakeWechatPay.ts";
import { ADMIN, hydrated, launchBrowser, screenshotCheck, serverApi, startServer, type Server, type TrackedPage, openAdminPage } from "./harness.ts";

const TIMEOUT = 60_000;
const BUYER = { username: "buyer_e2e", password: "buyer-e2e-pass-1" };

let fake: FakeWechatPay;
let server: Server;
let browser: Browser;
let adminToken = "";
const opened: TrackedPage[] = [];
/** Orders the member made before the admin looks: a started WeChat recharge, a VIP order, a paid recharge. */
const orders = { started: "", vip: "", paid: "" };

beforeAll(async () => {
  fake = await startFakeWechatPay();
  server = await startServer();
  browser = await launchBrowser();
  adminToken = (await serverApi(server.url, "POST", "/user/login", undefined, ADMIN)).token;
  const config = [...fake.config(), { category: "system", name: "domain", value: server.url }, { category: "recharge", name: "enable", value: true }, { category: "vip", name: "enable", value: true }];
  await serverApi(server.url, "PUT", "/config", adminToken, { config });
  await serverApi(server.url, "POST", "/user", adminToken, BUYER);
  const buyer = (await serverApi(server.url, "POST", "/user/login", undefined, BUYER)).token as string;
  const create = async (body: unknown) => (await serverApi(server.url, "POST", "/order", buyer, body)).order_no as string;
  orders.started = await create({ order_type: 3, quantity: 200 });
  await serverApi(server.url, "POST", "/order/pay", buyer, { order_no: orders.started, payment_type: 1 });
  orders.vip = await create({ order_type: 2, product_id: 1, quantity: 1 });
  orders.paid = await create({ order_type: 3, quantity: 100 });
  await serverApi(server.url, "POST", "/order/pay", buyer, { order_no: orders.paid, payment_type: 1 });
  fake.pay(orders.paid);
  expect((await fake.notify(orders.paid)).status).toBeLessThan(300);
}, 90_000);

afterAll(async () => {
  try {
    for (const p of opened) expect([...p.errors, ...p.failedRequests]).toEqual([]);
  } finally {
    await browser?.close();
    await server?.stop();
    fake?.stop();
  }
});

const adminPage = (width = 1280, height = 900) => openAdminPage(browser, server.url, opened, width, height);

async function until(check: () => Promise<boolean>, ms = 5_000) {
  for (const end = Date.now() + ms; !(await check()); await Bun.sleep(50)) if (Date.now() > end) throw new Error("condition not met in time");
}

const rowsText = (page: Page) => page.locator(".adm-orders .adm-table tbody tr").allInnerTexts();
/** Waits until the order table shows exactly `n` rows (a filter's reload has landed). */
async function rowCount(page: Page, n: number) {
  await page.waitForFunction((n) => {
    const rows = document.querySelectorAll(".adm-orders .adm-table tbody tr");
    return n === 0 ? rows.length === 1 && !!rows[0]!.querySelector(".adm-empty") : rows.length === n && !rows[0]!.querySelector(".adm-empty");
  }, n);
}

describe("订单管理", () => {
  test("filters, totals, detail with the payment log, close and delete, 系统充值", async () => {
    const { page } = await adminPage();
    await page.goto(`${server.url}/admin/order`);
    await hydrated(page, "AdminOrderList");
    await rowCount(page, 3);
    const totals = page.locator(".adm-order-totals");
    expect((await totals.innerText()).replace(/\s+/g, " ")).toContain("共 3 笔 已支付 1 笔 实收金额 ¥9.50 魔豆 100");

    // Filters: status, type, order number, day, user; reset brings all back.
    const filters = page.getByRole("search", { name: "筛选订单" });
    await filters.getByLabel("订单状态").selectOption("1");
    await rowCount(page, 2);
    await filters.getByLabel("订单类型").selectOption("2");
    await rowCount(page, 1);
    expect((await rowsText(page))[0]).toContain(orders.vip);
    expect((await rowsText(page))[0]).toContain("¥15.00");
    await filters.getByRole("button", { name: "重置" }).click();
    await rowCount(page, 3);
    await filters.getByLabel("订单号").fill(orders.started);
    await filters.getByRole("button", { name: "搜索" }).click();
    await rowCount(page, 1);
    await filters.getByRole("button", { name: "重置" }).click();
    await rowCount(page, 3);
    await filters.getByLabel("支付方式").selectOption("1");
    await rowCount(page, 2);
    await filters.getByLabel("下单时间快捷范围").selectOption("day");
    await rowCount(page, 2);
    await filters.getByRole("button", { name: "重置" }).click();
    await filters.getByPlaceholder("按用户筛选：用户名或 ID").fill("buyer");
    await page.getByRole("option", { name: /buyer_e2e/ }).click();
    await filters.getByRole("button", { name: `用户：${BUYER.username} ×` }).waitFor();
    await rowCount(page, 3);
    expect((await totals.innerText()).replace(/\s+/g, " ")).toContain("实收金额 ¥9.50");
    await filters.getByRole("button", { name: "重置" }).click();

    // The started order's detail: every field and the gateway call in its payment log.
    await page.locator(".adm-orders .adm-table tbody tr", { hasText: orders.started }).getByRole("button", { name: "详情" }).click();
    const drawer = page.getByRole("dialog", { name: "订单详情" });
    await drawer.waitFor();
    const kv = drawer.locator(".adm-kv").first();
    for (const s of [orders.started, "待支付", "积分充值", "¥19.00", "¥1.00", "微信支付", BUYER.username]) expect(await kv.innerText()).toContain(s);
    await drawer.locator(".adm-paylog li", { hasText: "发起支付" }).waitFor();
    await page.waitForTimeout(300);
    expect(Math.abs((await drawer.boundingBox())!.width - 640)).toBeLessThanOrEqual(2);
    await screenshotCheck(page, "admin-order-detail-pending-1280");

    // Closing it closes it at the gateway too; then, closed, it can be deleted.
    await drawer.getByRole("button", { name: "关闭订单" }).click();
    await page.getByRole("dialog", { name: "关闭订单" }).getByRole("button", { name: "确定关闭" }).click();
    await page.getByText("订单已关闭").waitFor();
    await kv.getByText("已关闭").waitFor();
    expect(fake.orders.get(orders.started)?.state).toBe("CLOSED");
    await drawer.locator(".adm-paylog li", { hasText: "管理员 admin 关闭订单" }).waitFor();
    await drawer.getByRole("button", { name: "删除订单" }).click();
    await page.getByRole("dialog", { name: "确认删除" }).getByRole("button", { name: "确定删除" }).click();
    await page.getByText("删除成功").waitFor();
    await drawer.waitFor({ state: "detached" });
    await rowCount(page, 2);
    expect((await rowsText(page)).join("\n")).not.toContain(orders.started);

    // 系统充值 by username: a new paid order of type 3, payment 6, at the top.
    await page.getByRole("button", { name: "系统充值" }).click();
    const form = page.getByRole("dialog", { name: "系统充值" });
    await form.locator("#f-amount").fill("500");
    await form.getByRole("button", { name: "确定充值" }).click();
    await page.getByText("请选择用户").waitFor();
    await form.locator("#f-user_id").fill(BUYER.username);
    await form.getByRole("option", { name: new RegExp(BUYER.username) }).click();
    await form.locator("#f-remark").fill("活动奖励");
    await screenshotCheck(page, "admin-order-recharge-1280");
    await form.getByRole("button", { name: "确定充值" }).click();
    await page.getByText(/^充值成功，用户当前魔豆余额 \d+$/).waitFor();
    await rowCount(page, 3);
    const top = (await rowsText(page))[0]!;
    for (const s of ["系统充值", "已支付", "500", "¥0.00", BUYER.username]) expect(top).toContain(s);
    expect((await totals.innerText()).replace(/\s+/g, " ")).toContain("已支付 2 笔 实收金额 ¥9.50 魔豆 600");
    await screenshotCheck(page, "admin-order-1280");
  }, TIMEOUT);
});

describe("VIP 管理", () => {
  test("a plan's price is typed in 元 and stored in fen; a bad amount is refused; enable switches", async () => {
    const { page } = await adminPage();
    await page.goto(`${server.url}/admin/user/vip`);
    await hydrated(page, "AdminVipPlans");
    const row = page.locator(".adm-table tbody tr", { hasText: "月度 VIP" });
    expect(await row.innerText()).toContain("¥15.00");
    await row.getByRole("button", { name: "编辑" }).click();
    const form = page.getByRole("dialog", { name: "编辑套餐" });
    expect(await form.locator("#f-price").inputValue()).toBe("15.00");
    expect(await form.locator("#f-original_price").inputValue()).toBe("20.00");
    await form.locator("#f-price").fill("19.999");
    await form.getByRole("button", { name: "保存" }).click();
    await page.getByText("价格格式不正确：请输入大于 0 的金额，最多两位小数").waitFor();
    await form.locator("#f-price").fill("19.9");
    await screenshotCheck(page, "admin-vip-edit-1280");
    await form.getByRole("button", { name: "保存" }).click();
    await page.getByText("保存成功").waitFor();
    await row.getByText("¥19.90").waitFor();
    const plans = (await serverApi(server.url, "GET", "/vip/list", adminToken)).vip as { title: string; price: number }[];
    expect(plans.find((p) => p.title === "月度 VIP")?.price).toBe(1990);

    const quarterly = page.getByRole("switch", { name: "启用：季度 VIP" });
    await quarterly.click();
    await page.getByText("已禁用").waitFor();
    await page.waitForFunction(() => document.querySelector('[aria-label="启用：季度 VIP"]')?.getAttribute("aria-checked") === "false");
    await quarterly.click();
    await page.getByText("已启用").waitFor();
    await screenshotCheck(page, "admin-vip-1280");
  }, TIMEOUT);
});

describe("支付设置", () => {
  test("/admin/config/pay: both groups, secrets shown as set and kept on save, the certificate panel", async () => {
    const { page } = await adminPage();
    await page.goto(`${server.url}/admin/config/payment`);
    expect(new URL(page.url()).pathname).toBe("/admin/config/pay");
    await hydrated(page, "AdminWechatpayCert");
    await page.waitForFunction(() => document.querySelectorAll('[data-island="AdminConfigForm"][data-hydrated="1"]').length === 2);
    expect(await page.locator("#f-wechatpay_private_key").inputValue()).toBe("");
    expect(await page.locator("#f-wechatpay_private_key").getAttribute("placeholder")).toBe("已设置，留空则不修改");
    expect(await page.locator("#f-wechatpay_mch_id").inputValue()).toBe(fake.mchid);
    expect(await page.locator("#f-recharge_discount").inputValue()).toContain("100:0.95");
    expect(await page.locator(".adm-submenu a", { hasText: "支付设置" }).count()).toBe(1);
    expect(await page.locator('.adm-submenu li.active a').innerText()).toBe("支付设置");

    const payment = page.locator("section", { has: page.locator("#pay-payment") });
    await payment.getByRole("button", { name: "保存", exact: true }).click();
    await page.getByText("保存成功").waitFor();

    // The secrets saved blank were kept: the simulator still accepts our signature.
    const cert = page.locator("section", { has: page.locator("#pay-cert") });
    await cert.getByRole("button", { name: "获取证书" }).click();
    await cert.getByText("微信支付公钥模式（用配置的公钥验签）").waitFor();
    expect(await cert.locator(".adm-cert-item").innerText()).toContain(fake.publicKeyId);
    await screenshotCheck(page, "admin-config-pay-cert-1280");

    const recharge = page.locator("section", { has: page.locator("#pay-recharge") });
    for (const rate of [20, 10]) {
      await recharge.locator("#f-credit_exchange").fill(String(rate));
      // After saving, the form reloads its group; typing before that lands would be overwritten.
      const reloaded = page.waitForResponse((r) => r.url().includes("/api/v1/config/list?category=recharge"));
      await recharge.getByRole("button", { name: "保存", exact: true }).click();
      await reloaded;
      expect(await recharge.locator("#f-credit_exchange").inputValue()).toBe(String(rate));
      await until(async () => (await serverApi(server.url, "GET", "/settings")).recharge.credit_exchange === rate);
    }
  }, TIMEOUT);
});

describe("every commerce screen at 1280 and 375 px", () => {
  const SCREENS: [string, string, string][] = [
    ["/admin/order", "AdminOrderList", "admin-order"],
    ["/admin/user/vip", "AdminVipPlans", "admin-vip"],
    ["/admin/config/pay", "AdminWechatpayCert", "admin-config-pay"],
    ["/admin/config/vip", "AdminConfigForm", "admin-config-vip"],
    ["/admin/dashboard", "AdminSysInfo", "admin-dashboard-revenue"],
  ];
  for (const width of [1280, 375]) {
    test(`${width} px: nothing sticks out sideways; the order drawer is ${width < 768 ? "90%" : "50%"} wide`, async () => {
      const { page } = await adminPage(width, width === 375 ? 812 : 900);
      for (const [path, island, name] of SCREENS) {
        await page.goto(`${server.url}${path}`);
        await hydrated(page, island);
        if (path === "/admin/dashboard") await page.locator("#revenue-title").evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 72));
        await screenshotCheck(page, `${name}-${width}`);
        expect([path, await page.evaluate(() => document.documentElement.scrollWidth)]).toEqual([path, width]);
      }
      await page.goto(`${server.url}/admin/order`);
      await hydrated(page, "AdminOrderList");
      await page.locator(".adm-orders .adm-table tbody tr").first().getByRole("button", { name: "详情" }).click();
      const drawer = page.getByRole("dialog", { name: "订单详情" });
      await drawer.locator(".adm-paylog li").first().waitFor();
      await page.waitForTimeout(300);
      expect(Math.abs((await drawer.boundingBox())!.width - width * (width < 768 ? 0.9 : 0.5))).toBeLessThanOrEqual(2);
      await screenshotCheck(page, `admin-order-detail-${width}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
      if (width === 1280) {
        // Collapsed (icons only) under 1000 px: 订单管理 shows its own icon, highlighted.
        await page.setViewportSize({ width: 900, height: 900 });
        await page.goto(`${server.url}/admin/order`);
        await hydrated(page, "AdminOrderList");
        const entry = page.locator('.adm-menu > li.active > a[href="/admin/order"] svg.adm-menu-icon');
        expect(await entry.isVisible()).toBe(true);
        await screenshotCheck(page, "admin-order-menu-900");
      }
      if (width === 375) {
        await drawer.getByRole("button", { name: "返回" }).click();
        await page.getByRole("button", { name: "系统充值" }).click();
        await page.getByRole("dialog", { name: "系统充值" }).waitFor();
        await screenshotCheck(page, "admin-order-recharge-375");
      }
    }, TIMEOUT);
  }
});
