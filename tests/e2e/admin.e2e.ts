// Admin back office in real Chromium: config saved and visible on the site, menu collapse by width,
// the 50% profile drawer, a navigation entry reaching the public header, dashboard screenshots.
// Run: bun test ./tests/e2e/admin.e2e.ts
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { hydrated, launchBrowser, openPage, screenshotCheck, startServer, type Server, type TrackedPage, openAdminPage } from "./harness.ts";

let server: Server;
let browser: Browser;
const opened: TrackedPage[] = [];

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});


/** A logged-in admin page at the given width; every page's console errors are checked at the end. */
const adminPage = (width: number, height = 900, track = true) => openAdminPage(browser, server.url, track ? opened : null, width, height);

const sideWidth = (page: Page) => page.locator(".adm-side").evaluate((el) => el.getBoundingClientRect().width);

describe("admin back office", () => {
  test("site name saved in 系统配置 shows on the public site", async () => {
    const { page } = await adminPage(1280);
    await page.goto(`${server.url}/admin/config/system`);
    await hydrated(page, "AdminConfigForm");
    const name = `测试文库${Date.now() % 10000}`;
    await page.locator("#f-sitename").fill(name);
    await page.getByRole("button", { name: "保存", exact: true }).click();
    await page.getByText("保存成功").waitFor();
    await page.goto(`${server.url}/`);
    expect(await page.locator("header").first().innerHTML()).toContain(name);
  }, 30_000);

  test("bad config input shows the server's Chinese message", async () => {
    // Untracked: the refused save logs its 400 in the console on purpose.
    const { page } = await adminPage(1280, 900, false);
    await page.goto(`${server.url}/admin/config/system`);
    await hydrated(page, "AdminConfigForm");
    await page.locator("#f-copyright_start_year").fill("1800");
    await page.getByRole("button", { name: "保存", exact: true }).click();
    await page.getByText("不能小于 1990").waitFor();
  }, 30_000);

  test("menu is collapsed at 900 px and expanded at 1280 px; the toggle flips it", async () => {
    const narrow = await adminPage(900);
    await narrow.page.goto(`${server.url}/admin/dashboard`);
    expect(await sideWidth(narrow.page)).toBeLessThanOrEqual(64);
    await hydrated(narrow.page, "AdminMenuToggle");
    await narrow.page.getByRole("button", { name: "展开菜单" }).click();
    await narrow.page.waitForFunction(() => document.querySelector(".adm-side")!.getBoundingClientRect().width >= 200);

    const wide = await adminPage(1280);
    await wide.page.goto(`${server.url}/admin/dashboard`);
    expect(await sideWidth(wide.page)).toBeGreaterThanOrEqual(200);
    expect(await wide.page.locator(".adm-menu").getByText("导航管理").isVisible()).toBe(true);
  }, 30_000);

  test("profile drawer opens at 50% width and saves", async () => {
    const { page } = await adminPage(1280);
    await page.goto(`${server.url}/admin/dashboard`);
    await hydrated(page, "AdminUserMenu");
    await page.locator(".adm-user-trigger").click();
    await page.getByRole("menuitem", { name: "个人资料" }).click();
    const drawer = page.getByRole("dialog", { name: "个人资料" });
    await drawer.waitFor();
    await page.waitForTimeout(300);
    const box = (await drawer.boundingBox())!;
    expect(Math.abs(box.width - 640)).toBeLessThanOrEqual(2);
    await drawer.locator("#f-realname").fill("张管理");
    await drawer.getByRole("button", { name: "保存" }).click();
    await page.getByText("修改成功").waitFor();

    await page.locator(".adm-user-trigger").click();
    await page.getByRole("menuitem", { name: "修改密码" }).click();
    const pw = page.getByRole("dialog", { name: "修改密码" });
    await pw.locator("#f-old_password").fill("whatever");
    await pw.locator("#f-new_password").fill("new-password-1");
    await pw.locator("#f-confirm").fill("new-password-2");
    await pw.getByRole("button", { name: "修改密码" }).click();
    await page.getByText("两次输入的密码不一致").waitFor();
  }, 30_000);

  test("a navigation entry created in 导航管理 appears in the public header", async () => {
    const { page } = await adminPage(1280);
    await page.goto(`${server.url}/admin/navigation`);
    await hydrated(page, "AdminTable");
    await page.getByRole("button", { name: "新增" }).click();
    const form = page.getByRole("dialog", { name: "新增" });
    await form.getByRole("button", { name: "保存" }).click();
    await page.getByText("请输入标题").waitFor();
    await form.locator("#f-title").fill("帮助中心");
    await form.locator("#f-href").fill("/help");
    await form.getByRole("button", { name: "保存" }).click();
    await page.getByText("保存成功").waitFor();
    await page.locator(".adm-table").getByText("帮助中心").waitFor();

    const visitor = await openPage(browser, 1280);
    opened.push(visitor);
    await visitor.page.goto(`${server.url}/`);
    await visitor.page.locator('header a[href="/help"]', { hasText: "帮助中心" }).first().waitFor({ state: "attached" });
  }, 30_000);

  test("dashboard screenshots at 1280 and 375 px", async () => {
    for (const width of [1280, 375]) {
      const { page } = await adminPage(width, width === 375 ? 812 : 900);
      await page.goto(`${server.url}/admin/dashboard`);
      await hydrated(page, "AdminSysInfo");
      await page.getByText("pdftotext", { exact: true }).waitFor();
      const shot = await screenshotCheck(page, `admin-dashboard-${width}`);
      expect(shot.distinctColours).toBeGreaterThan(50);
      // Nothing may stick out sideways on a phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    }
  }, 40_000);

  test("no console errors on any admin page", async () => {
    const { page, errors } = await adminPage(1280);
    for (const path of ["/admin/banner", "/admin/advertisement", "/admin/attachment", "/admin/friendlink", "/admin/config/security", "/admin/config/display", "/admin/config/footer"]) {
      await page.goto(`${server.url}${path}`);
      await page.waitForLoadState("networkidle");
    }
    expect(errors).toEqual([]);
    expect(opened.flatMap((p) => p.errors)).toEqual([]);
  }, 30_000);
});
