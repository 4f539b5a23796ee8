// The reader in real Chromium: a 15-page document with 12 preview pages (pages_per_read 5) shows 5
// pages, 继续阅读 → 10 → 12 and the end notice; ?page=8 opens with page 8 in view and the page does
// not jump back to the top; favourite toggles, rating once, report; watermark and between-page ad;
// screenshots at 1280 and 375; no console errors. A buyer (issue 10): a 15-page PDF converted by the
// server with a 6-page preview; a stranger stops at page 6, the buyer pays with credits, the rest is
// rendered by the server's job and the buyer scrolls on to page 15.
// Run: bun test ./tests/e2e/reader.e2e.ts
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { openDatabase } from "#db/client.ts";
import { hashPassword } from "#src/features/auth/passwords.ts";
import { axe, hydrated, ADMIN, launchBrowser, loginAsAdmin, openPage, screenshotCheck, startServer, type Server, type TrackedPage } from "./harness.ts";

const TEST_TIMEOUT_MS = 30_000;
const UUID = "e2e0reader0000000000000000000001";
const HASH = "0123456789abcdef0123456789abcdef";
const FULL_UUID = "e2e0reader0000000000000000000002";
const BUYER = { username: "reader_buyer", password: "buyer-e2e-pass" };
const LINES = ["第一章 函数的概念与性质", "1.1 集合与函数的基本关系", "设 A、B 是非空的数集，如果按照某种确定的对应关系 f，", "使对于集合 A 中任意一个数 x，在集合 B 中都有唯一确定的",  "数 f(x) 和它对应，", "那么就称 f：A→B 为从集合 A 到集合 B 的一个函数。", "例 1  求函数 y = √(x − 1) 的定义域。", "解：要使函数有意义，须 x − 1 ≥ 0，即 x ≥ 1。"];

/** An A4 page as the converter would leave it: text lines and a page number. */
function pageSvg(n: number) {
  const lines = LINES.map((l, i) => `<text x="60" y="${130 + i * 34}" font-size="${i === 0 ? 24 : 16}" fill="#222">${l}</text>`).join("");
  const bars = Array.from({ length: 12 }, (_, i) => `<rect x="60" y="${400 + i * 28}" width="${300 + ((n * 37 + i * 53) % 170)}" height="10" rx="3" fill="#d9dde3"/>`).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="595" height="842" viewBox="0 0 595 842"><rect width="595" height="842" fill="#fff"/><text x="60" y="80" font-size="13" fill="#888">高中数学必修一 · 知识点总结</text>${lines}${bars}<text x="297" y="800" font-size="14" fill="#666" text-anchor="middle">— ${n} —</text></svg>`;
}

/** The administrator (the server creates one only into an empty user table), a category chain, the document, related ones, page files, watermark and an ad. */
async function seed(dataDir: string) {
  const { sqlite } = openDatabase(join(dataDir, "wenku.db"));
  sqlite.prepare("INSERT INTO user (username, password, is_root) VALUES (?, ?, 1)").run(ADMIN.username, await hashPassword(ADMIN.password));
  const cat = sqlite.prepare("INSERT INTO category (title, parent_id) VALUES (?, ?) RETURNING id");
  const edu = (cat.get("教育专区", 0) as { id: number }).id;
  const math = (cat.get("高中数学", edu) as { id: number }).id;
  const user = (sqlite.prepare("INSERT INTO user (username, password) VALUES ('数学老师', 'x') RETURNING id").get() as { id: number }).id;
  const doc = sqlite.prepare(`INSERT INTO document (uuid, title, keywords, description, user_id, category_id, hash, ext, size, pages, preview, width, height, status, view_count, download_count, score, score_count, price)
    VALUES (?, ?, ?, ?, ?, ?, ?, 'pdf', 2345678, ?, ?, 595, 842, 2, 1024, 88, 420, 5, ?) RETURNING id`);
  const link = sqlite.prepare("INSERT INTO document_category (document_id, category_id) VALUES (?, ?)");
  const main = (doc.get(UUID, "高中数学必修一知识点总结（人教版）", "函数,集合,高中数学", "涵盖集合、函数概念与基本初等函数的全部知识点，附例题与解析。", user, math, HASH, 15, 12, 5) as { id: number }).id;
  for (const c of [edu, math]) link.run(main, c);
  const related = ["高中数学函数专题训练", "集合与函数概念练习题", "高中数学公式大全"];
  related.forEach((title, i) => {
    const { id } = doc.get(`e2e0reader00000000000000000000r${i}`, title, "函数", "", user, math, `${i}`.repeat(32), 20, 10, 0) as { id: number };
    for (const c of [edu, math]) link.run(id, c);
  });
  for (let n = 1; n <= 12; n++) {
    const file = join(dataDir, "documents", HASH.slice(0, 2), HASH, "pages", `${n}.svg`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, pageSvg(n));
    writeFileSync(file.replace(/\.svg$/, ".gzip.svg"), Bun.gzipSync(new TextEncoder().encode(pageSvg(n))));
  }
  // The bought document: the physics sample five times over (15 real pages), waiting for the
  // server's conversion, which renders the 6-page preview only.
  const merged = join(dataDir, "merged.pdf");
  const sample = join(import.meta.dir, "../../assets/samples/高中物理公式.pdf");
  const made = Bun.spawnSync(["mutool", "merge", "-o", merged, sample, sample, sample, sample, sample], { stderr: "pipe" });
  if (made.exitCode !== 0) throw new Error(`mutool merge failed: ${made.stderr}`);
  const bytes = await Bun.file(merged).bytes();
  const fullHash = new Bun.CryptoHasher("md5").update(bytes).digest("hex");
  const original = join(dataDir, "documents", fullHash.slice(0, 2), fullHash, "original.pdf");
  mkdirSync(dirname(original), { recursive: true });
  writeFileSync(original, bytes);
  const full = (sqlite.prepare(`INSERT INTO document (uuid, title, description, user_id, category_id, hash, ext, size, status, price)
    VALUES (?, '高中物理公式汇总（合订本）', '力学、能量、电学公式汇总，共五册合订。', ?, ?, ?, 'pdf', ?, 0, 5) RETURNING id`).get(FULL_UUID, user, math, fullHash, bytes.length) as { id: number }).id;
  for (const c of [edu, math]) link.run(full, c);
  sqlite.prepare("INSERT INTO jobs (kind, payload, max_attempts) VALUES ('document.convert', ?, 2)").run(JSON.stringify({ document_id: full }));
  sqlite.prepare("INSERT INTO user (username, password, credit_count) VALUES (?, ?, 100)").run(BUYER.username, await hashPassword(BUYER.password));
  const conf = sqlite.prepare("INSERT INTO config (category, name, value) VALUES (?, ?, ?)");
  conf.run("converter", "max_preview", "6");
  conf.run("system", "enable_watermark", "true");
  conf.run("system", "watermark", "魔豆文库 仅供预览");
  sqlite.prepare("INSERT INTO advertisement (position, content) VALUES ('document_between', ?)").run('<div style="padding:14px;text-align:center;background:#f6ffed;border:1px dashed #b7eb8f;color:#389e0d">页间广告位</div>');
  sqlite.close();
}

let server: Server;
let browser: Browser;
const opened: TrackedPage[] = [];

beforeAll(async () => {
  server = await startServer({}, { beforeStart: seed });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  // Stop the server and browser even when the check fails, so no server process outlives the run.
  try {
    for (const p of opened) expect(p.errors).toEqual([]);
  } finally {
    await browser?.close();
    await server?.stop();
  }
});

async function tracked(width: number, height = 900) {
  const p = await openPage(browser, width, height);
  opened.push(p);
  return p;
}
const pageCount = (page: Page) => page.locator(".reader-page").count();
const docUrl = () => `${server.url}/document/${UUID}`;

/** axe-core (WCAG 2 A/AA) on the page as it is now: no serious or critical violation; a failure lists each rule with its targets. */
async function expectAccessible(page: Page) {
  const where = `${new URL(page.url()).pathname} at ${page.viewportSize()?.width}px`;
  const found = (await axe(page)).map((v) => `${where}: ${v.id} (${v.impact}: ${v.help}) on ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`);
  expect(found).toEqual([]);
}
/** Whether an element's top edge is inside the viewport (below the sticky header). */
const inView = (page: Page, selector: string) => page.locator(selector).evaluate((el) => {
  const r = el.getBoundingClientRect();
  return r.top >= 0 && r.top < innerHeight / 2;
});

describe("reading", () => {
  test("5 pages, 继续阅读 → 10 → 12, then the end notice with the download action", async () => {
    const { page } = await tracked(1280);
    await page.goto(docUrl());
    await hydrated(page, "ReaderPages");
    expect(await page.evaluate(() => scrollY)).toBe(0);
    expect(await pageCount(page)).toBe(5);
    expect(await page.locator(".reader-end").isVisible()).toBe(false);
    // Sized before loading: every page box already has the A4 ratio.
    const box = await page.locator("#page-5 img").boundingBox();
    expect(Math.abs(box!.height / box!.width - 842 / 595)).toBeLessThan(0.01);
    await page.locator("#page-1 img").evaluate((img: HTMLImageElement) => img.decode());
    expect(await page.locator("#page-1 img").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    expect(await page.locator(".reader-wm").count()).toBe(5);
    expect(await page.locator(".ad-document-between").count()).toBe(0);

    await page.getByRole("link", { name: "继续阅读" }).click();
    await page.locator("#page-10").waitFor();
    expect(await pageCount(page)).toBe(10);
    expect(new URL(page.url()).search).toBe("");
    expect(await page.locator(".ad-document-between").count()).toBe(1);
    await page.getByRole("link", { name: "继续阅读" }).click();
    await page.locator("#page-12").waitFor();
    expect(await pageCount(page)).toBe(12);
    expect(await page.getByRole("link", { name: "继续阅读" }).count()).toBe(0);
    const end = page.locator(".reader-end");
    await end.waitFor({ state: "visible" });
    expect(await end.textContent()).toContain("剩余 3 页未能预览，购买后即可阅读全文");
    expect(await end.locator(".download-btn").count()).toBe(1);
    await page.locator("#page-12 img").evaluate((img: HTMLImageElement) => img.decode());
    await end.evaluate((el) => el.scrollIntoView({ block: "end" }));
    await screenshotCheck(page, "reader-1280-end");
  }, TEST_TIMEOUT_MS);

  test("?page=8 renders through page 10 at once and opens with page 8 in view, and stays there", async () => {
    const { page } = await tracked(1280);
    await page.goto(`${docUrl()}?page=8`);
    expect(await pageCount(page)).toBe(10);
    await hydrated(page, "ReaderPages");
    await page.waitForFunction(() => scrollY > 0);
    expect(await inView(page, "#page-8")).toBe(true);
    await page.waitForTimeout(400);
    expect(await inView(page, "#page-8")).toBe(true);
    // The #page-N anchor of a link works on its own, too.
    await page.goto(`${docUrl()}#page-3`);
    await hydrated(page, "ReaderPages");
    expect(await inView(page, "#page-3")).toBe(true);
  }, TEST_TIMEOUT_MS);

  test("screenshots at 1280 and 375 px look like a reader", async () => {
    const wide = await tracked(1280);
    await wide.page.goto(docUrl());
    await hydrated(wide.page, "ReaderPages");
    await wide.page.locator("#page-1 img").evaluate((img: HTMLImageElement) => img.decode());
    expect((await screenshotCheck(wide.page, "reader-1280")).distinctColours).toBeGreaterThan(50);
    await expectAccessible(wide.page);
    await wide.page.locator("#page-5").scrollIntoViewIfNeeded();
    await wide.page.getByRole("link", { name: "继续阅读" }).click();
    await wide.page.locator("#page-6 img").scrollIntoViewIfNeeded();
    await wide.page.locator("#page-6 img").evaluate((img: HTMLImageElement) => img.decode());
    await screenshotCheck(wide.page, "reader-1280-between");

    const narrow = await tracked(375, 740);
    await narrow.page.goto(docUrl());
    await hydrated(narrow.page, "ReaderPages");
    await narrow.page.locator("#page-1 img").evaluate((img: HTMLImageElement) => img.decode());
    expect(await narrow.page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
    expect((await screenshotCheck(narrow.page, "reader-375")).distinctColours).toBeGreaterThan(50);
    await expectAccessible(narrow.page);
    await narrow.page.locator("#page-1").scrollIntoViewIfNeeded();
    await screenshotCheck(narrow.page, "reader-375-pages");
  }, TEST_TIMEOUT_MS);
});

describe("actions", () => {
  test("anonymous 收藏 goes to login and back", async () => {
    const { page } = await tracked(1280);
    await page.goto(docUrl());
    await hydrated(page, "DocumentActions");
    await page.locator(".doc-fav").click();
    await page.waitForURL((u) => u.pathname === "/login");
    expect(new URL(page.url()).searchParams.get("redirect")).toBe(`/document/${UUID}`);
  }, TEST_TIMEOUT_MS);

  test("favourite toggles, rating once (kept after reload), report with a reason", async () => {
    const { page } = await tracked(1280);
    await loginAsAdmin(page, server.url);
    await page.goto(docUrl());
    await hydrated(page, "DocumentActions");
    const fav = page.locator(".doc-fav");
    expect(await fav.textContent()).toBe("收藏0");
    await fav.click();
    await page.getByText("收藏成功").waitFor();
    expect(await fav.textContent()).toBe("已收藏1");
    expect(await fav.getAttribute("aria-pressed")).toBe("true");
    await fav.click();
    await page.getByText("已取消收藏").waitFor();
    expect(await fav.textContent()).toBe("收藏0");
    await fav.click();
    await page.waitForFunction(() => document.querySelector(".doc-fav")?.textContent === "已收藏1");

    await page.getByRole("radio", { name: "4 星 推荐" }).click();
    await page.getByText("评分成功，感谢您的评价").waitFor();
    expect(await page.locator(".doc-rate").textContent()).toContain("我的评分");
    expect(await page.locator(".rate-star.on").count()).toBe(4);
    expect(await page.getByRole("radio", { name: "5 星 力荐" }).isDisabled()).toBe(true);

    await page.getByRole("button", { name: "举报" }).click();
    const dialog = page.locator("dialog.wk-dialog");
    await dialog.waitFor();
    await screenshotCheck(page, "reader-report-dialog");
    await dialog.getByRole("button", { name: "提交举报" }).click();
    await dialog.getByText("请选择举报原因").waitFor();
    await dialog.getByText("虚假中奖").click();
    await dialog.locator("textarea").fill("文中附有中奖链接");
    await dialog.getByRole("button", { name: "提交举报" }).click();
    await page.getByText("举报成功，我们会尽快处理").waitFor();
    expect(await page.getByRole("button", { name: "已举报" }).isDisabled()).toBe(true);

    await page.reload();
    await hydrated(page, "DocumentActions");
    expect(await fav.textContent()).toBe("已收藏1");
    expect(await page.locator(".rate-star.on").count()).toBe(4);
    expect(await page.getByRole("button", { name: "已举报" }).count()).toBe(1);

    await page.goto(`${server.url}/me/favorite`);
    await hydrated(page, "ReaderFavoriteList");
    expect(await page.locator(".fav-title").first().textContent()).toBe("高中数学必修一知识点总结（人教版）");
    await screenshotCheck(page, "reader-me-favorite");
    await page.getByRole("button", { name: "取消收藏" }).click();
    await page.getByText("还没有收藏").waitFor();

    await page.goto(`${server.url}/admin/report`);
    await hydrated(page, "AdminReportList");
    expect(await page.locator(".adm-table tbody").textContent()).toContain("虚假中奖");
  }, TEST_TIMEOUT_MS);
});

async function loginAs(page: Page, who: { username: string; password: string }) {
  await page.goto(`${server.url}/login`);
  await page.locator('input[name="username"]').fill(who.username);
  await page.locator('input[name="password"]').fill(who.password);
  await page.locator('main button[type="submit"]:not([disabled])').click();
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
}

const readablePages = async (page: Page) => JSON.parse((await page.locator('[data-island="ReaderPages"]').getAttribute("data-props"))!).preview as number;
/** Scrolls page n into view (images load lazily) and answers its decoded width. */
async function decoded(page: Page, n: number) {
  await page.locator(`#page-${n}`).scrollIntoViewIfNeeded();
  return page.locator(`#page-${n} img`).evaluate(async (img: HTMLImageElement) => (await img.decode(), img.naturalWidth));
}

describe("a buyer reads past the preview", () => {
  test("a stranger stops at page 6; the buyer pays with credits and scrolls on to page 15", async () => {
    const url = `${server.url}/document/${FULL_UUID}`;
    // The server converts the document after start (a hidden document is a 404 until then).
    const deadline = Date.now() + 30_000;
    while ((await fetch(url)).status !== 200) {
      if (Date.now() > deadline) throw new Error("the document was not converted");
      await Bun.sleep(100);
    }
    expect((await fetch(`${server.url}/view/page/${FULL_UUID}/7.svg`)).status).toBe(404);

    const stranger = await tracked(1280);
    await stranger.page.goto(url);
    await hydrated(stranger.page, "ReaderPages");
    await stranger.page.getByRole("link", { name: "继续阅读" }).click();
    await stranger.page.locator("#page-6").waitFor();
    expect(await stranger.page.getByRole("link", { name: "继续阅读" }).count()).toBe(0);
    expect(await stranger.page.locator(".reader-end").textContent()).toContain("剩余 9 页未能预览，购买后即可阅读全文");

    const { page } = await tracked(1280);
    await loginAs(page, BUYER);
    await page.goto(url);
    await hydrated(page, "DownloadButton");
    await page.locator(".buy-doc-btn").first().click();
    const dialog = page.locator("dialog.buy-doc-dialog");
    await dialog.waitFor();
    await dialog.getByRole("button", { name: /^使用 5 \S+购买$/ }).click();
    await page.getByText("购买成功，现在可以阅读全文并免费下载了").waitFor();
    // The pages past the preview are drawn by a job the payment queued: until then a note says so.
    for (let tries = 0; (await readablePages(page)) < 15; tries++) {
      expect(tries).toBeLessThan(100);
      expect(await page.locator(".reader-end-text").textContent()).toBe("其余 9 页正在生成，请稍后刷新");
      await Bun.sleep(200);
      await page.reload();
    }
    await hydrated(page, "ReaderPages");
    expect(await pageCount(page)).toBe(5);
    await page.getByRole("link", { name: "继续阅读" }).click();
    await page.locator("#page-10").waitFor();
    expect(await decoded(page, 7)).toBeGreaterThan(0);
    // Where the preview ended: the foot of page 6 and the top of page 7.
    await page.locator("#page-6 .reader-page-no").evaluate((el) => el.scrollIntoView({ block: "center" }));
    await screenshotCheck(page, "reader-1280-bought");
    await page.getByRole("link", { name: "继续阅读" }).click();
    await page.locator("#page-15").waitFor();
    expect(await pageCount(page)).toBe(15);
    expect(await decoded(page, 15)).toBeGreaterThan(0);
    expect(await page.locator("#page-15 .reader-page-no").textContent()).toBe("15 / 15");
    const end = page.locator(".reader-end");
    await end.waitFor({ state: "visible" });
    expect(await end.locator(".reader-end-text").textContent()).toBe("已阅读完毕，全文共 15 页");
    expect(await page.locator(".buy-doc-btn").count()).toBe(0);
    expect(await end.locator(".download-price").textContent()).toBe("已购买");
    const own = await page.request.get(`${server.url}/view/page/${FULL_UUID}/12.svg`);
    expect([own.status(), own.headers()["cache-control"]]).toEqual([200, "private, max-age=86400"]);
    // The same file for anyone who has not bought it: still nothing.
    expect((await fetch(`${server.url}/view/page/${FULL_UUID}/12.svg`)).status).toBe(404);
    expect((await stranger.page.request.get(`${server.url}/view/page/${FULL_UUID}/12.svg`)).status()).toBe(404);

    const narrow = await tracked(375, 740);
    await loginAs(narrow.page, BUYER);
    await narrow.page.goto(`${url}?page=8`);
    await hydrated(narrow.page, "ReaderPages");
    expect(await pageCount(narrow.page)).toBe(10);
    expect(await decoded(narrow.page, 8)).toBeGreaterThan(0);
    expect(await narrow.page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
    await narrow.page.locator("#page-8").scrollIntoViewIfNeeded();
    await screenshotCheck(narrow.page, "reader-375-bought");
  }, 60_000);
});
