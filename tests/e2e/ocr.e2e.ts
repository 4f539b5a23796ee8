// OCR in real Chromium against a real server whose own worker converts and recognises: the demo
// flow chart (a PNG: an image document without a text layer) is uploaded, OCR'd by the default
// engine and then found by /search with a word from the picture; 文档管理 → OCR 识别 lists it,
// shows its page rows and runs it again. Screenshots at 1280 and 375 px; no console errors.
// Run: bun test ./tests/e2e/ocr.e2e.ts
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Browser } from "playwright-core";
import { ADMIN, hydrated, launchBrowser, screenshotCheck, serverApi, startServer, type Server, type TrackedPage, openAdminPage } from "./harness.ts";

const SAMPLE = join(resolve(import.meta.dir, "../.."), "assets/samples/请假审批流程图.png");
let server: Server;
let browser: Browser;
let token = "";
let documentId = 0;
const opened: TrackedPage[] = [];

type Row = { document_id: number; status: number; done: number; pages: number };
const rows = async () => (await serverApi(server.url, "GET", "/ocr/list", token)).ocr_document as Row[];
async function until(check: () => Promise<boolean>, ms = 90_000) {
  for (const end = Date.now() + ms; !(await check()); await Bun.sleep(250)) if (Date.now() > end) throw new Error("condition not met in time");
}

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  token = (await serverApi(server.url, "POST", "/user/login", undefined, ADMIN)).token;
  const form = new FormData();
  form.append("file", new File([readFileSync(SAMPLE)], "请假审批流程图.png"));
  const up = await (await fetch(`${server.url}/api/v1/upload/document`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form })).json() as { id: number };
  const category = (await serverApi(server.url, "POST", "/category", token, { title: "流程制度", type: 0 })).id;
  await serverApi(server.url, "POST", "/document", token, { category_id: [category], document: [{ title: "审批流程图", attachment_id: up.id }] });
  await until(async () => (await rows()).some((r) => r.status === 2));
  documentId = (await rows())[0]!.document_id;
}, 150_000);

afterAll(async () => {
  try {
    for (const p of opened) expect([...p.errors, ...p.failedRequests]).toEqual([]);
  } finally {
    await browser?.close();
    await server?.stop();
  }
});

const adminPage = (width = 1280, height = 900) => openAdminPage(browser, server.url, opened, width, height);

describe("OCR 识别", () => {
  test("the picture's words are searchable", async () => {
    // A box of the chart, not the title: only the recognised page text has it.
    const r = await fetch(`${server.url}/api/v1/search?wd=${encodeURIComponent("人力资源部备案")}`);
    const found = ((await r.json()) as { document: { title: string; page: number }[] }).document;
    expect(found.find((d) => d.title.includes("审批流程图"))?.page).toBe(1);
  });

  test("list, page rows and 重新识别此文档", async () => {
    const { page } = await adminPage();
    await page.goto(`${server.url}/admin/document/ocr`);
    await hydrated(page, "AdminOcrList");
    await expect(page.locator(".adm-menu a[aria-current=page]").innerText()).resolves.toBe("OCR 识别");
    const row = page.locator("tbody tr", { hasText: "审批流程图" });
    await row.getByText("识别成功").waitFor();
    await row.getByRole("button", { name: "页面" }).click();
    await page.getByRole("table", { name: "页面识别结果" }).getByText("第 1 页").waitFor();
    await screenshotCheck(page, "ocr-list-1280");
    await row.getByRole("button", { name: "重新识别此文档" }).click();
    await page.getByText("已将 1 篇文档重新加入识别队列").waitFor();
    await until(async () => (await rows()).every((r) => r.status === 2));
    await page.getByRole("button", { name: "刷新" }).click();
    await page.locator("tbody tr", { hasText: "审批流程图" }).getByText("识别成功").waitFor();
    const pages = (await serverApi(server.url, "GET", `/ocr/pages?document_id=${documentId}`, token)).ocr_page as { status: number; chars: number }[];
    expect(pages).toHaveLength(1);
    expect(pages[0]!.status).toBe(2);
    expect(pages[0]!.chars).toBeGreaterThan(5);
  }, 120_000);

  test("the list and the settings screen on a phone", async () => {
    const { page } = await adminPage(375, 800);
    await page.goto(`${server.url}/admin/document/ocr`);
    await hydrated(page, "AdminOcrList");
    await screenshotCheck(page, "ocr-list-375");
    await page.goto(`${server.url}/admin/config/ocr`);
    await page.getByText("单页识别超时（秒）").waitFor();
    await screenshotCheck(page, "ocr-config-375");
  }, 60_000);
});
