// Search in real Chromium: typing in the header box shows title suggestions (hidden documents
// never), keys move through them, Enter runs the full search, the query stays in the box, a
// snippet labelled 第 N 页 opens the reader at that page, and the search is in the admin's log.
// The same at 375 px through the drawer's search input. Screenshots; no console errors.
// Run: bun test ./tests/e2e/search.e2e.ts
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { closeDatabase, configureDatabase, openDatabase } from "#db/client.ts";
import { hashPassword } from "#src/features/auth/passwords.ts";
import { indexDocument } from "#src/features/search/indexer.ts";
import { invalidateSettings } from "#src/features/settings/service.ts";
import { axe, hydrated, ADMIN, launchBrowser, loginAsAdmin, openPage, screenshotCheck, startServer, type Server, type TrackedPage } from "./harness.ts";

const TEST_TIMEOUT_MS = 30_000;
const MAIN = "e2e0search000000000000000000main";
const PAGES = 6;
/** The page whose text is about 力学: the snippet must point there. */
const HIT_PAGE = 4;

const pageText = (n: number) => n === HIT_PAGE
  ? "第二章 力学基础。牛顿第二定律指出，物体的加速度与所受合外力成正比，与质量成反比。力学问题的一般解法：受力分析、列方程、求解。"
  : `第 ${n} 页 运动的描述：位移、速度与时间的关系，匀变速直线运动的规律与图像。`;

function pageSvg(n: number) {
  const lines = pageText(n).match(/.{1,26}/g)!.map((l, i) => `<text x="60" y="${140 + i * 30}" font-size="16" fill="#222">${l}</text>`).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="595" height="842" viewBox="0 0 595 842"><rect width="595" height="842" fill="#fff"/><text x="60" y="90" font-size="22" fill="#111">高中物理力学知识点总结</text>${lines}<text x="297" y="800" font-size="14" fill="#666" text-anchor="middle">— ${n} —</text></svg>`;
}

/** Admin, an uploader, visible documents with page files and page text, one hidden; all indexed. */
async function seed(dataDir: string) {
  const file = join(dataDir, "wenku.db");
  const { sqlite } = openDatabase(file);
  sqlite.prepare("INSERT INTO user (username, password, is_root) VALUES (?, ?, 1)").run(ADMIN.username, await hashPassword(ADMIN.password));
  const user = (sqlite.prepare("INSERT INTO user (username, password) VALUES ('物理老师', 'x') RETURNING id").get() as { id: number }).id;
  const doc = sqlite.prepare(`INSERT INTO document (uuid, title, keywords, description, user_id, hash, ext, size, pages, preview, width, height, status, download_count, score)
    VALUES (?, ?, ?, ?, ?, ?, 'pdf', 1234567, ?, ?, 595, 842, ?, 12, 450) RETURNING id`);
  const text = sqlite.prepare("INSERT INTO document_page (document_id, page, text) VALUES (?, ?, ?)");
  const ids: number[] = [];
  const add = (uuid: string, title: string, status: number, hash: string, pages: number) => {
    const { id } = doc.get(uuid, title, "物理", `${title}，高中物理复习资料。`, user, hash, pages, pages, status) as { id: number };
    ids.push(id);
    return id;
  };
  const HASH = "a1b2c3d4e5f60718293a4b5c6d7e8f90";
  const main = add(MAIN, "高中物理力学知识点总结", 2, HASH, PAGES);
  for (let n = 1; n <= PAGES; n++) {
    text.run(main, n, pageText(n));
    const svg = join(dataDir, "documents", HASH.slice(0, 2), HASH, "pages", `${n}.svg`);
    mkdirSync(dirname(svg), { recursive: true });
    writeFileSync(svg, pageSvg(n));
  }
  add("e2e0search0000000000000000000em", "高中物理电磁学专题", 2, "1".repeat(32), 3);
  add("e2e0search0000000000000000000ex", "初中物理实验大全", 2, "2".repeat(32), 3);
  add("e2e0search0000000000000000000hd", "高中物理隐藏草稿", 0, "3".repeat(32), 3);
  sqlite.close();
  // The real indexer writes the FTS rows, as conversion would have; the server never rebuilds at start.
  configureDatabase(() => openDatabase(file));
  invalidateSettings();
  for (const id of ids) indexDocument(id);
  closeDatabase();
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
const options = (page: Page, list: string) => page.locator(`#${list} [role="option"]`);
const optionTitles = (page: Page, list: string) => options(page, list).allTextContents();

/** axe-core (WCAG 2 A/AA) on the page as it is now: no serious or critical violation; a failure lists each rule with its targets. */
async function expectAccessible(page: Page) {
  const where = `${new URL(page.url()).pathname} at ${page.viewportSize()?.width}px`;
  const found = (await axe(page)).map((v) => `${where}: ${v.id} (${v.impact}: ${v.help}) on ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`);
  expect(found).toEqual([]);
}
const inView = (page: Page, selector: string) => page.locator(selector).evaluate((el) => {
  const r = el.getBoundingClientRect();
  return r.top >= 0 && r.top < innerHeight / 2;
});

describe("header search at 1280", () => {
  test("type → suggestions → keys → Enter → results → 第 N 页 snippet → the reader at that page", async () => {
    const { page } = await tracked(1280);
    await page.goto(`${server.url}/`);
    await hydrated(page, "HeaderSearch");
    const box = page.locator(".header-search input[name=wd]");
    await box.click();
    await box.pressSequentially("高中物", { delay: 40 });
    await options(page, "header-suggest").first().waitFor();
    expect((await optionTitles(page, "header-suggest")).sort()).toEqual(["高中物理力学知识点总结", "高中物理电磁学专题"].sort());
    expect(await box.getAttribute("aria-expanded")).toBe("true");
    expect((await screenshotCheck(page, "search-suggest-1280")).distinctColours).toBeGreaterThan(50);
    await expectAccessible(page);

    // Arrow keys move the active option (wrapping); Escape closes the list and keeps the text.
    await page.keyboard.press("ArrowDown");
    expect(await options(page, "header-suggest").nth(0).getAttribute("aria-selected")).toBe("true");
    await page.keyboard.press("ArrowUp");
    expect(await options(page, "header-suggest").nth(1).getAttribute("aria-selected")).toBe("true");
    await page.keyboard.press("Escape");
    expect(await options(page, "header-suggest").count()).toBe(0);
    expect(await box.inputValue()).toBe("高中物");

    // A narrower query, then Enter with nothing picked: the full search.
    await box.fill("");
    await box.pressSequentially("力学", { delay: 40 });
    await page.waitForFunction(() => [...document.querySelectorAll("#header-suggest [role=option]")].map((o) => o.textContent).join() === "高中物理力学知识点总结");
    await Promise.all([page.waitForURL((u) => u.pathname === "/search"), page.keyboard.press("Enter")]);
    const url = new URL(page.url());
    expect([url.searchParams.get("wd"), url.searchParams.get("type")]).toEqual(["力学", "0"]);
    await hydrated(page, "HeaderSearch");
    expect(await page.locator(".header-search input[name=wd]").inputValue()).toBe("力学");
    const snippet = page.locator(`a.search-snippet[href*="${MAIN}"]`);
    expect(await snippet.locator(".search-page-label").textContent()).toBe(`第 ${HIT_PAGE} 页`);
    expect(await snippet.locator("mark").first().textContent()).toBe("力学");
    expect((await screenshotCheck(page, "search-results-1280")).distinctColours).toBeGreaterThan(50);
    await expectAccessible(page);

    await Promise.all([page.waitForURL((u) => u.pathname === `/document/${MAIN}`), snippet.click()]);
    await hydrated(page, "ReaderPages");
    await page.waitForFunction(() => scrollY > 0);
    expect(await inView(page, `#page-${HIT_PAGE}`)).toBe(true);
    await screenshotCheck(page, "search-reader-1280");
  }, TEST_TIMEOUT_MS);

  test("picking a suggestion with the keyboard or the mouse opens that document", async () => {
    const { page } = await tracked(1280);
    await page.goto(`${server.url}/`);
    await hydrated(page, "HeaderSearch");
    const box = page.locator(".header-search input[name=wd]");
    await box.pressSequentially("电磁", { delay: 40 });
    await options(page, "header-suggest").first().waitFor();
    await page.keyboard.press("ArrowDown");
    await Promise.all([page.waitForURL((u) => u.pathname === "/document/e2e0search0000000000000000000em"), page.keyboard.press("Enter")]);
    await page.goto(`${server.url}/`);
    await hydrated(page, "HeaderSearch");
    await page.locator(".header-search input[name=wd]").pressSequentially("实验", { delay: 40 });
    await Promise.all([page.waitForURL((u) => u.pathname === "/document/e2e0search0000000000000000000ex"), options(page, "header-suggest").first().click()]);
    // A hidden document's title is never offered.
    await page.goto(`${server.url}/`);
    await hydrated(page, "HeaderSearch");
    await page.locator(".header-search input[name=wd]").pressSequentially("草稿", { delay: 40 });
    await page.waitForTimeout(600);
    expect(await options(page, "header-suggest").count()).toBe(0);
  }, TEST_TIMEOUT_MS);

  test("the searches reach the admin's search records", async () => {
    const { page } = await tracked(1280);
    await loginAsAdmin(page, server.url);
    await page.goto(`${server.url}/admin/document/searchrecord`);
    await hydrated(page, "AdminTable");
    const row = page.locator("table.adm-table tbody tr", { hasText: "力学" }).first();
    await row.waitFor();
    expect(await row.textContent()).toContain("文档");
    expect((await screenshotCheck(page, "search-records-1280")).distinctColours).toBeGreaterThan(50);
    await page.goto(`${server.url}/admin/dashboard`);
    expect(await page.locator(".adm-card", { hasText: "最近 7 天热门搜索" }).textContent()).toContain("力学");
  }, TEST_TIMEOUT_MS);
});

describe("drawer search at 375", () => {
  test("the drawer's input suggests too; results and the reader fit the narrow screen", async () => {
    const { page } = await tracked(375, 812);
    await page.goto(`${server.url}/`);
    await hydrated(page, "MobileNav");
    await page.getByRole("button", { name: "打开菜单" }).click();
    // Type only once the drawer has slid fully in, so the input keeps its focus.
    await page.waitForFunction(() => document.querySelector(".drawer.open")?.getBoundingClientRect().left === 0);
    const box = page.locator(".drawer-search input[name=wd]");
    await box.click();
    await box.pressSequentially("物理", { delay: 40 });
    await options(page, "drawer-suggest").first().waitFor();
    expect((await optionTitles(page, "drawer-suggest")).sort()).toEqual(["初中物理实验大全", "高中物理力学知识点总结", "高中物理电磁学专题"].sort());
    expect((await screenshotCheck(page, "search-suggest-375")).distinctColours).toBeGreaterThan(50);
    await expectAccessible(page);
    await box.fill("力学");
    await Promise.all([page.waitForURL((u) => u.pathname === "/search"), box.press("Enter")]);
    const snippet = page.locator(`a.search-snippet[href*="${MAIN}"]`);
    expect(await snippet.locator(".search-page-label").textContent()).toBe(`第 ${HIT_PAGE} 页`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
    expect((await screenshotCheck(page, "search-results-375")).distinctColours).toBeGreaterThan(50);
    await expectAccessible(page);
    await Promise.all([page.waitForURL((u) => u.pathname === `/document/${MAIN}`), snippet.click()]);
    await hydrated(page, "ReaderPages");
    await page.waitForFunction(() => scrollY > 0);
    expect(await inView(page, `#page-${HIT_PAGE}`)).toBe(true);
  }, TEST_TIMEOUT_MS);
});
