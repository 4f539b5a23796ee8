// Groups and permissions in real Chromium: the admin creates a group, grants it the friend-link
// page in the permission picker, creates a user in it; that user sees exactly the dashboard, the
// public navigation entry and 友情链接, and a page outside goes back to /admin. Also a punishment
// created through the user lookup and the type checkboxes.
// Run: bun test ./tests/e2e/users.e2e.ts
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { hydrated, launchBrowser, loginAsAdmin, openPage, screenshotCheck, startServer, type Server, type TrackedPage } from "./harness.ts";

let server: Server;
let browser: Browser;
const opened: TrackedPage[] = [];
const MEMBER = { username: "linkkeeper", password: "keeper-pass-1" };
const GROUP = "友链管理员";

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});


async function page(width = 1280) {
  const p = await openPage(browser, width, 900);
  opened.push(p);
  return p;
}

const menuLabels = (p: Page) => p.locator(".adm-menu > li > a .adm-label").allInnerTexts();

describe("groups, permission picker and a limited admin", () => {
  test("admin creates a group and grants it only the friend-link page in the picker", async () => {
    const { page: p } = await page();
    await loginAsAdmin(p, server.url);
    await p.goto(`${server.url}/admin/user/group`);
    await hydrated(p, "AdminTable");
    await hydrated(p, "AdminPermissionPicker");
    await p.getByRole("button", { name: "新增" }).click();
    const form = p.getByRole("dialog", { name: "新增" });
    await form.locator("#f-title").fill(GROUP);
    await form.locator("#f-description").fill("只负责友情链接");
    await form.getByRole("button", { name: "保存" }).click();
    await p.getByText("保存成功").waitFor();
    const row = p.locator(".adm-table tr", { hasText: GROUP });
    await row.waitFor();

    await row.getByRole("button", { name: "权限" }).click();
    const picker = p.getByRole("dialog", { name: `设置权限：${GROUP}` });
    await picker.waitFor();
    const all = picker.getByRole("checkbox", { name: "全选友情链接" });
    await all.waitFor();
    await all.check();
    await picker.getByText("已选 4 /").waitFor();
    expect(await picker.locator("fieldset", { hasText: "友情链接" }).locator('.adm-checks input[type="checkbox"]:checked').count()).toBe(4);
    const shot = await screenshotCheck(p, "admin-group-permission-1280");
    expect(shot.distinctColours).toBeGreaterThan(50);
    await picker.getByRole("button", { name: "保存" }).click();
    await p.getByText("权限已保存").waitFor();

    // Reopened, the picker shows what was saved.
    await row.getByRole("button", { name: "权限" }).click();
    await picker.getByText("已选 4 /").waitFor();
    await picker.getByRole("button", { name: "取消" }).click();
  }, 40_000);

  test("admin creates a user in that group from the user list", async () => {
    const { page: p } = await page();
    await loginAsAdmin(p, server.url);
    await p.goto(`${server.url}/admin/user/list`);
    await hydrated(p, "AdminTable");
    await p.getByRole("button", { name: "新增" }).click();
    const form = p.getByRole("dialog", { name: "新增" });
    await form.locator("#f-username").fill(MEMBER.username);
    await form.locator("#f-password").fill(MEMBER.password);
    const groups = form.getByRole("group", { name: "用户组" });
    await groups.getByLabel("普通用户").uncheck();
    await groups.getByLabel(GROUP).check();
    await form.getByRole("button", { name: "保存" }).click();
    await p.getByText("保存成功").waitFor();
    const row = p.locator(".adm-table tr", { hasText: MEMBER.username });
    await row.waitFor();
    expect(await row.locator(".adm-tag").allInnerTexts()).toContain(GROUP);

    // The group filter narrows the list to that user.
    await p.getByRole("combobox", { name: "用户组" }).selectOption({ label: GROUP });
    await p.waitForFunction(() => document.querySelectorAll(".adm-table tbody tr").length === 1);
    const shot = await screenshotCheck(p, "admin-user-list-1280");
    expect(shot.distinctColours).toBeGreaterThan(50);
  }, 40_000);

  test("that user sees exactly the dashboard, navigation and 友情链接; other pages go back to /admin", async () => {
    const { page: p } = await page();
    await p.goto(`${server.url}/login?redirect=${encodeURIComponent("/admin")}`);
    await p.locator('input[name="username"]').fill(MEMBER.username);
    await p.locator('input[name="password"]').fill(MEMBER.password);
    await p.locator('main button[type="submit"]:not([disabled])').click();
    await p.waitForURL((u) => u.pathname === "/admin");
    expect(await menuLabels(p)).toEqual(["控制面板", "AI 管理", "导航管理", "友情链接"]);
    const shot = await screenshotCheck(p, "admin-limited-menu-1280");
    expect(shot.distinctColours).toBeGreaterThan(50);

    await p.locator(".adm-menu").getByText("友情链接").click();
    await p.waitForURL((u) => u.pathname === "/admin/friendlink");
    await hydrated(p, "AdminTable");
    for (const path of ["/admin/banner", "/admin/user/list", "/admin/config/system"]) {
      await p.goto(`${server.url}${path}`);
      expect([path, new URL(p.url()).pathname]).toEqual([path, "/admin"]);
    }
  }, 40_000);

  test("a punishment picked by user search and type checkboxes lands in the list", async () => {
    const { page: p } = await page();
    await loginAsAdmin(p, server.url);
    await p.goto(`${server.url}/admin/user/punishment`);
    await hydrated(p, "AdminTable");
    await p.getByRole("button", { name: "新增" }).click();
    const form = p.getByRole("dialog", { name: "新增" });
    await form.locator("#f-user_id").fill("keeper");
    await form.getByRole("option", { name: new RegExp(MEMBER.username) }).click();
    await form.getByText(`已选择：${MEMBER.username}`).waitFor();
    const types = form.getByRole("group", { name: "处罚类型" });
    await types.getByLabel("禁止评论").check();
    await types.getByLabel("禁止上传").check();
    await form.locator("#f-reason").fill("<b>刷屏</b>");
    await form.getByRole("button", { name: "保存" }).click();
    await p.getByText("保存成功").waitFor();
    const rows = p.locator(".adm-table tbody tr", { hasText: MEMBER.username });
    await p.waitForFunction(() => document.querySelectorAll(".adm-table tbody tr").length === 2);
    expect(await rows.count()).toBe(2);
    expect(await rows.first().innerText()).toContain("<b>刷屏</b>");
    expect(await rows.first().innerText()).toContain("永久");
    const shot = await screenshotCheck(p, "admin-punishment-1280");
    expect(shot.distinctColours).toBeGreaterThan(50);
  }, 40_000);

  test("no console errors on any page these flows opened", () => {
    expect(opened.flatMap((p) => p.errors)).toEqual([]);
  });
});
