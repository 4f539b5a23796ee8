// The upload page in real Chromium: a member picks two sample documents, fills title, category and
// price, watches both progress bars reach 100%, then finds both in /me/document (edit and delete
// there); the same file again is recognised by its MD5 (秒传); drag & drop and the 375 px layout;
// the admin document list. No console errors anywhere.
// Run: bun test ./tests/e2e/upload.e2e.ts
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, } from "playwright-core";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { hydrated, ADMIN, launchBrowser, loginAsAdmin, openPage, screenshotCheck, startServer, type Server, type TrackedPage, serverApi } from "./harness.ts";

const root = resolve(import.meta.dir, "../..");
const SAMPLES = join(root, "assets/samples");
const MEMBER = { username: "uploader_e2e", password: "uploader-pass-1" };
let server: Server;
let browser: Browser;
let categoryId = 0;
const opened: TrackedPage[] = [];

const api = (method: string, path: string, token?: string, body?: unknown) => serverApi(server.url, method, path, token, body);

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  const admin = (await api("POST", "/user/login", undefined, ADMIN)).token;
  const parent = (await api("POST", "/category", admin, { title: "学习资料" })).id;
  categoryId = (await api("POST", "/category", admin, { title: "高中物理", parent_id: parent })).id;
  // A member of the default group (may upload, documents wait for review).
  await api("POST", "/user", admin, { username: MEMBER.username, password: MEMBER.password });
}, 90_000);

afterAll(async () => {
  for (const p of opened) await p.context.close().catch(() => {});
  await browser?.close();
  await server?.stop();
});


async function signedIn(width = 1280) {
  const tp = await openPage(browser, width, 900);
  opened.push(tp);
  await tp.page.goto(`${server.url}/login?redirect=/upload`);
  await hydrated(tp.page, "LoginForm");
  await tp.page.locator('input[name="username"]').fill(MEMBER.username);
  await tp.page.locator('input[name="password"]').fill(MEMBER.password);
  await tp.page.locator('main button[type="submit"]:not([disabled])').click();
  await tp.page.waitForURL((u) => u.pathname === "/upload");
  await hydrated(tp.page, "UploadForm");
  return tp;
}

const sample = (name: string) => ({ name, mimeType: "application/octet-stream", buffer: readFileSync(join(SAMPLES, name)) });

describe("/upload", () => {
  test("anonymous visitors are sent to login", async () => {
    const tp = await openPage(browser);
    opened.push(tp);
    await tp.page.goto(`${server.url}/upload`);
    expect(new URL(tp.page.url()).pathname).toBe("/login");
    expect(new URL(tp.page.url()).searchParams.get("redirect")).toBe("/upload");
  });

  test("two sample files: fields, both progress bars to 100%, then listed in /me/document", async () => {
    const { page, errors } = await signedIn();
    await page.getByText("单个文件不超过 50 MB").waitFor();
    const empty = await screenshotCheck(page, "upload-empty-1280");
    expect(empty.distinctColours).toBeGreaterThan(50);
    await page.locator('.up-form input[type="file"]').setInputFiles([sample("高中物理公式.pdf"), sample("工作总结模板.docx")]);
    const items = page.locator(".up-item");
    await page.waitForFunction(() => document.querySelectorAll(".up-item").length === 2);
    // Titles default to the file names without extension.
    expect(await items.nth(0).locator('input[id$="-title"]').inputValue()).toBe("高中物理公式");
    await items.nth(0).locator('select[id$="-category"]').selectOption(String(categoryId));
    await items.nth(0).locator('input[id$="-price"]').fill("3");
    await items.nth(1).locator('input[id$="-title"]').fill("年度工作总结模板");
    await items.nth(1).locator('select[id$="-category"]').selectOption(String(categoryId));
    await items.nth(1).getByRole("button", { name: "+ 填写关键词和简介" }).click();
    await items.nth(1).locator('input[id$="-keywords"]').fill("总结,模板");
    const shot = await screenshotCheck(page, "upload-form-1280");
    expect(shot.distinctColours).toBeGreaterThan(50);

    await page.getByRole("button", { name: "开始上传" }).click();
    await page.getByText("成功 2 个").waitFor({ timeout: 30_000 });
    for (let i = 0; i < 2; i++) {
      expect(await items.nth(i).getByRole("progressbar").getAttribute("aria-valuenow")).toBe("100");
      expect(await items.nth(i).locator(".up-status").innerText()).toBe("上传成功，等待管理员审核");
    }
    expect(await items.nth(1).locator(".up-done-title").innerText()).toBe("《年度工作总结模板》 · 高中物理 · 免费");
    await page.evaluate(() => window.scrollTo(0, 0));
    await Bun.sleep(300);
    const done = await screenshotCheck(page, "upload-done-1280");
    expect(done.distinctColours).toBeGreaterThan(50);

    await page.getByRole("link", { name: "查看我的文档" }).click();
    await page.waitForURL((u) => u.pathname === "/me/document");
    await hydrated(page, "UploadManager");
    const rows = page.locator(".my-docs > li");
    expect(await rows.count()).toBe(2);
    const text = await page.locator(".my-docs").innerText();
    expect(text).toContain("高中物理公式");
    expect(text).toContain("年度工作总结模板");
    expect(text).toContain("待审核");
    expect(text).toContain("3 魔豆");
    const mine = await screenshotCheck(page, "me-document-1280");
    expect(mine.distinctColours).toBeGreaterThan(50);
    expect(errors).toEqual([]);
  }, 60_000);

  test("the same file again is recognised by its MD5 and not sent (秒传)", async () => {
    const { page, errors } = await signedIn();
    const sent: string[] = [];
    page.on("request", (r) => r.method() === "POST" && r.url().endsWith("/api/v1/upload/document") && sent.push(r.url()));
    await page.locator('.up-form input[type="file"]').setInputFiles([sample("高中物理公式.pdf")]);
    const item = page.locator(".up-item").first();
    await item.locator('input[id$="-title"]').fill("高中物理公式（第二份）");
    await item.locator('select[id$="-category"]').selectOption(String(categoryId));
    await page.getByRole("button", { name: "开始上传" }).click();
    await page.getByText("成功 1 个").waitFor({ timeout: 30_000 });
    await item.getByText("秒传").waitFor();
    expect(sent).toEqual([]);
    expect(errors).toEqual([]);
  }, 40_000);

  test("375 px: drag & drop a file, a refused type says why; /me/document edit and delete", async () => {
    const { page, errors } = await signedIn(375);
    const drop = async (name: string, bytes: Buffer) => {
      const dt = await page.evaluateHandle(({ name, data }) => {
        const t = new DataTransfer();
        t.items.add(new File([new Uint8Array(data)], name));
        return t;
      }, { name, data: [...bytes] });
      await page.locator(".up-drop").dispatchEvent("drop", { dataTransfer: dt });
    };
    await drop("学习笔记.md", readFileSync(join(SAMPLES, "学习笔记.md")));
    await drop("程序.exe", Buffer.from([0x4d, 0x5a, 0x90, 0x00]));
    await page.waitForFunction(() => document.querySelectorAll(".up-item").length === 2);
    expect(await page.locator(".up-item").nth(1).locator(".up-status").innerText()).toContain("不支持 .exe 格式");
    await page.locator(".up-item").nth(0).locator('select[id$="-category"]').selectOption(String(categoryId));
    const shot = await screenshotCheck(page, "upload-form-375");
    expect(shot.distinctColours).toBeGreaterThan(50);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.getByRole("button", { name: "开始上传" }).click();
    await page.getByText("成功 1 个").waitFor({ timeout: 30_000 });

    await page.goto(`${server.url}/me/document`);
    await hydrated(page, "UploadManager");
    const row = page.locator(".my-docs > li", { hasText: "学习笔记" });
    await row.getByRole("button", { name: "编辑" }).click();
    const dialog = page.getByRole("dialog", { name: "编辑文档" });
    await dialog.locator('input[name="title"]').fill("学习笔记（已修改）");
    await dialog.locator('input[name="price"]').fill("-1");
    await dialog.getByRole("button", { name: "保存" }).click();
    await page.getByText("价格必须是 0 到 100000 之间的整数").waitFor();
    await dialog.locator('input[name="price"]').fill("2");
    await dialog.getByRole("button", { name: "保存" }).click();
    await page.getByText("保存成功").waitFor();
    await page.locator(".my-docs", { hasText: "学习笔记（已修改）" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    const mine = await screenshotCheck(page, "me-document-375");
    expect(mine.distinctColours).toBeGreaterThan(50);

    const before = await page.locator(".my-docs > li").count();
    await page.locator(".my-docs > li", { hasText: "学习笔记（已修改）" }).getByRole("button", { name: "删除" }).click();
    await page.getByRole("dialog", { name: "删除文档" }).getByRole("button", { name: "确定删除" }).click();
    await page.getByText("已删除").waitFor();
    await page.waitForFunction((n) => document.querySelectorAll(".my-docs > li").length === n - 1, before);
    expect(errors).toEqual([]);
  }, 60_000);
});

describe("admin", () => {
  test("the document list shows the uploads in review; approve one; recycle bin holds the deleted one", async () => {
    const tp = await openPage(browser, 1280, 900);
    opened.push(tp);
    const { page, errors } = tp;
    await loginAsAdmin(page, server.url);
    await page.goto(`${server.url}/admin/document/list`);
    await hydrated(page, "AdminDocumentList");
    const row = page.locator(".adm-table tbody tr", { hasText: "年度工作总结模板" });
    await row.waitFor();
    expect(await row.innerText()).toContain("待审核");
    await row.getByRole("checkbox").check();
    await page.getByRole("button", { name: "审核通过" }).click();
    await page.getByText("操作成功").waitFor();
    await page.locator(".adm-table tbody tr", { hasText: "年度工作总结模板" }).locator(".adm-tag", { hasText: /转换|待转换/ }).waitFor();
    const shot = await screenshotCheck(page, "admin-document-list-1280");
    expect(shot.distinctColours).toBeGreaterThan(50);

    await page.goto(`${server.url}/admin/document/recycle`);
    await hydrated(page, "AdminDocumentRecycle");
    await page.locator(".adm-table tbody tr", { hasText: "学习笔记（已修改）" }).waitFor();
    const bin = await screenshotCheck(page, "admin-document-recycle-1280");
    expect(bin.distinctColours).toBeGreaterThan(50);
    expect(errors).toEqual([]);
  }, 40_000);
});
