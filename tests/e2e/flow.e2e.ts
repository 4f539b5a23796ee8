// The documents issue's whole flow in real Chromium against a real server with the real converters:
// user A uploads two files at /upload and watches their progress, both convert, user B opens the
// reader, reads on with 继续阅读, downloads with credits (both balances move by the price, the saved
// file is the original with its Chinese name) and finds it in /me/download.
// Run: bun test ./tests/e2e/flow.e2e.ts
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, } from "playwright-core";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { closeDatabase, configureDatabase, getSqlite, openDatabase } from "#db/client.ts";
import { changeCredits } from "#src/features/credits/ledger.ts";
import { hydrated, ADMIN, launchBrowser, openPage, screenshotCheck, startServer, type Server, type TrackedPage, serverApi } from "./harness.ts";

let server: Server;
let browser: Browser;
const opened: TrackedPage[] = [];
const A = { username: "uploader_a", password: "upload-pass-1", id: 0, token: "" };
const B = { username: "reader_b", password: "reader-pass-1", id: 0, token: "" };
const PRICE = 7;
const PDF_TITLE = "下载流程测试：八页样本";
const TXT_TITLE = "文库说明文本";
let categoryId = 0;
let adminToken = "";

/** A small valid PDF with one text line per page (Helvetica, so no font files are needed). */
function makePdf(pages: number): Uint8Array {
  const objs: string[] = [];
  const kids = Array.from({ length: pages }, (_, i) => `${4 + i * 2} 0 R`).join(" ");
  objs[1] = "<< /Type /Catalog /Pages 2 0 R >>";
  objs[2] = `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`;
  objs[3] = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";
  for (let i = 0; i < pages; i++) {
    const text = `BT /F1 28 Tf 72 760 Td (Download flow sample - page ${i + 1}) Tj ET BT /F1 14 Tf 72 720 Td (Wenku end-to-end test document.) Tj ET`;
    objs[4 + i * 2] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`;
    objs[5 + i * 2] = `<< /Length ${text.length} >>\nstream\n${text}\nendstream`;
  }
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  for (let i = 1; i < objs.length; i++) {
    offsets[i] = out.length;
    out += `${i} 0 obj\n${objs[i]}\nendobj\n`;
  }
  const xref = out.length;
  out += `xref\n0 ${objs.length}\n0000000000 65535 f \n${offsets.slice(1).map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  out += `trailer\n<< /Size ${objs.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}

const PDF = makePdf(8);
const TXT = new TextEncoder().encode(Array.from({ length: 40 }, (_, i) => `第${i + 1}段：这是文库端到端测试的说明文本，用来检验纯文本转换为可阅读的页面。`).join("\n"));

const api = (method: string, path: string, token?: string, body?: unknown) => serverApi(server.url, method, path, token, body);
const login = async (u: { username: string; password: string }) => (await api("POST", "/user/login", undefined, { username: u.username, password: u.password })).token as string;
const balanceOf = async (token: string) => (await api("GET", "/user", token)).user.credit_count as number;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();

  adminToken = await login(ADMIN);
  // Site set-up an admin would do: a category, members, and no review for the default group.
  categoryId = (await api("POST", "/category", adminToken, { title: "流程测试分类", enable: true })).id;
  await api("PUT", "/group", adminToken, { id: 2, enable_document_review: false });
  for (const u of [A, B]) {
    u.id = (await api("POST", "/user", adminToken, { username: u.username, password: u.password })).id;
    u.token = await login(u);
  }
  // B's credits go through the ledger, as a recharge would.
  configureDatabase(() => openDatabase(join(server.dataDir, "wenku.db"), { migrate: false }));
  changeCredits({ userId: B.id, amount: 50, kind: "admin", reason: "测试充值" });
  closeDatabase();
}, 90_000);

afterAll(async () => {
  for (const p of opened) await p.context.close().catch(() => {});
  await browser?.close();
  await server?.stop();
});


async function signedIn(u: { username: string; password: string }) {
  const tp = await openPage(browser, 1280, 900);
  opened.push(tp);
  const { page } = tp;
  await page.goto(`${server.url}/login`);
  await hydrated(page, "LoginForm");
  await page.locator('input[name="username"]').fill(u.username);
  await page.locator('input[name="password"]').fill(u.password);
  await page.locator('main button[type="submit"]:not([disabled])').click();
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
  return tp;
}

let pdfUuid = "";

describe("upload → convert → read → download with credits → my downloads", () => {
  test("A uploads two files at /upload and sees each one's progress", async () => {
    const { page, errors } = await signedIn(A);
    await page.goto(`${server.url}/upload`);
    await hydrated(page, "UploadForm");
    await page.locator('.up-form input[type="file"]').setInputFiles([
      { name: "flow-sample.pdf", mimeType: "application/pdf", buffer: Buffer.from(PDF) },
      { name: "说明.txt", mimeType: "text/plain", buffer: Buffer.from(TXT) },
    ]);
    const items = page.locator(".up-item");
    await page.waitForFunction(() => document.querySelectorAll(".up-item").length === 2);
    const fill = async (i: number, title: string, price: number) => {
      const it = items.nth(i);
      await it.locator('input[id$="-title"]').fill(title);
      await it.locator('select[id$="-category"]').selectOption(String(categoryId));
      await it.locator('input[id$="-price"]').fill(String(price));
    };
    await fill(0, PDF_TITLE, PRICE);
    await fill(1, TXT_TITLE, 0);
    // Every status the progress lines pass through, as the user would have seen them.
    await page.evaluate(() => {
      const seen: string[] = ((window as any).__upStatuses = []);
      new MutationObserver(() => document.querySelectorAll(".up-status").forEach((s) => seen.push(s.textContent ?? ""))).observe(document.querySelector(".up-list")!, { subtree: true, childList: true, characterData: true });
    });
    await page.getByRole("button", { name: "开始上传" }).click();
    await page.getByText("成功 2 个").waitFor({ timeout: 30_000 });
    for (let i = 0; i < 2; i++) {
      expect(await items.nth(i).getByRole("progressbar").getAttribute("aria-valuenow")).toBe("100");
      expect(await items.nth(i).locator(".up-status").innerText()).toContain("上传成功");
    }
    const seen: string[] = await page.evaluate(() => (window as any).__upStatuses);
    expect(seen.some((s) => /正在(计算文件指纹|上传|创建文档)/.test(s))).toBe(true);
    const shot = await screenshotCheck(page, "flow-upload-1280");
    expect(shot.distinctColours).toBeGreaterThan(50);
    expect(errors).toEqual([]);
  }, 60_000);

  test("both documents convert with the real tools", async () => {
    const deadline = Date.now() + 90_000;
    let docs: { uuid: string; title: string; status: number; pages: number; price: number; convert_error?: string }[] = [];
    while (Date.now() < deadline) {
      docs = (await api("GET", `/document/list?user_id=${A.id}&size=10`, A.token)).document;
      if (docs.length === 2 && docs.every((d) => d.status === 2 || d.status === 3)) break;
      await Bun.sleep(500);
    }
    expect(docs.map((d) => [d.title, d.status, d.convert_error ?? ""]).sort()).toEqual([[PDF_TITLE, 2, ""], [TXT_TITLE, 2, ""]].sort());
    const pdf = docs.find((d) => d.title === PDF_TITLE)!;
    expect(pdf.pages).toBe(8);
    expect(pdf.price).toBe(PRICE);
    expect(docs.find((d) => d.title === TXT_TITLE)!.pages).toBeGreaterThanOrEqual(1);
    pdfUuid = pdf.uuid;
  }, 100_000);

  test("B reads the PDF, continues reading, and downloads it with credits", async () => {
    expect(pdfUuid).not.toBe("");
    const { page, errors } = await signedIn(B);
    await page.goto(`${server.url}/document/${pdfUuid}`);
    await hydrated(page, "ReaderPages");
    const pages = page.locator(".reader-page");
    const before = await pages.count();
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(8);
    await page.getByRole("link", { name: "继续阅读" }).click();
    await page.waitForFunction((n) => document.querySelectorAll(".reader-page").length > n, before);
    expect(await pages.count()).toBeGreaterThan(before);
    await pages.last().scrollIntoViewIfNeeded();
    await pages.last().locator("img").evaluate((img: HTMLImageElement) => img.complete || new Promise((r) => img.addEventListener("load", r, { once: true })));
    expect(await pages.last().locator("img").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    const shot = await screenshotCheck(page, "flow-reader-1280");
    expect(shot.distinctColours).toBeGreaterThan(50);

    // Downloads by day-old accounts or from the uploader's own address earn the uploader nothing
    // (downloads/service.ts): A and B share 127.0.0.1 here, so A is made to have signed in
    // elsewhere and B to have registered two days ago, as two real members would have.
    configureDatabase(() => openDatabase(join(server.dataDir, "wenku.db"), { migrate: false }));
    getSqlite().query("UPDATE user SET register_ip = '203.0.113.10', last_login_ip = '203.0.113.10' WHERE id = ?").run(A.id);
    getSqlite().query("UPDATE user SET created_at = ? WHERE id = ?").run(Date.now() - 2 * 86400_000, B.id);
    closeDatabase();
    const [aBefore, bBefore] = [await balanceOf(A.token), await balanceOf(B.token)];
    await hydrated(page, "DownloadButton");
    const button = page.locator(".download-btn", { hasText: `${PRICE} 魔豆` }).first();
    const [download] = await Promise.all([page.waitForEvent("download"), button.click()]);
    expect(download.suggestedFilename()).toBe(`${PDF_TITLE}.pdf`);
    const saved = await download.path();
    expect(Buffer.from(readFileSync(saved!)).equals(Buffer.from(PDF))).toBe(true);
    await page.getByText(`已扣除 ${PRICE} 魔豆`).waitFor();
    expect(await balanceOf(B.token)).toBe(bBefore - PRICE);
    expect(await balanceOf(A.token)).toBe(aBefore + PRICE);
    expect(errors).toEqual([]);
  }, 60_000);

  test("the download appears in B's /me/download", async () => {
    const { page, errors } = await signedIn(B);
    await page.goto(`${server.url}/me/download`);
    const row = page.locator(".my-downloads tbody tr", { hasText: PDF_TITLE });
    await row.waitFor();
    expect(await row.innerText()).toContain(`${PRICE} 魔豆`);
    expect(await row.locator(`a[href="/document/${pdfUuid}"]`).count()).toBe(1);
    await hydrated(page, "DownloadButton");
    const shot = await screenshotCheck(page, "flow-me-download-1280");
    expect(shot.distinctColours).toBeGreaterThan(50);
    const list = await api("GET", "/user/download", B.token);
    expect(list.total).toBe(1);
    expect(list.download[0]).toMatchObject({ price: PRICE, document: { uuid: pdfUuid, title: PDF_TITLE, ext: "pdf", pages: 8 } });
    expect(errors).toEqual([]);
  }, 30_000);
});
