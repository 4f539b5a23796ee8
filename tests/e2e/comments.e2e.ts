// Comments and reports in real Chromium: a visitor sees the comments under a document and a login
// prompt; a member comments, replies (one level), switches to 最热, deletes their own comment and
// comments under an article; an administrator approves a waiting comment in /admin/comment and
// punishes the author of a reported article in /admin/report. Screenshots at 1280 and 375 px; axe on the reader page.
// Run: bun test ./tests/e2e/comments.e2e.ts
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import type { Browser, Page } from "playwright-core";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { openDatabase } from "#db/client.ts";
import { hashPassword } from "#src/features/auth/passwords.ts";
import { ADMIN, axe, hydrated, launchBrowser, loginAsAdmin, openPage, screenshotCheck, startServer, type Server, type TrackedPage } from "./harness.ts";

const TEST_TIMEOUT_MS = 40_000;
const UUID = "e2e0comment000000000000000000001";
const HASH = "fedcba9876543210fedcba9876543210";
const MEMBER = { username: "读者小王", password: "member-e2e-pass" };

const pageSvg = (n: number) => `<svg xmlns="http://www.w3.org/2000/svg" width="595" height="842" viewBox="0 0 595 842"><rect width="595" height="842" fill="#fff"/><text x="60" y="120" font-size="24" fill="#222">Python 入门讲义 第 ${n} 页</text>${Array.from({ length: 14 }, (_, i) => `<rect x="60" y="${170 + i * 30}" width="${280 + ((n * 41 + i * 67) % 190)}" height="10" rx="3" fill="#d9dde3"/>`).join("")}</svg>`;

/** Administrator, a member who may comment, a document with pages and comments, an article with a report. */
async function seed(dataDir: string) {
  const { sqlite } = openDatabase(join(dataDir, "wenku.db"));
  const addUser = sqlite.prepare("INSERT INTO user (username, password, is_root) VALUES (?, ?, ?) RETURNING id");
  addUser.get(ADMIN.username, await hashPassword(ADMIN.password), 1);
  const member = (addUser.get(MEMBER.username, await hashPassword(MEMBER.password), 0) as { id: number }).id;
  const others = ["编程爱好者", "数据分析师", "大学生小李"].map((name) => (addUser.get(name, "x", 0) as { id: number }).id);
  for (const id of [member, ...others]) sqlite.prepare("INSERT INTO user_group (user_id, group_id) VALUES (?, 2)").run(id);
  const doc = (sqlite.prepare(`INSERT INTO document (uuid, title, description, user_id, hash, ext, size, pages, preview, width, height, status)
    VALUES (?, 'Python 编程入门讲义', '从变量、函数到模块的入门讲义，附练习。', ?, ?, 'pdf', 523456, 3, 3, 595, 842, 2) RETURNING id`).get(UUID, others[0], HASH) as { id: number }).id;
  for (let n = 1; n <= 3; n++) {
    const file = join(dataDir, "documents", HASH.slice(0, 2), HASH, "pages", `${n}.svg`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, pageSvg(n));
  }
  const hour = 3600_000;
  const add = sqlite.prepare("INSERT INTO comment (user_id, document_id, article_id, parent_id, reply_user_id, content, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id");
  const top = (add.get(others[1], doc, null, null, 0, "讲义结构很清楚，第二章的函数部分例子很实用。\n希望能补充一些关于装饰器的内容。", 0, Date.now() - 30 * hour) as { id: number }).id;
  add.get(others[2], doc, null, top, others[1], "同意，装饰器那块我也一直没弄懂。", 0, Date.now() - 20 * hour);
  add.get(others[0], doc, null, top, others[2], "下一版会加上，感谢建议！", 0, Date.now() - 2 * hour);
  add.get(others[2], doc, null, null, 0, "请问有配套的练习答案吗？", 0, Date.now() - 5 * hour);
  add.get(others[2], doc, null, null, 0, "这条评论等待审核：资料不错，已收藏。", 2, Date.now() - hour);
  sqlite.prepare("UPDATE comment SET reply_count = 2 WHERE id = ?").run(top);
  sqlite.prepare("UPDATE document SET comment_count = 4 WHERE id = ?").run(doc);
  const art = (sqlite.prepare("INSERT INTO article (identifier, title, content, user_id, status) VALUES ('ad-spam-post', '限时领取免费资料', '加微信领取', ?, 1) RETURNING id").get(others[1]) as { id: number }).id;
  sqlite.prepare("INSERT INTO report (user_id, article_id, reason, remark) VALUES (?, ?, 1, '文章里全是广告链接')").run(member, art);
  // The member comments and then replies within seconds; the 10 s default interval has its own route test.
  sqlite.prepare("INSERT INTO config (category, name, value) VALUES ('comment', 'min_interval', '0')").run();
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
const docUrl = () => `${server.url}/document/${UUID}`;

async function loginAsMember(page: Page) {
  await page.goto(`${server.url}/login`);
  await page.locator('input[name="username"]').fill(MEMBER.username);
  await page.locator('input[name="password"]').fill(MEMBER.password);
  await page.locator('main button[type="submit"]:not([disabled])').click();
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
}

/** Comments hydrate when scrolled near (Island hydrate="visible"): scroll first, then wait for it. */
async function showComments(page: Page) {
  await page.evaluate(() => document.getElementById("comments")!.scrollIntoView({ block: "start" }));
  await hydrated(page, "Comments");
}

async function expectAccessible(page: Page) {
  const found = (await axe(page)).map((v) => `${v.id} (${v.impact}: ${v.help}) on ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`);
  expect(found).toEqual([]);
}

describe("comments under a document", () => {
  test("a visitor reads the threads (newest first, replies under their comment) and is asked to log in", async () => {
    const { page } = await tracked(1280);
    await page.goto(docUrl());
    await showComments(page);
    expect(await page.locator("#comments-title").textContent()).toBe("评论 4");
    expect(await page.locator(".cmt-list > .cmt-item").count()).toBe(2);
    expect(await page.locator(".cmt-list > .cmt-item").first().textContent()).toContain("请问有配套的练习答案吗？");
    expect(await page.locator(".cmt-replies .cmt-item").count()).toBe(2);
    expect(await page.getByText("这条评论等待审核").count()).toBe(0);
    await page.locator("#comments").getByRole("link", { name: "登录", exact: true }).waitFor();
    await screenshotCheck(page, "comments-1280-visitor");
    await expectAccessible(page);
  }, TEST_TIMEOUT_MS);

  test("a member comments, replies to a reply, switches to 最热 and deletes their own comment", async () => {
    const { page } = await tracked(1280);
    await loginAsMember(page);
    await page.goto(docUrl());
    await showComments(page);
    const box = page.locator(".cmt > .cmt-form textarea");
    await box.fill("第一次评论：讲义很适合零基础。");
    await page.getByRole("button", { name: "发表评论" }).click();
    await page.getByText("评论成功").first().waitFor();
    const first = page.locator(".cmt-list > .cmt-item").first();
    expect(await first.textContent()).toContain("第一次评论：讲义很适合零基础。");
    expect(await page.locator("#comments-title").textContent()).toBe("评论 5");

    // Replying to a reply lands in the same thread and names whom it answers.
    const thread = page.locator(".cmt-list > .cmt-item", { hasText: "讲义结构很清楚" });
    await thread.locator(".cmt-reply", { hasText: "下一版会加上" }).getByRole("button", { name: "回复" }).click();
    await thread.locator(".cmt-form textarea").fill("期待新版！");
    await thread.locator(".cmt-form").getByRole("button", { name: "回复" }).click();
    const reply = thread.locator(".cmt-reply", { hasText: "期待新版！" });
    await reply.waitFor();
    expect(await reply.locator(".cmt-reply-to").textContent()).toBe("回复 @编程爱好者");
    await screenshotCheck(page, "comments-1280-member");

    await page.getByRole("link", { name: "最热" }).click();
    await page.waitForFunction(() => location.search === "?comment_sort=hot");
    await page.locator(".cmt-sort.active", { hasText: "最热" }).waitFor();
    expect(await page.locator(".cmt-list > .cmt-item").first().textContent()).toContain("讲义结构很清楚");

    await page.getByRole("link", { name: "最新" }).click();
    const mine = page.locator(".cmt-list > .cmt-item", { hasText: "第一次评论" });
    await mine.locator(".cmt-actions").first().getByRole("button", { name: "删除" }).click();
    await mine.getByRole("button", { name: "确定" }).click();
    await page.getByText("评论已删除").waitFor();
    expect(await page.locator(".cmt-list > .cmt-item", { hasText: "第一次评论" }).count()).toBe(0);
    await page.reload();
    await showComments(page);
    expect(await page.locator("#comments-title").textContent()).toBe("评论 5");
    expect(await page.getByText("第一次评论").count()).toBe(0);
  }, TEST_TIMEOUT_MS);

  test("the same comments under an article at /article/{identifier}", async () => {
    const { page } = await tracked(1280);
    await loginAsMember(page);
    await page.goto(`${server.url}/article/ad-spam-post`);
    await showComments(page);
    expect(await page.locator("#comments-title").textContent()).toBe("评论 0");
    await page.locator(".cmt > .cmt-form textarea").fill("文章下的第一条评论。");
    await page.getByRole("button", { name: "发表评论" }).click();
    await page.getByText("评论成功").first().waitFor();
    expect(await page.locator("#comments-title").textContent()).toBe("评论 1");
    expect(await page.locator(".cmt-list > .cmt-item").first().textContent()).toContain("文章下的第一条评论。");
    await screenshotCheck(page, "comments-article-1280");
  }, TEST_TIMEOUT_MS);

  test("375 px: the comments fit the screen", async () => {
    const { page } = await tracked(375, 800);
    await loginAsMember(page);
    await page.goto(docUrl());
    await showComments(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
    await screenshotCheck(page, "comments-375");
    await expectAccessible(page);
  }, TEST_TIMEOUT_MS);
});

describe("back office", () => {
  test("/admin/comment: the waiting comment is approved and appears under the document", async () => {
    const { page } = await tracked(1280);
    await loginAsAdmin(page, server.url);
    await page.goto(`${server.url}/admin/comment`);
    await hydrated(page, "AdminCommentList");
    const row = page.locator(".adm-table tbody tr", { hasText: "这条评论等待审核" });
    await row.waitFor();
    await screenshotCheck(page, "admin-comment-1280");
    await row.getByRole("checkbox").check();
    await page.getByRole("button", { name: "审核通过" }).click();
    await page.getByText("操作成功").waitFor();
    await page.locator(".adm-table tbody", { hasText: "暂无评论" }).waitFor();
    await page.getByRole("tab", { name: "正常" }).click();
    await page.locator(".adm-table tbody tr", { hasText: "这条评论等待审核" }).waitFor();

    const visitor = await tracked(1280);
    await visitor.page.goto(docUrl());
    await showComments(visitor.page);
    expect(await visitor.page.locator(".cmt-list").textContent()).toContain("这条评论等待审核：资料不错，已收藏。");

    const narrow = await tracked(375, 800);
    await loginAsAdmin(narrow.page, server.url);
    await narrow.page.goto(`${server.url}/admin/comment`);
    await hydrated(narrow.page, "AdminCommentList");
    await screenshotCheck(narrow.page, "admin-comment-375");
  }, TEST_TIMEOUT_MS);

  test("/admin/report: an article report; 处罚作者 (禁止评论 for 7 days by default) handles it", async () => {
    const { page } = await tracked(1280);
    await loginAsAdmin(page, server.url);
    await page.goto(`${server.url}/admin/report`);
    await hydrated(page, "AdminReportList");
    const row = page.locator(".adm-table tbody tr", { hasText: "限时领取免费资料" });
    await row.waitFor();
    expect(await row.textContent()).toContain("文章");
    expect(await row.textContent()).toContain("数据分析师");
    await screenshotCheck(page, "admin-report-1280");
    await row.getByRole("button", { name: "处罚作者" }).click();
    const dialog = page.getByRole("dialog", { name: "处罚作者" });
    await dialog.waitFor();
    await screenshotCheck(page, "admin-report-punish-1280");
    await dialog.getByRole("button", { name: "确定处罚" }).click();
    await page.getByText("已处罚 1 位作者，1 条举报已处理").waitFor();
    const db = new Database(join(server.dataDir, "wenku.db"), { readonly: true });
    const given = db.query("SELECT p.type, p.end_time - p.start_time AS span FROM punishment p JOIN user u ON u.id = p.user_id WHERE u.username = '数据分析师'").all();
    db.close();
    expect(given).toEqual([{ type: 2, span: 7 * 86_400_000 }]);
    await page.getByRole("tab", { name: "已处理" }).click();
    await page.locator(".adm-table tbody tr", { hasText: "限时领取免费资料" }).waitFor();

    const narrow = await tracked(375, 800);
    await loginAsAdmin(narrow.page, server.url);
    await narrow.page.goto(`${server.url}/admin/report`);
    await hydrated(narrow.page, "AdminReportList");
    await screenshotCheck(narrow.page, "admin-report-375");
  }, TEST_TIMEOUT_MS);
});
