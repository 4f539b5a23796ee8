// The spider in real Chromium against a site the test serves on loopback (tests/helpers/spiderSite.ts,
// with spider.allow_private_addresses on, as only a test should): the admin enters the site's URL
// in 蜘蛛采集 → 采集网址 with a category, an owner looked up by name and depth 1; the server's own
// worker collects and downloads; 采集文档 shows the downloads, the refused traps with their reasons
// and the duplicate of a library document; the admin publishes everything picked and the documents
// are converted. Screenshots at 1280 and 375 px; no console errors.
// Run: bun test ./tests/e2e/spider.e2e.ts
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { DUPLICATE, sample, startSpiderSite, type SpiderSite } from "../helpers/spiderSite.ts";
import { ADMIN, hydrated, launchBrowser, screenshotCheck, serverApi, startServer, type Server, type TrackedPage, openAdminPage } from "./harness.ts";

const TIMEOUT = 120_000;
let site: SpiderSite;
let server: Server;
let browser: Browser;
let token = "";
let categoryId = 0;
const opened: TrackedPage[] = [];

type Doc = { id: number; url: string; status: number; message: string; duplicate: boolean; document_id: number };
const docs = async () => (await serverApi(server.url, "GET", "/spider/document/list?size=100", token)).spider_document as Doc[];
async function until(check: () => Promise<boolean>, ms = 60_000) {
  for (const end = Date.now() + ms; !(await check()); await Bun.sleep(200)) if (Date.now() > end) throw new Error("condition not met in time");
}

beforeAll(async () => {
  site = startSpiderSite();
  server = await startServer();
  browser = await launchBrowser();
  token = (await serverApi(server.url, "POST", "/user/login", undefined, ADMIN)).token;
  await serverApi(server.url, "PUT", "/config", token, { config: [
    { category: "spider", name: "allow_private_addresses", value: true },
    { category: "spider", name: "delay_ms", value: 0 },
    { category: "spider", name: "max_size", value: 1 },
  ] });
  categoryId = (await serverApi(server.url, "POST", "/category", token, { title: "采集资料", type: 0 })).id;
  // The library already holds the spreadsheet the site also offers.
  const form = new FormData();
  form.append("file", new File([sample(DUPLICATE.sample)], "销售数据表.xlsx"));
  const up = await (await fetch(`${server.url}/api/v1/upload/document`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form })).json() as { id: number };
  await serverApi(server.url, "POST", "/document", token, { category_id: [categoryId], document: [{ title: "销售数据表", attachment_id: up.id }] });
}, 90_000);

afterAll(async () => {
  try {
    for (const p of opened) expect([...p.errors, ...p.failedRequests]).toEqual([]);
  } finally {
    await browser?.close();
    await server?.stop();
    site?.stop();
  }
});

const adminPage = (width = 1280, height = 900) => openAdminPage(browser, server.url, opened, width, height);

describe("蜘蛛采集", () => {
  test("enter a URL, collect from the loopback site, publish, converted", async () => {
    const { page } = await adminPage();
    await page.goto(`${server.url}/admin/spider/url`);
    await hydrated(page, "AdminSpiderUrls");
    await expect(page.locator(".adm-menu a[aria-current=page]").innerText()).resolves.toBe("采集网址");
    await page.getByRole("button", { name: "添加网址" }).click();
    const dialog = page.getByRole("dialog", { name: "添加采集网址" });
    await dialog.locator("textarea[name=urls]").fill(`${site.url}/`);
    await dialog.locator("select[name=category_id]").selectOption(String(categoryId));
    await dialog.locator("input[name=user_id]").fill(ADMIN.username);
    await dialog.getByRole("option", { name: new RegExp(`^${ADMIN.username}（ID`) }).click();
    await dialog.locator("select[name=depth]").selectOption("1");
    await dialog.locator("input[name=exts][value=xlsx]").check();
    await dialog.locator("input[name=max_size]").fill("1");
    await screenshotCheck(page, "spider-url-form-1280");
    await dialog.getByRole("button", { name: "开始采集" }).click();
    await page.getByText("已提交 1 个网址").waitFor();

    // The server's own worker collects and downloads.
    await until(async () => {
      const d = await docs();
      return d.length >= 10 && d.every((x) => x.status === 3 || x.status === 4);
    });
    const found = await docs();
    const by = (path: string) => found.find((d) => d.url === site.url + path)!;
    expect(by("/trap/redirect.pdf").message).toContain("重定向被拒绝");
    expect(by("/trap/huge.pdf").message).toContain("文件过大");
    expect(by("/trap/fake.pdf").message).toContain("网页（HTML）");
    expect(by(DUPLICATE.path).duplicate).toBe(true);

    await page.reload();
    await hydrated(page, "AdminSpiderUrls");
    await page.locator("tbody tr", { hasText: "采集完成" }).waitFor();
    // The menu entry 蜘蛛采集 with its two children, in the picture.
    await page.locator(".adm-menu a[aria-current=page]").scrollIntoViewIfNeeded();
    await screenshotCheck(page, "spider-url-1280");

    await page.goto(`${server.url}/admin/spider/document`);
    await hydrated(page, "AdminSpiderDocuments");
    await page.locator("thead input[aria-label=全选]").check();
    await page.getByRole("group", { name: "批量操作" }).getByRole("button", { name: "发布" }).click();
    await page.getByText(/已加入发布队列 4 个/).waitFor();
    await until(async () => (await docs()).filter((d) => d.status === 7).length === 4);
    // Published documents go through the normal conversion.
    const published = (await docs()).filter((d) => d.status === 7);
    await until(async () => {
      for (const d of published) {
        const doc = await serverApi(server.url, "GET", `/document?id=${d.document_id}`, token);
        if (doc.status !== 2) return false;
      }
      return true;
    }, 90_000);
    await page.getByRole("button", { name: "刷新" }).click();
    await page.locator("tbody tr", { hasText: "发布成功" }).first().waitFor();
    await screenshotCheck(page, "spider-document-1280");
  }, TIMEOUT + 60_000);

  test("both screens on a phone", async () => {
    const { page } = await adminPage(375, 800);
    await page.goto(`${server.url}/admin/spider/url`);
    await hydrated(page, "AdminSpiderUrls");
    await screenshotCheck(page, "spider-url-375");
    await page.goto(`${server.url}/admin/spider/document`);
    await hydrated(page, "AdminSpiderDocuments");
    await screenshotCheck(page, "spider-document-375");
  }, TIMEOUT);
});
