// AI 管理 in real Chromium: provider presets fill base_url, 测试连接 against the stand-in model,
// the 对话记录 list with filters and the detail drawer, the AI 额度 dialog, screenshots.
// Run: bun test ./tests/e2e/ai-admin.e2e.ts
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { startFakeLlm, type FakeLlm } from "../helpers/fakeLlm.ts";
import { ADMIN, hydrated, launchBrowser, screenshotCheck, serverApi, startServer, type Server, type TrackedPage, openAdminPage } from "./harness.ts";

let server: Server;
let browser: Browser;
let fake: FakeLlm;
let token = "";
const opened: TrackedPage[] = [];

/** Chat rows written straight into the server's database (WAL: the server sees them at once). */
function seedChat() {
  const db = new Database(join(server.dataDir, "wenku.db"));
  try {
    const admin = db.query<{ id: number }, [string]>("SELECT id FROM user WHERE username = ?").get(ADMIN.username)!.id;
    const topic = db.query<{ id: number }, [string, number]>("INSERT INTO chat_topic (uuid, user_id, title) VALUES (?, ?, '规章制度问答') RETURNING id")
      .get(crypto.randomUUID().replaceAll("-", ""), admin)!.id;
    const add = db.query(`INSERT INTO chat_message (topic_id, user_id, question, answer, status, total_tokens, first_token_ms, "references", error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    add.run(topic, admin, "年假有几天？", "根据《员工手册》第 3 页，入职满一年可休 5 天年假 [1]。", 1, 850, 380, JSON.stringify([{ title: "员工手册", uuid: "handbook", page: 3, score: 0.91 }]), "");
    add.run(topic, admin, "加班怎么算？", "", 3, 0, 0, "[]", "API Key 无效或已过期，请检查大模型设置中的密钥");
    db.query("UPDATE chat_topic SET message_count = 2 WHERE id = ?").run(topic);
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  fake = startFakeLlm({ reply: "你好，我是测试模型，很高兴为你服务。", firstTokenDelayMs: 30 });
  server = await startServer();
  browser = await launchBrowser();
  token = (await serverApi(server.url, "POST", "/user/login", undefined, ADMIN)).token;
  seedChat();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  fake?.stop();
});

const adminPage = (width = 1280, height = 900) => openAdminPage(browser, server.url, opened, width, height);

describe("AI 管理", () => {
  test("大模型设置: a provider fills base_url; 测试连接 reaches the stand-in model", async () => {
    const { page } = await adminPage();
    await page.goto(`${server.url}/admin/ai/llm`);
    await hydrated(page, "AdminLlmSettings");
    expect(await page.locator(".adm-menu").getByText("AI 管理").isVisible()).toBe(true);
    await page.locator("#f-provider").selectOption("kimi");
    expect(await page.locator("#f-base_url").inputValue()).toBe("https://api.moonshot.cn/v1");
    expect(await page.locator("#f-model").inputValue()).toBe("moonshot-v1-8k");
    await page.getByText("模型如 moonshot-v1-8k").waitFor();
    // Still editable after the autofill.
    await page.locator("#f-provider").selectOption("custom");
    await page.locator("#f-base_url").fill(fake.baseUrl);
    await page.locator("#f-api_key").fill("sk-test");
    await page.locator("#f-model").fill("fake-model");
    await page.getByRole("button", { name: "测试连接" }).click();
    const result = page.getByTestId("llm-test-result");
    await result.getByText(/连接成功，首字延迟 \d+ ms/).waitFor();
    expect(await result.innerText()).toContain("模型回复：你好，我是测试模型");
    expect(fake.requests.at(-1)!.headers.authorization).toBe("Bearer sk-test");
    const shot = await screenshotCheck(page, "admin-ai-llm-1280");
    expect(shot.distinctColours).toBeGreaterThan(50);

    // A wrong key: the provider's error in Chinese, in red.
    await page.locator("#f-api_key").fill("sk-wrong");
    await page.getByRole("button", { name: "测试连接" }).click();
    await result.getByText("API Key 无效或已过期", { exact: false }).waitFor();
    expect(await result.locator("p").first().evaluate((el) => getComputedStyle(el).color)).toBe("rgb(255, 77, 79)");
    opened.at(-1)!.errors.length = 0; // the refused test logs its 502 in the console on purpose
  }, 40_000);

  test("对话记录: the inserted messages, the status filter, the detail drawer", async () => {
    const { page } = await adminPage();
    await page.goto(`${server.url}/admin/ai/chat`);
    await hydrated(page, "AdminChatList");
    const rows = page.locator(".adm-table tbody tr");
    await rows.filter({ hasText: "年假有几天？" }).waitFor();
    expect(await rows.count()).toBe(2);
    await page.getByRole("status").filter({ hasText: "共 2 次提问，合计 850 tokens" }).waitFor();
    await page.getByLabel("状态", { exact: true }).selectOption({ label: "失败" });
    await page.getByRole("button", { name: "查询" }).click();
    await page.getByRole("status").filter({ hasText: "共 1 次提问" }).waitFor();
    expect(await rows.count()).toBe(1);
    expect(await rows.first().innerText()).toContain("加班怎么算？");
    await page.getByRole("button", { name: "重置" }).click();
    await rows.filter({ hasText: "年假有几天？" }).waitFor();
    await page.getByLabel("时间范围").selectOption({ label: "今天" });
    await page.getByRole("status").filter({ hasText: "共 2 次提问" }).waitFor();
    expect((await screenshotCheck(page, "admin-ai-chat-list-1280")).distinctColours).toBeGreaterThan(50);
    // The table fits the content width at 1280 px: nothing to scroll sideways.
    expect(await page.locator(".adm-scroll").evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(1);
    await rows.filter({ hasText: "年假有几天？" }).getByRole("button", { name: "详情" }).click();
    const drawer = page.getByRole("dialog", { name: "对话详情" });
    await drawer.getByText("入职满一年可休 5 天年假").waitFor();
    expect(await drawer.locator('a[href="/document/handbook?page=3"]').innerText()).toBe("员工手册");
    await page.waitForTimeout(300);
    const shot = await screenshotCheck(page, "admin-ai-chat-1280");
    expect(shot.distinctColours).toBeGreaterThan(50);

    // The whole topic, read-only, then deleted from there.
    await drawer.getByRole("link", { name: "查看整个会话" }).click();
    await page.getByRole("heading", { name: "规章制度问答" }).waitFor();
    await page.getByRole("heading", { name: "第 2 轮" }).waitFor();
    await hydrated(page, "AdminChatTopicActions");
    await screenshotCheck(page, "admin-ai-topic-1280");
    await page.getByRole("button", { name: "删除整个会话" }).click();
    await page.getByRole("dialog", { name: "确认删除" }).getByRole("button", { name: "确定删除" }).click();
    await page.waitForURL((u) => u.pathname === "/admin/ai/chat");
    await page.getByText("会话已删除").waitFor();
    await page.getByText("暂无对话记录").waitFor();
  }, 40_000);

  test("AI 额度 dialog on the user list sets and clears a user's own limits", async () => {
    await serverApi(server.url, "POST", "/user", token, { username: "quota_user", password: "quota-pass-1" });
    const { page } = await adminPage();
    await page.goto(`${server.url}/admin/user/list`);
    await hydrated(page, "AdminAiQuota");
    await hydrated(page, "AdminTable");
    await page.locator(".adm-table tbody tr", { hasText: "quota_user" }).getByRole("button", { name: "AI 额度" }).click();
    const dialog = page.getByRole("dialog", { name: "AI 额度 - quota_user" });
    await dialog.getByText("用户组").waitFor();
    await dialog.locator("#f-ai-q").fill("5");
    await dialog.getByRole("button", { name: "保存" }).click();
    await page.getByText("额度已保存").waitFor();
    await dialog.getByText("该用户的单独额度").waitFor();
    expect(await dialog.innerText()).toContain("已用 0 / 5 次");
    await dialog.getByRole("button", { name: "清除（继承）" }).click();
    await page.getByText("已恢复为继承用户组额度").waitFor();
    expect(await dialog.locator("#f-ai-q").inputValue()).toBe("");
    await page.waitForTimeout(200);
    await screenshotCheck(page, "admin-ai-quota-1280");
  }, 40_000);

  test("向量模型 and the dashboard panel render; no console errors anywhere", async () => {
    const { page, errors } = await adminPage();
    await page.goto(`${server.url}/admin/ai/embedding`);
    await page.getByText("关键词检索（BM25 全文索引，按页）").waitFor();
    await screenshotCheck(page, "admin-ai-embedding-1280");
    await page.goto(`${server.url}/admin/dashboard`);
    await page.getByText("AI 使用量（近 14 天）").waitFor();
    await page.locator('section[aria-labelledby="ai-usage-title"]').scrollIntoViewIfNeeded();
    await screenshotCheck(page, "admin-ai-dashboard-1280");
    await page.goto(`${server.url}/admin/config/llm`);
    await hydrated(page, "AdminLlmSettings");
    await page.waitForLoadState("networkidle");
    expect(errors).toEqual([]);
    expect(opened.flatMap((p) => p.errors)).toEqual([]);
  }, 40_000);
});
