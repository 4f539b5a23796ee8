// AI indexing in real Chromium (issue 16): an admin points 向量模型 at an OpenAI-compatible
// embeddings service (the tests' stand-in), tests the connection, saves and switches it on, watches
// the index build; a wrong key is refused in Chinese. (Retrieval over the vectors is covered by
// tests/integration/retrieval-hybrid.test.ts.)
// Run: bun test ./tests/e2e/ai-indexing.e2e.ts
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { closeDatabase, configureDatabase, openDatabase } from "#db/client.ts";
import { hashPassword } from "#src/features/auth/passwords.ts";
import { indexDocument } from "#src/features/search/indexer.ts";
import { invalidateSettings } from "#src/features/settings/service.ts";
import { startFakeLlm, type FakeLlm } from "../helpers/fakeLlm.ts";
import { ADMIN, hydrated, launchBrowser, screenshotCheck, startServer, type Server, type TrackedPage, openAdminPage } from "./harness.ts";

const DOC = "e2eindexingdoc000000000000000001";
const PAGES = [
  "第一章 总则。本手册适用于公司全体员工，说明入职、考勤与假期的基本规定。",
  "第二章 假期。员工入职满一年后，每年可享受带薪年休假五天；满十年后为十天。年休假须提前三个工作日在系统中申请，由部门负责人审批。",
  "第三章 报销。差旅费用须在出差结束后十五日内提交报销单，附发票原件。",
];

let fake: FakeLlm;
let server: Server;
let browser: Browser;
const opened: TrackedPage[] = [];

async function seed(dataDir: string) {
  const file = join(dataDir, "wenku.db");
  const { sqlite } = openDatabase(file);
  sqlite.prepare("INSERT INTO user (username, password, is_root) VALUES (?, ?, 1)").run(ADMIN.username, await hashPassword(ADMIN.password));
  const owner = (sqlite.prepare("INSERT INTO user (username, password) VALUES ('人事部', 'x') RETURNING id").get() as { id: number }).id;
  const { id } = sqlite.prepare(`INSERT INTO document (uuid, title, keywords, description, user_id, hash, ext, size, pages, preview, width, height, status)
    VALUES (?, '员工手册（2026 版）', '制度', '公司员工手册', ?, 'e2eindexinghash', 'pdf', 4096, ?, ?, 595, 842, 2) RETURNING id`).get(DOC, owner, PAGES.length, PAGES.length) as { id: number };
  PAGES.forEach((text, i) => sqlite.prepare("INSERT INTO document_page (document_id, page, text) VALUES (?, ?, ?)").run(id, i + 1, text));
  sqlite.close();
  configureDatabase(() => openDatabase(file));
  invalidateSettings();
  indexDocument(id);
  closeDatabase();
}

beforeAll(async () => {
  fake = startFakeLlm();
  server = await startServer({}, { beforeStart: seed });
  browser = await launchBrowser();
}, 90_000);

afterAll(async () => {
  for (const p of opened) await p.context.close().catch(() => {});
  await browser?.close();
  await server?.stop();
  fake?.stop();
});

const adminPage = (width = 1280, height = 900) => openAdminPage(browser, server.url, opened, width, height);

describe("向量模型", () => {
  test("test the connection, save and switch on, the index builds and the status shows it", async () => {
    const { page, errors } = await adminPage();
    await page.goto(`${server.url}/admin/ai/embedding`);
    await hydrated(page, "AdminEmbeddingSettings");
    await hydrated(page, "AdminEmbeddingStatus");
    await page.getByText("向量检索未启用").waitFor();

    await page.locator("#f-provider").selectOption("custom");
    await page.locator("#f-base_url").fill(fake.baseUrl);
    await page.locator("#f-api_key").fill("sk-test");
    await page.locator("#f-model").fill("fake-embedding");
    await page.locator("#f-dimensions").fill("64");
    await page.getByRole("button", { name: "测试连接" }).click();
    await page.getByTestId("embedding-test-result").getByText(/连接成功：向量维度 64，耗时 \d+ ms/).waitFor();
    expect(fake.embeddings.requests.at(-1)!.headers.authorization).toBe("Bearer sk-test");

    // The visible track covers the checkbox: click the switch as a person would, by its label.
    await page.locator("label.adm-switch", { has: page.locator("#f-enable") }).click();
    expect(await page.locator("#f-enable").isChecked()).toBe(true);
    await page.getByRole("button", { name: "保存", exact: true }).click();
    await page.getByText("保存成功", { exact: false }).first().waitFor();

    // The first index builds in the background; the status card is refreshed until it is active.
    const active = page.getByRole("region", { name: "当前使用的向量索引" });
    for (let i = 0; i < 40 && !(await active.isVisible()); i++) {
      await page.waitForTimeout(500);
      await page.getByRole("button", { name: "刷新" }).click();
    }
    await active.getByText("已完成文档").waitFor();
    await expect(active.locator(".adm-stat-value").first().innerText()).resolves.toBe("1");
    expect(Number((await active.locator(".adm-stat-value").last().innerText()).replace(/,/g, ""))).toBeGreaterThan(0);
    await page.getByText("没有失败的文档").waitFor();
    await page.waitForTimeout(200);
    expect((await screenshotCheck(page, "admin-ai-embedding-active-1280")).distinctColours).toBeGreaterThan(40);
    expect(errors).toEqual([]);
  }, 90_000);

  test("a wrong key is refused in Chinese by 测试连接, nothing is saved", async () => {
    const { page } = await adminPage();
    await page.goto(`${server.url}/admin/ai/embedding`);
    await hydrated(page, "AdminEmbeddingSettings");
    await page.locator("#f-api_key").fill("sk-wrong");
    await page.getByRole("button", { name: "测试连接" }).click();
    await page.getByTestId("embedding-test-result").getByText("API Key 无效或已过期", { exact: false }).waitFor();
    // The refused test answers 502 on purpose; the saved key is still the right one.
    opened.at(-1)!.errors.length = 0;
    await screenshotCheck(page, "admin-ai-embedding-refused-1280", { allow: ["/api/v1/embedding/test (fetch): 502"] });
    await page.reload();
    await hydrated(page, "AdminEmbeddingSettings");
    await page.getByRole("button", { name: "测试连接" }).click();
    await page.getByTestId("embedding-test-result").getByText(/连接成功：向量维度 64/).waitFor();
  }, 40_000);

  test("375 px: the screen fits the width", async () => {
    const { page } = await adminPage(375);
    await page.goto(`${server.url}/admin/ai/embedding`);
    await hydrated(page, "AdminEmbeddingStatus");
    await page.getByRole("region", { name: "当前使用的向量索引" }).waitFor();
    await screenshotCheck(page, "admin-ai-embedding-375");
  }, 40_000);
});
