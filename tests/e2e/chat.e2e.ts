// AI chat in real Chromium against the stand-in model server (tests/helpers/fakeLlm.ts): a member
// asks from /chat, the answer streams in (partial text visible before the end), its references
// are listed and a citation opens the reader at the cited page; stop mid-answer keeps the partial
// text, closes the upstream connection and survives a reload as 已停止; /chat/history lists and
// renames; "AI 问这篇文档" opens a scoped topic; AI search shows hits and the answer together.
// Screenshots at 1280 and 375; axe-core on /chat and /chat/{uuid}; no console errors.
// Run: bun test ./tests/e2e/chat.e2e.ts
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { closeDatabase, configureDatabase, openDatabase } from "#db/client.ts";
import { hashPassword } from "#src/features/auth/passwords.ts";
import { indexDocument } from "#src/features/search/indexer.ts";
import { invalidateSettings } from "#src/features/settings/service.ts";
import { startFakeLlm, type FakeLlm } from "../helpers/fakeLlm.ts";
import { ADMIN, hydrated, launchBrowser, openPage, screenshotCheck, startServer, type Server, type TrackedPage } from "./harness.ts";

const TEST_TIMEOUT_MS = 60_000;
const MEMBER = { username: "物理课代表", password: "member-e2e-pass" };
const DOC = "e2e0chat00000000000000000000main";
const DOC_TITLE = "高中物理力学知识点总结";
const HASH = "c4a1b2c3d4e5f60718293a4b5c6d7e8f";
const PAGES = 6;
/** The page about Newton's second law: the answer cites it. */
const HIT_PAGE = 4;
const REPLY = "根据文库资料，牛顿第二定律指出：物体的加速度与所受合外力成正比，与物体的质量成反比 [1]。\n\n公式为 $F=ma$，其中 F 是合外力，m 是质量，a 是加速度。\n\n**解题步骤**：受力分析、列方程、求解 [1]。";
const QUESTION = "牛顿第二定律讲了什么？";
const AXE = resolve(import.meta.dir, "../../node_modules/axe-core/axe.min.js");

const pageText = (n: number) => n === HIT_PAGE
  ? "第二章 力学基础。牛顿第二定律指出，物体的加速度与所受合外力成正比，与质量成反比。力学问题的一般解法：受力分析、列方程、求解。"
  : `第 ${n} 页 运动的描述：位移、速度与时间的关系，匀变速直线运动的规律与图像。`;

function pageSvg(n: number) {
  const lines = pageText(n).match(/.{1,26}/g)!.map((l, i) => `<text x="60" y="${140 + i * 30}" font-size="16" fill="#222">${l}</text>`).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="595" height="842" viewBox="0 0 595 842"><rect width="595" height="842" fill="#fff"/><text x="60" y="90" font-size="22" fill="#111">${DOC_TITLE}</text>${lines}<text x="297" y="800" font-size="14" fill="#666" text-anchor="middle">— ${n} —</text></svg>`;
}

let fake: FakeLlm;

/** Admin, a member, one converted and indexed document with page files and text, the llm settings pointing at the stand-in. */
async function seed(dataDir: string) {
  const file = join(dataDir, "wenku.db");
  const { sqlite } = openDatabase(file);
  sqlite.prepare("INSERT INTO user (username, password, is_root) VALUES (?, ?, 1)").run(ADMIN.username, await hashPassword(ADMIN.password));
  sqlite.prepare("INSERT INTO user (username, password) VALUES (?, ?)").run(MEMBER.username, await hashPassword(MEMBER.password));
  const owner = (sqlite.prepare("INSERT INTO user (username, password) VALUES ('物理老师', 'x') RETURNING id").get() as { id: number }).id;
  const { id } = sqlite.prepare(`INSERT INTO document (uuid, title, keywords, description, user_id, hash, ext, size, pages, preview, width, height, status)
    VALUES (?, ?, '物理', '高中物理复习资料', ?, ?, 'pdf', 1234567, ?, ?, 595, 842, 2) RETURNING id`).get(DOC, DOC_TITLE, owner, HASH, PAGES, PAGES) as { id: number };
  for (let n = 1; n <= PAGES; n++) {
    sqlite.prepare("INSERT INTO document_page (document_id, page, text) VALUES (?, ?, ?)").run(id, n, pageText(n));
    const svg = join(dataDir, "documents", HASH.slice(0, 2), HASH, "pages", `${n}.svg`);
    mkdirSync(dirname(svg), { recursive: true });
    writeFileSync(svg, pageSvg(n));
  }
  const conf = sqlite.prepare("INSERT INTO config (category, name, value) VALUES ('llm', ?, ?)");
  for (const [k, v] of Object.entries({ enable: "true", provider: "custom", base_url: fake.baseUrl, api_key: "sk-test", model: "fake-model", timeout: "10" })) conf.run(k, v);
  sqlite.close();
  configureDatabase(() => openDatabase(file));
  invalidateSettings();
  indexDocument(id);
  closeDatabase();
}

let server: Server;
let browser: Browser;
const opened: TrackedPage[] = [];
/** The topic flow 1 creates; later flows reuse it. */
let topicPath = "";

beforeAll(async () => {
  fake = startFakeLlm({ reply: REPLY, chunkSize: 4, chunkDelayMs: 120, firstTokenDelayMs: 200 });
  server = await startServer({}, { beforeStart: seed });
  browser = await launchBrowser();
}, 90_000);

afterAll(async () => {
  for (const p of opened) expect(p.errors).toEqual([]);
  await browser?.close();
  await server?.stop();
  fake?.stop();
});

async function tracked(width: number, height = 900) {
  const p = await openPage(browser, width, height);
  opened.push(p);
  return p;
}

async function login(page: Page) {
  await page.goto(`${server.url}/login`);
  await hydrated(page, "LoginForm");
  await page.locator('input[name="username"]').fill(MEMBER.username);
  await page.locator('input[name="password"]').fill(MEMBER.password);
  await page.locator('main button[type="submit"]').click();
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
}

/** axe-core on the current page: no serious or critical violations. */
async function axe(page: Page) {
  // Evaluated through the debugging protocol: the page's CSP (script-src 'self') would block an
  // inline <script> that addScriptTag({ path }) adds.
  await page.evaluate(readFileSync(AXE, "utf8"));
  const found = await page.evaluate(async () => {
    const r = await (window as unknown as { axe: { run: () => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe.run();
    return r.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  });
  expect(found).toEqual([]);
}

/** Bytes of script the page has loaded, as transferred (the asset route sends the .gz copies). */
const jsBytes = (page: Page) => page.evaluate(() => (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
  .filter((r) => new URL(r.name).pathname.endsWith(".js")).reduce((n, r) => n + r.encodedBodySize, 0));

const lastTurn = (page: Page) => page.locator(".chat-turn").last();
const waitFor = async (check: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await Bun.sleep(20);
  }
};

describe("asking at 1280", () => {
  test("/chat → the answer streams in → references → a citation opens the reader at that page", async () => {
    const { page } = await tracked(1280);
    await login(page);
    await page.goto(`${server.url}/chat`);
    await hydrated(page, "ChatStart");
    await axe(page);
    // The chat pages' scripts, React included, within the chat island budget (temml is not among them).
    await page.goto(`${server.url}/chat/dialog`);
    await hydrated(page, "ChatApp");
    await page.waitForLoadState("networkidle");
    expect(await jsBytes(page)).toBeLessThanOrEqual(120 * 1024);
    await page.goto(`${server.url}/chat`);
    await hydrated(page, "ChatStart");
    expect((await screenshotCheck(page, "chat-start-1280")).distinctColours).toBeGreaterThan(20);
    expect(await page.locator(".chat-quota").textContent()).toMatch(/今日剩余 \d+ 次/);
    const box = page.getByLabel("输入你的问题");
    await box.fill(QUESTION);
    expect(await page.locator(".chat-count").textContent()).toBe(`${[...QUESTION].length} / 2000`);
    const asked = fake.requests.length;
    await Promise.all([page.waitForURL((u) => /^\/chat\/[0-9a-f]{32}$/.test(u.pathname)), box.press("Enter")]);
    await hydrated(page, "ChatApp");
    // The question left the address before the answer began: a reload will not ask it again.
    await page.waitForFunction(() => !location.search);
    topicPath = new URL(page.url()).pathname;

    // Part of the answer is on screen while the stand-in is still writing it.
    const turn = lastTurn(page);
    await page.waitForFunction(() => (document.querySelector('.chat-turn[data-status="0"] .chat-md')?.textContent ?? "").length >= 8);
    const partial = await turn.locator(".chat-md").textContent();
    expect(REPLY.replace(/[*$\n]/g, "").startsWith(partial!.replace(/\s/g, "").slice(0, 6))).toBe(true);
    expect(await page.locator(".chat-send").textContent()).toBe("停止生成");
    expect(await turn.locator(".chat-md").getAttribute("aria-live")).toBe("polite");
    await screenshotCheck(page, "chat-streaming-1280");

    await page.locator('.chat-turn[data-status="1"]').waitFor({ timeout: 15_000 });
    expect(fake.requests.length).toBe(asked + 1);
    expect(await turn.locator(".chat-md").textContent()).toContain("物体的加速度与所受合外力成正比");
    // math went through the lazily loaded temml
    await turn.locator(".chat-md math").first().waitFor();
    expect(await turn.locator(".chat-refs li").first().textContent()).toBe(`1《${DOC_TITLE}》第 ${HIT_PAGE} 页`);
    expect(await turn.locator(".chat-meta").textContent()).toMatch(/\d+ \/ \d+ \/ \d+ tokens/);
    const cite = turn.locator("a.chat-cite").first();
    expect(await cite.getAttribute("href")).toBe(`/document/${DOC}?page=${HIT_PAGE}`);
    expect(await cite.getAttribute("title")).toBe(`《${DOC_TITLE}》第 ${HIT_PAGE} 页`);
    expect((await screenshotCheck(page, "chat-topic-1280")).distinctColours).toBeGreaterThan(50);

    // Export the answer as Word: a .docx download and 导出成功.
    const [download] = await Promise.all([page.waitForEvent("download"), turn.getByRole("button", { name: "导出 Word" }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.docx$/);
    await page.locator(".toast", { hasText: "导出成功" }).waitFor();

    // A reload shows the same conversation from the server and asks nothing again.
    await page.reload();
    await hydrated(page, "ChatApp");
    expect(await page.locator(".chat-turn").count()).toBe(1);
    expect(await lastTurn(page).locator("a.chat-cite").count()).toBe(2);
    expect(fake.requests.length).toBe(asked + 1);
    await axe(page);

    await Promise.all([page.waitForURL((u) => u.pathname === `/document/${DOC}` && u.searchParams.get("page") === String(HIT_PAGE)), lastTurn(page).locator("a.chat-cite").first().click()]);
    await hydrated(page, "ReaderPages");
    await page.waitForFunction(() => scrollY > 0);
    expect(await page.locator(`#page-${HIT_PAGE}`).evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.top >= 0 && r.top < innerHeight / 2;
    })).toBe(true);
  }, TEST_TIMEOUT_MS);

  test("stop mid-answer: the partial text stays, the upstream closes, and a reload shows it as 已停止", async () => {
    const { page } = await tracked(1280);
    await login(page);
    await page.goto(`${server.url}${topicPath}`);
    await hydrated(page, "ChatApp");
    fake.chunkDelayMs = 300;
    try {
      const box = page.getByLabel("输入你的问题");
      await box.fill("再详细说说牛顿第二定律的公式");
      await box.press("Enter");
      await page.waitForFunction(() => (document.querySelector('.chat-turn[data-status="0"] .chat-md')?.textContent ?? "").length >= 12);
      const req = fake.requests.at(-1)!;
      const stoppedAt = Date.now();
      await page.getByRole("button", { name: "停止生成" }).click();
      await page.locator('.chat-turn[data-status="2"]').waitFor();
      const shown = (await lastTurn(page).locator(".chat-md").textContent())!;
      expect(shown.length).toBeGreaterThanOrEqual(12);
      expect(await lastTurn(page).locator(".chat-status-label").textContent()).toBe("已停止");
      await waitFor(() => req.closedAt !== null, 2000);
      expect(req.closedAt! - stoppedAt).toBeLessThan(1000);
      expect(req.finishedAt).toBeNull();
      // the composer works again
      expect(await page.locator(".chat-send").textContent()).toBe("发送");

      await page.reload();
      await hydrated(page, "ChatApp");
      const turn = page.locator(".chat-turn").nth(1);
      expect(await turn.getAttribute("data-status")).toBe("2");
      expect(await turn.locator(".chat-status-label").textContent()).toBe("已停止");
      const saved = (await turn.locator(".chat-md").textContent())!;
      expect(saved.length).toBeGreaterThanOrEqual(12);
      expect(saved.slice(0, 10)).toBe(shown.slice(0, 10));
    } finally {
      fake.chunkDelayMs = 120;
    }
  }, TEST_TIMEOUT_MS);

  test("/chat/history lists the topic; rename works inline and sticks", async () => {
    const { page } = await tracked(1280);
    await login(page);
    await page.goto(`${server.url}/chat/history`);
    await hydrated(page, "ChatHistory");
    const uuid = topicPath.split("/").pop()!;
    const row = page.locator(`.chat-history-item[data-topic="${uuid}"]`);
    expect(await row.locator(".chat-history-title").getAttribute("href")).toBe(topicPath);
    expect(await row.locator(".chat-history-meta").textContent()).toContain("2 条消息");
    await row.getByRole("button", { name: /^重命名/ }).click();
    const input = row.getByLabel("会话标题");
    await input.fill("牛顿定律复习笔记");
    await input.press("Enter");
    await row.locator(".chat-history-title", { hasText: "牛顿定律复习笔记" }).waitFor();
    expect((await screenshotCheck(page, "chat-history-1280")).distinctColours).toBeGreaterThan(20);
    await page.reload();
    await hydrated(page, "ChatHistory");
    expect(await page.locator(`.chat-history-item[data-topic="${uuid}"] .chat-history-title`).textContent()).toBe("牛顿定律复习笔记");
    await page.goto(`${server.url}${topicPath}`);
    expect(await page.locator(".chat-room-title").textContent()).toBe("牛顿定律复习笔记");

    // Delete asks first, then the row goes (and stays gone).
    const doomed = await page.evaluate(async () => (await (await fetch("/api/v1/chat/topic", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ category: 1, title: "要删除的会话" }) })).json()) as { uuid: string });
    await page.goto(`${server.url}/chat/history`);
    await hydrated(page, "ChatHistory");
    const gone = page.locator(`.chat-history-item[data-topic="${doomed.uuid}"]`);
    await gone.getByRole("button", { name: /^删除/ }).click();
    expect(await gone.locator(".chat-history-ask").textContent()).toBe("删除后无法恢复，确定删除？");
    await gone.getByRole("button", { name: "确定删除" }).click();
    await gone.waitFor({ state: "detached" });
    await page.reload();
    expect(await page.locator(`.chat-history-item[data-topic="${doomed.uuid}"]`).count()).toBe(0);
    expect(await page.locator(`.chat-history-item[data-topic="${uuid}"]`).count()).toBe(1);
  }, TEST_TIMEOUT_MS);

  test("AI 问这篇文档 on the reader opens a topic scoped to that document", async () => {
    const { page } = await tracked(1280);
    await login(page);
    await page.goto(`${server.url}/document/${DOC}`);
    await hydrated(page, "AskDocumentButton");
    // The reader stays within the public page budget with the button (scripts gzipped, as sent).
    expect(await jsBytes(page)).toBeLessThanOrEqual(60 * 1024);
    expect((await screenshotCheck(page, "chat-reader-button-1280")).distinctColours).toBeGreaterThan(50);
    await Promise.all([page.waitForURL((u) => /^\/chat\/[0-9a-f]{32}$/.test(u.pathname)), page.getByRole("link", { name: "AI 问这篇文档" }).click()]);
    await hydrated(page, "ChatApp");
    expect(await page.locator(".chat-room-title").textContent()).toBe(DOC_TITLE);
    expect(await page.locator(".chat-scope-chip a").textContent()).toBe(DOC_TITLE);
    expect(await page.locator(".chat-scope-chip button").getAttribute("aria-label")).toBe(`移除《${DOC_TITLE}》`);
  }, TEST_TIMEOUT_MS);

  test("anonymous visitors: the reader's button and /chat lead to login", async () => {
    const { page } = await tracked(1280);
    await page.goto(`${server.url}/document/${DOC}`);
    await hydrated(page, "AskDocumentButton");
    await Promise.all([page.waitForURL((u) => u.pathname === "/login"), page.getByRole("link", { name: "AI 问这篇文档" }).click()]);
    expect(new URL(page.url()).searchParams.get("redirect")).toBe(`/document/${DOC}`);
    await page.goto(`${server.url}/chat`);
    expect(new URL(page.url()).pathname).toBe("/login");
  }, TEST_TIMEOUT_MS);

  test("AI search: the library's hits and the cited answer side by side", async () => {
    const { page } = await tracked(1280);
    await login(page);
    await page.goto(`${server.url}/chat/search`);
    await hydrated(page, "AiSearch");
    await page.getByLabel("搜索问题").fill(QUESTION);
    await page.getByRole("button", { name: "AI 搜索" }).click();
    await page.waitForURL((u) => u.pathname === "/chat/search" && /^[0-9a-f]{32}$/.test(u.searchParams.get("topic") ?? ""));
    const hit = page.locator(".ai-hit").first();
    await hit.waitFor();
    // the hits are there while the answer is still being written
    expect(await page.locator('.ai-search-answer .chat-turn[data-status="0"]').count()).toBe(1);
    expect(await hit.locator(".ai-hit-title").getAttribute("href")).toBe(`/document/${DOC}?page=${HIT_PAGE}`);
    expect(await hit.locator("mark").count()).toBeGreaterThan(0);
    await page.locator('.ai-search-answer .chat-turn[data-status="1"]').waitFor({ timeout: 15_000 });
    expect(await page.locator(".ai-search-answer a.chat-cite").first().getAttribute("href")).toBe(`/document/${DOC}?page=${HIT_PAGE}`);
    expect((await screenshotCheck(page, "chat-search-1280")).distinctColours).toBeGreaterThan(50);
  }, TEST_TIMEOUT_MS);
});

describe("at 375", () => {
  test("a conversation and AI search fit the narrow screen above the tab bar", async () => {
    const { page } = await tracked(375, 812);
    await login(page);
    await page.goto(`${server.url}${topicPath}`);
    await hydrated(page, "ChatApp");
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
    // the question box sits above the bottom tab bar, not under it
    const [dock, bar] = await Promise.all([page.locator(".chat-dock").boundingBox(), page.locator(".chat-sidebar").boundingBox()]);
    expect(dock!.y + dock!.height).toBeLessThanOrEqual(bar!.y + 1);
    expect((await screenshotCheck(page, "chat-topic-375")).distinctColours).toBeGreaterThan(50);
    await page.goto(`${server.url}/chat/history`);
    const href = await page.locator('.chat-history-item:has(.chat-kind-2) a.chat-history-title').first().getAttribute("href");
    await page.goto(`${server.url}/chat/search?topic=${href!.split("/").pop()}`);
    await hydrated(page, "AiSearch");
    await page.locator(".ai-hit").first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
    expect((await screenshotCheck(page, "chat-search-375")).distinctColours).toBeGreaterThan(50);
    await page.goto(`${server.url}/chat`);
    await hydrated(page, "ChatStart");
    expect((await screenshotCheck(page, "chat-start-375")).distinctColours).toBeGreaterThan(20);
    await page.goto(`${server.url}/document/${DOC}`);
    await hydrated(page, "AskDocumentButton");
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
    await page.getByRole("link", { name: "AI 问这篇文档" }).scrollIntoViewIfNeeded();
    await screenshotCheck(page, "chat-reader-button-375");
  }, TEST_TIMEOUT_MS);
});
