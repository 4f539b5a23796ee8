// AI 管理 back office: admin-only APIs and public pages, the 对话记录 list (filters, delete, stats),
// 测试连接 against the stand-in model, the group AI limits and the user list's AI 额度 action.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { getSqlite } from "#db/client.ts";
import { chatStats } from "#src/features/ai/admin/chatAdmin.ts";
import { testConfig } from "#src/features/ai/admin/llmTest.ts";
import { indexCounts } from "#src/features/ai/admin/views.tsx";
import { indexDocument } from "#src/features/search/indexer.ts";
import { resetAll } from "#src/lib/rateLimit.ts";
import { visibleMenu } from "#src/views/layouts/AdminLayout.tsx";
import { startFakeLlm, type FakeLlm } from "../helpers/fakeLlm.ts";
import { setupTestApp } from "../helpers/testApp.ts";

const t = setupTestApp();
const html = { accept: "text/html" };
const SH = 8 * 3_600_000;
/** ms of an Asia/Shanghai wall-clock time. */
const sh = (iso: string) => Date.parse(`${iso}+08:00`);
const root = (method: string, path: string, body?: unknown) => t.req(method, path, { token: t.rootToken, body });

let fake: FakeLlm;
const ids = { alice: 0, bob: 0, topicA: 0, topicB: 0 };
let staffToken = "";

function topic(userId: number, title: string) {
  return getSqlite().query<{ id: number }, [string, number, string]>("INSERT INTO chat_topic (uuid, user_id, title) VALUES (?, ?, ?) RETURNING id")
    .get(crypto.randomUUID().replaceAll("-", ""), userId, title)!.id;
}
function message(topicId: number, userId: number, m: { q: string; a?: string; status?: number; tokens?: number; at: number; refs?: unknown[]; error?: string; first?: number }) {
  const id = getSqlite().query<{ id: number }, (string | number)[]>(
    `INSERT INTO chat_message (topic_id, user_id, question, answer, status, total_tokens, prompt_tokens, completion_tokens, first_token_ms, "references", error, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
  ).get(topicId, userId, m.q, m.a ?? "", m.status ?? 1, m.tokens ?? 0, Math.floor((m.tokens ?? 0) / 2), Math.ceil((m.tokens ?? 0) / 2), m.first ?? 0, JSON.stringify(m.refs ?? []), m.error ?? "", m.at, m.at)!.id;
  getSqlite().query("UPDATE chat_topic SET message_count = (SELECT count(*) FROM chat_message WHERE topic_id = ?1) WHERE id = ?1").run(topicId);
  return id;
}
const count = (sql: string, ...args: number[]) => (getSqlite().query(sql).get(...args) as { n: number }).n;

beforeAll(async () => {
  fake = startFakeLlm({ reply: "你好，我是测试模型。" });
  ids.alice = (await t.createUser("alice")).user.id;
  ids.bob = (await t.createUser("bob")).user.id;
  ids.topicA = topic(ids.alice, "物理公式");
  ids.topicB = topic(ids.bob, "请假流程");
  const long = "长".repeat(300);
  message(ids.topicA, ids.alice, { q: "牛顿第二定律是什么？", a: `F=ma <script>alert(1)</script> ${long}`, tokens: 1200, at: sh("2026-03-01T09:00:00"), first: 420, refs: [{ title: "力学讲义", uuid: "abc", page: 3, score: 0.8 }, { title: "力学讲义", uuid: "abc", page: 5, score: 0.5 }] });
  message(ids.topicA, ids.alice, { q: "动能定理呢？", a: "", status: 3, tokens: 0, at: sh("2026-03-02T23:59:59"), error: "API Key 无效或已过期" });
  message(ids.topicB, ids.bob, { q: "请假需要谁审批？", a: "部门经理", tokens: 300, at: sh("2026-03-03T00:00:00") });
  message(ids.topicB, ids.bob, { q: "病假呢", status: 4, at: sh("2026-03-03T10:00:00"), error: "今日 AI 提问次数已用完" });
  // A staff member whose group may only see search records: an admin, but without the AI APIs.
  const g = await root("POST", "/api/v1/group", { title: "运营" });
  const perms = await root("GET", "/api/v1/permission/list?category=searchrecord&size=100");
  await root("PUT", "/api/v1/group/permission", { id: g.body.id, permission_id: perms.body.permission.map((p: { id: number }) => p.id) });
  await root("POST", "/api/v1/user", { username: "staff", password: "staff-pass-1", group_id: [g.body.id] });
  resetAll();
  staffToken = (await t.req("POST", "/api/v1/user/login", { body: { username: "staff", password: "staff-pass-1" } })).body.token;
});
afterAll(() => fake?.stop());

const CALLS: { method: string; path: string; body?: unknown }[] = [
  { method: "POST", path: "/api/v1/llm/test", body: {} },
  { method: "GET", path: "/api/v1/chat/message/all" },
  { method: "GET", path: "/api/v1/chat/message/detail?id=1" },
  { method: "DELETE", path: "/api/v1/chat/message", body: { id: [1] } },
  { method: "DELETE", path: "/api/v1/chat/topic/all", body: { id: [1] } },
  { method: "GET", path: "/api/v1/chat/stats?days=14" },
];

describe("access", () => {
  test("every AI admin API: 401 anonymous, 403 member, 403 an admin without the permission", async () => {
    for (const c of CALLS) {
      const anon = await t.req(c.method, c.path, { body: c.body });
      expect([c.path, anon.status]).toEqual([c.path, 401]);
      expect(anon.body.message).toMatch(/[\u4e00-\u9fa5]/);
      expect([c.path, (await t.req(c.method, c.path, { token: t.userToken, body: c.body })).status]).toEqual([c.path, 403]);
      expect([c.path, (await t.req(c.method, c.path, { token: staffToken, body: c.body })).status]).toEqual([c.path, 403]);
    }
    expect(count("SELECT count(*) AS n FROM chat_message")).toBe(4);
  });

  test("the APIs are permissions in the AI categories, opening the AI pages", async () => {
    const chat = (await root("GET", "/api/v1/permission/list?category=chat&size=100")).body.permission;
    expect(chat.map((p: { method: string; path: string }) => `${p.method} ${p.path}`).sort()).toEqual(CALLS.slice(1).map((c) => `${c.method} ${c.path.split("?")[0]}`).sort());
    expect(chat.every((p: { page: string }) => p.page === "/admin/ai/chat")).toBe(true);
    const llm = (await root("GET", "/api/v1/permission/list?category=llm&size=100")).body.permission;
    expect(llm).toEqual([expect.objectContaining({ method: "POST", path: "/api/v1/llm/test", page: "/admin/ai/llm" })]);
  });

  const PAGES = ["/admin/ai", "/admin/ai/llm", "/admin/ai/embedding", "/admin/ai/chat", "/admin/ai/chat/topic/1"];
  test("pages: anonymous → login, member → home, root → 200; /admin/ai → /admin/ai/llm", async () => {
    for (const p of PAGES) {
      const anon = await t.req("GET", p, { headers: html });
      expect([p, anon.status, anon.res.headers.get("location")]).toEqual([p, 302, `/login?redirect=${encodeURIComponent(p)}`]);
      const member = await t.req("GET", p, { token: t.userToken, headers: html });
      expect([p, member.status, member.res.headers.get("location")]).toEqual([p, 302, "/"]);
    }
    const r = await t.req("GET", "/admin/ai", { token: t.rootToken, headers: html });
    expect([r.status, r.res.headers.get("location")]).toEqual([302, "/admin/ai/llm"]);
    for (const p of PAGES.slice(1)) expect([p, (await t.req("GET", p, { token: t.rootToken, headers: html })).status]).toEqual([p, 200]);
  });

  test("public to any admin: the menu shows AI 管理 to the staff member, pages open without data", async () => {
    const menu = visibleMenu(["/admin/document/searchrecord"]);
    expect(menu.find((m) => m.key === "ai")?.children?.map((c) => c.href)).toEqual(["/admin/ai/llm", "/admin/ai/embedding", "/admin/ai/chat"]);
    const chat = await t.req("GET", "/admin/ai/chat", { token: staffToken, headers: html });
    expect(chat.status).toBe(200);
    expect(chat.text).toContain("AI 管理");
    expect(chat.text).toContain("你没有查看对话记录的权限");
    expect(chat.text).not.toContain("牛顿第二定律");
    const llm = await t.req("GET", "/admin/ai/llm", { token: staffToken, headers: html });
    expect(llm.text).toContain("你没有查看大模型设置的权限");
    expect(llm.text).not.toContain("AdminLlmSettings");
    expect((await t.req("GET", "/admin/ai/embedding", { token: staffToken, headers: html })).status).toBe(200);
    const dash = await t.req("GET", "/admin/dashboard", { token: staffToken, headers: html });
    expect(dash.text).not.toContain("AI 使用量");
  });
});

describe("pages", () => {
  test("llm settings on /admin/ai/llm and /admin/config/llm: presets, no secret, 测试连接", async () => {
    await root("PUT", "/api/v1/config", { config: [{ category: "llm", name: "api_key", value: "sk-secret-value" }] });
    for (const p of ["/admin/ai/llm", "/admin/config/llm"]) {
      const r = await t.req("GET", p, { token: t.rootToken, headers: html });
      expect(r.text).toContain('data-island="AdminLlmSettings"');
      expect(r.text).toContain("https://api.moonshot.cn/v1");
      expect(r.text).toContain("测试连接");
      expect(r.text).not.toContain("sk-secret-value");
    }
  });

  test("embedding: the retrieval in use, index counts, link to the rebuild screen", async () => {
    const db = getSqlite();
    const doc = db.query<{ id: number }, [number]>("INSERT INTO document (title, uuid, user_id, hash, ext) VALUES ('索引文档', 'index-doc-uuid', ?, 'h2', 'pdf') RETURNING id").get(ids.alice)!.id;
    for (const [page, text] of [[1, "第一页的内容"], [2, "第二页的内容"], [3, ""]] as const) db.query("INSERT INTO document_page (document_id, page, text) VALUES (?, ?, ?)").run(doc, page, text);
    indexDocument(doc);
    expect(indexCounts()).toEqual({ indexed_documents: 1, indexed_pages: 2, text_pages: 3, text_documents: 1 });
    const r = await t.req("GET", "/admin/ai/embedding", { token: t.rootToken, headers: html });
    expect(r.text).toContain("关键词检索（BM25 全文索引，按页）");
    expect(r.text).toContain("已索引页面");
    expect(r.text).toContain('href="/admin/config/search"');
  });

  test("chat list, read-only topic view (escaped), dashboard panel, user list action", async () => {
    const list = await t.req("GET", "/admin/ai/chat", { token: t.rootToken, headers: html });
    expect(list.text).toContain('data-island="AdminChatList"');
    expect(list.text).toContain("请假需要谁审批？");
    const topicView = await t.req("GET", `/admin/ai/chat/topic/${ids.topicA}`, { token: t.rootToken, headers: html });
    expect(topicView.text).toContain("物理公式");
    expect(topicView.text).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(topicView.text).not.toContain("<script>alert(1)");
    expect(topicView.text).toContain('href="/document/abc?page=3"');
    expect((await t.req("GET", "/admin/ai/chat/topic/99999", { token: t.rootToken, headers: html })).status).toBe(404);
    const dash = await t.req("GET", "/admin/dashboard", { token: t.rootToken, headers: html });
    expect(dash.text).toContain("AI 使用量（近 14 天）");
    const users = await t.req("GET", "/admin/user/list", { token: t.rootToken, headers: html });
    expect(users.text).toContain("AI 额度");
    expect(users.text).toContain('data-island="AdminAiQuota"');
  });
});

describe("GET /api/v1/chat/message/all", () => {
  const list = async (q = "") => {
    const r = await root("GET", `/api/v1/chat/message/all${q}`);
    expect([q, r.status]).toEqual([q, 200]);
    return r.body as { total: number; message: { id: number; question: string; answer: string; username: string; status_label: string; ref_count: number; first_token_ms: number; topic_title: string }[]; totals: { questions: number; tokens: number } };
  };
  const qs = async (q: string) => (await list(q)).message.map((m) => m.question);

  test("newest first, cut text, labels, references counted, totals of all matches", async () => {
    const r = await list();
    expect(r.total).toBe(4);
    expect(r.totals).toEqual({ questions: 4, tokens: 1500 });
    expect(r.message.map((m) => m.question)).toEqual(["病假呢", "请假需要谁审批？", "动能定理呢？", "牛顿第二定律是什么？"]);
    const first = r.message.at(-1)!;
    expect(first).toMatchObject({ username: "alice", topic_title: "物理公式", status_label: "已完成", ref_count: 2, first_token_ms: 420 });
    expect(first.answer.length).toBe(80);
    expect(r.message[0]!.status_label).toBe("超出额度");
    expect((await list("?page=2&size=3")).message.map((m) => m.question)).toEqual(["牛顿第二定律是什么？"]);
  });

  test("filters: status, user (name or id), dates (Shanghai days), min tokens, keyword", async () => {
    expect(await qs("?status=3")).toEqual(["动能定理呢？"]);
    expect(await qs("?user=bob")).toEqual(["病假呢", "请假需要谁审批？"]);
    expect(await qs("?user=BOB")).toEqual(["病假呢", "请假需要谁审批？"]);
    expect(await qs(`?user=${ids.alice}`)).toEqual(["动能定理呢？", "牛顿第二定律是什么？"]);
    expect(await qs("?user=nobody")).toEqual([]);
    expect(await qs("?start=2026-03-02&end=2026-03-02")).toEqual(["动能定理呢？"]);
    expect(await qs("?start=2026-03-03")).toEqual(["病假呢", "请假需要谁审批？"]);
    expect(await qs("?end=2026-03-01")).toEqual(["牛顿第二定律是什么？"]);
    expect(await qs("?min_tokens=300")).toEqual(["请假需要谁审批？", "牛顿第二定律是什么？"]);
    expect(await qs("?min_tokens=301")).toEqual(["牛顿第二定律是什么？"]);
    expect(await qs(`?wd=${encodeURIComponent("定理")}`)).toEqual(["动能定理呢？"]);
    expect(await qs(`?wd=${encodeURIComponent("%")}`)).toEqual([]);
    const both = await list(`?user=bob&status=1&min_tokens=1`);
    expect(both.totals).toEqual({ questions: 1, tokens: 300 });
  });

  test("bad filters are a Chinese 400", async () => {
    for (const [q, msg] of [["?status=9", "状态不正确"], ["?start=2026-02-30", "开始日期不存在"], ["?start=2026-3-1", "开始日期格式不正确，应为 YYYY-MM-DD"], ["?start=2026-03-05&end=2026-03-01", "开始日期不能晚于结束日期"], ["?min_tokens=-1", "最少 token 数不能小于 0"], ["?size=0", "每页数量不正确"]] as const) {
      const r = await root("GET", `/api/v1/chat/message/all${q}`);
      expect([q, r.status, r.body.message]).toEqual([q, 400, msg]);
    }
  });

  test("detail: full question and answer, references, error", async () => {
    const id = count("SELECT id AS n FROM chat_message WHERE question = '牛顿第二定律是什么？'");
    const r = await root("GET", `/api/v1/chat/message/detail?id=${id}`);
    expect(r.body.answer.length).toBeGreaterThan(300);
    expect(r.body.references).toEqual([{ title: "力学讲义", uuid: "abc", page: 3, score: 0.8 }, { title: "力学讲义", uuid: "abc", page: 5, score: 0.5 }]);
    expect(r.body.topic_title).toBe("物理公式");
    const failed = await root("GET", `/api/v1/chat/message/detail?id=${count("SELECT id AS n FROM chat_message WHERE status = 3")}`);
    expect(failed.body.error).toBe("API Key 无效或已过期");
    expect((await root("GET", "/api/v1/chat/message/detail?id=99999")).status).toBe(404);
  });
});

describe("stats", () => {
  test("per Asia/Shanghai day: questions (refused excluded), tokens, users", async () => {
    const days = chatStats(3, sh("2026-03-03T12:00:00"));
    expect(days).toEqual([
      { day: "2026-03-01", questions: 1, tokens: 1200, users: 1 },
      { day: "2026-03-02", questions: 1, tokens: 0, users: 1 },
      { day: "2026-03-03", questions: 1, tokens: 300, users: 1 },
    ]);
    const api = await root("GET", "/api/v1/chat/stats?days=14");
    expect(api.body.stats.length).toBe(14);
    expect(api.body.stats.at(-1).day).toBe(new Date(Date.now() + SH).toISOString().slice(0, 10));
    expect(Object.keys(api.body.stats[0]).sort()).toEqual(["day", "questions", "tokens", "users"]);
    expect((await root("GET", "/api/v1/chat/stats?days=0")).status).toBe(400);
  });
});

describe("delete", () => {
  test("messages: counts recounted in the same transaction; unknown ids 404; bad ids 400", async () => {
    const m = getSqlite().query<{ id: number }, [number]>("SELECT id FROM chat_message WHERE topic_id = ? ORDER BY id").all(ids.topicB);
    expect((await root("DELETE", "/api/v1/chat/message", { id: "x" })).status).toBe(400);
    expect((await root("DELETE", "/api/v1/chat/message", {})).body.message).toBe("请选择要删除的记录");
    expect((await root("DELETE", "/api/v1/chat/message", { id: [99999] })).status).toBe(404);
    const r = await root("DELETE", "/api/v1/chat/message", { id: [m[0]!.id, 99999] });
    expect(r.body).toEqual({ message: "删除成功", deleted: 1 });
    expect(count("SELECT message_count AS n FROM chat_topic WHERE id = ?", ids.topicB)).toBe(1);
    expect(count("SELECT count(*) AS n FROM chat_message WHERE topic_id = ?", ids.topicB)).toBe(1);
  });

  test("a whole topic: messages and document scope go with it", async () => {
    const db = getSqlite();
    const doc = db.query<{ id: number }, [number]>("INSERT INTO document (title, uuid, user_id, hash, ext) VALUES ('范围文档', 'scope-doc-uuid', ?, 'h', 'pdf') RETURNING id").get(ids.alice)!;
    db.query("INSERT INTO chat_topic_document (topic_id, document_id) VALUES (?, ?)").run(ids.topicA, doc.id);
    const r = await root("DELETE", "/api/v1/chat/topic/all", { id: [ids.topicA] });
    expect(r.body).toEqual({ message: "删除成功", deleted: 1 });
    expect(count("SELECT count(*) AS n FROM chat_message WHERE topic_id = ?", ids.topicA)).toBe(0);
    expect(count("SELECT count(*) AS n FROM chat_topic_document WHERE topic_id = ?", ids.topicA)).toBe(0);
    expect(count("SELECT count(*) AS n FROM chat_topic WHERE id = ?", ids.topicA)).toBe(0);
    expect((await root("DELETE", "/api/v1/chat/topic/all", { id: [ids.topicA] })).status).toBe(404);
    expect(count("SELECT count(*) AS n FROM chat_topic WHERE id = ?", ids.topicB)).toBe(1);
  });
});

describe("POST /api/v1/llm/test", () => {
  const save = (values: Record<string, string | number>) =>
    root("PUT", "/api/v1/config", { config: Object.entries(values).map(([name, value]) => ({ category: "llm", name, value })) });
  const test_ = (body: unknown) => root("POST", "/api/v1/llm/test", body);

  test("success: latency, total time and the model's reply", async () => {
    fake.mode = "ok";
    const r = await test_({ provider: "custom", base_url: fake.baseUrl, api_key: "sk-test", model: "fake-model" });
    expect(r.status).toBe(200);
    expect(r.body.message).toMatch(/^连接成功，首字延迟 \d+ ms，总耗时 \d+ ms$/);
    expect(r.body.latency_ms).toBeGreaterThanOrEqual(0);
    expect(r.body.reply).toBe("你好，我是测试模型。");
    expect(fake.requests.at(-1)!.body.model).toBe("fake-model");
  });

  test("a blank key is the saved one, but only towards the saved host", async () => {
    await save({ provider: "custom", base_url: fake.baseUrl, api_key: "sk-test", model: "fake-model" });
    expect((await test_({})).status).toBe(200);
    expect((await test_({ api_key: "", model: "fake-model" })).status).toBe(200);
    const other = startFakeLlm();
    try {
      const r = await test_({ base_url: other.baseUrl, api_key: "" });
      expect(r.status).toBe(502);
      expect(other.requests.at(-1)!.headers.authorization).not.toContain("sk-test");
    } finally {
      other.stop();
    }
    expect(testConfig({ base_url: "https://evil.example/v1" }, { provider: "custom", base_url: "https://api.deepseek.com", api_key: "k", model: "m", temperature: 0, max_tokens: 1, timeout: 5 }).api_key).toBe("");
  });

  test("401 from the provider: Chinese message about the key", async () => {
    fake.mode = "unauthorized";
    const r = await test_({ base_url: fake.baseUrl, api_key: "sk-test", model: "fake-model" });
    expect(r.status).toBe(502);
    expect(r.body.code).toBe("llm_http_401");
    expect(r.body.message).toContain("API Key 无效");
    fake.mode = "ok";
  });

  test("nothing listening: 无法连接", async () => {
    const r = await test_({ base_url: "http://127.0.0.1:1/v1", api_key: "sk-test", model: "fake-model" });
    expect(r.status).toBe(502);
    expect(r.body.message).toContain("无法连接");
  });

  test("a hanging provider times out after llm.timeout, not a hang", async () => {
    await save({ timeout: 5 });
    fake.mode = "hang";
    const started = Date.now();
    const r = await test_({ base_url: fake.baseUrl, api_key: "sk-test", model: "fake-model" });
    const took = Date.now() - started;
    fake.mode = "ok";
    expect(r.status).toBe(504);
    expect(r.body.message).toContain("5 秒内没有响应");
    expect(took).toBeGreaterThan(4_000);
    expect(took).toBeLessThan(8_000);
  }, 15_000);

  test("bad bodies are a Chinese 400", async () => {
    for (const [body, msg] of [
      [{ base_url: "ftp://example.com" }, "接口地址（base_url）格式不正确，应以 http:// 或 https:// 开头"],
      [{ base_url: "javascript:alert(1)" }, "接口地址（base_url）格式不正确，应以 http:// 或 https:// 开头"],
      [{ base_url: "" }, "请输入接口地址（base_url）"],
      [{ provider: "openai-free" }, "不支持的模型服务商"],
      [{ model: "" }, "请输入模型名称"],
      [{ api_key: 123 }, "API Key 必须是文本"],
      ["{not json", null],
    ] as const) {
      const r = await t.req("POST", "/api/v1/llm/test", { token: t.rootToken, body, headers: { "content-type": "application/json" } });
      expect([JSON.stringify(body), r.status]).toEqual([JSON.stringify(body), 400]);
      if (msg) expect(r.body.message).toBe(msg);
      else expect(r.body.message).toMatch(/[\u4e00-\u9fa5]/);
    }
  });
});

describe("group AI limits", () => {
  test("create/update accept integers ≥ -1; -2, fractions and text are a 400; the list shows them", async () => {
    const g = await root("POST", "/api/v1/group", { title: "AI 组", ai_questions_per_day: 10, ai_tokens_per_month: -1 });
    expect(g.status).toBe(200);
    expect(g.body).toMatchObject({ ai_questions_per_day: 10, ai_tokens_per_month: -1 });
    const plain = await root("POST", "/api/v1/group", { title: "默认额度组" });
    expect(plain.body).toMatchObject({ ai_questions_per_day: 50, ai_tokens_per_month: 1_000_000 });
    for (const [body, msg] of [
      [{ id: g.body.id, ai_questions_per_day: -2 }, "每日 AI 提问次数不能小于 -1（-1 表示不限）"],
      [{ id: g.body.id, ai_tokens_per_month: 1.5 }, "每月 AI token 额度必须是整数"],
      [{ id: g.body.id, ai_tokens_per_month: "many" }, "每月 AI token 额度必须是数字"],
    ] as const) {
      const r = await root("PUT", "/api/v1/group", body);
      expect([r.status, r.body.message]).toEqual([400, msg]);
    }
    expect((await root("POST", "/api/v1/group", { title: "坏组", ai_questions_per_day: -2 })).status).toBe(400);
    expect((await root("PUT", "/api/v1/group", { id: g.body.id, ai_questions_per_day: -1 })).body.ai_questions_per_day).toBe(-1);
    const list = await root("GET", "/api/v1/group/list");
    expect(list.body.group.find((x: { id: number }) => x.id === g.body.id)).toMatchObject({ ai_questions_per_day: -1, ai_tokens_per_month: -1 });
    const page = await t.req("GET", "/admin/user/group", { token: t.rootToken, headers: html });
    expect(page.text).toContain("每日 AI 提问次数（-1 不限）");
    expect(page.text).toContain("每月 AI token 额度（-1 不限）");
  });
});
