// The AI chat pages through the app: /chat, /chat/dialog, /chat/{uuid}, /chat/search and
// /chat/history render for their owner (history on the server with citation links and math),
// send anonymous visitors to /login, answer 404 for someone else's topic, never enter the page
// cache, and show a hostile answer as text. Also the reader's "AI 问这篇文档" button.
import { beforeAll, describe, expect, test } from "bun:test";
import { getSqlite } from "#db/client.ts";
import { indexDocument } from "#src/features/search/indexer.ts";
import { updateConfig } from "#src/features/settings/service.ts";
import { setupTestApp } from "../helpers/testApp.ts";

const t = setupTestApp();
let other = { token: "", id: 0 };
const DOC_UUID = "c0ffee00c0ffee00c0ffee00c0ffee01";
let docId = 0;
const topics: Record<string, { id: number; uuid: string }> = {};

function addTopic(key: string, userId: number, title: string, category = 1) {
  const uuid = crypto.randomUUID().replaceAll("-", "");
  const { id } = getSqlite().query<{ id: number }, [string, number, number, string]>("INSERT INTO chat_topic (uuid, user_id, category, title) VALUES (?, ?, ?, ?) RETURNING id").get(uuid, userId, category, title)!;
  topics[key] = { id, uuid };
  return topics[key]!;
}

function addMessage(topicId: number, userId: number, m: { question: string; answer: string; references?: unknown[]; status?: number; error?: string }) {
  getSqlite().query(`INSERT INTO chat_message (topic_id, user_id, question, answer, "references", status, error, prompt_tokens, completion_tokens, total_tokens) VALUES (?, ?, ?, ?, ?, ?, ?, 120, 30, 150)`)
    .run(topicId, userId, m.question, m.answer, JSON.stringify(m.references ?? []), m.status ?? 1, m.error ?? "");
  getSqlite().query("UPDATE chat_topic SET message_count = message_count + 1 WHERE id = ?").run(topicId);
}

const llm = (values: Record<string, unknown>) => updateConfig(Object.entries(values).map(([name, value]) => ({ category: "llm", name, value })));

beforeAll(async () => {
  const o = await t.createUser("someone-else");
  other = { token: o.token, id: o.user.id };
  docId = getSqlite().query<{ id: number }, [string, number]>(`INSERT INTO document (uuid, title, user_id, hash, ext, size, pages, preview, status)
    VALUES (?, '高中物理公式大全', ?, 'a1b2c3d4e5f60718293a4b5c6d7e8f90', 'pdf', 1000, 8, 8, 2) RETURNING id`).get(DOC_UUID, t.rootId)!.id;
  for (let n = 1; n <= 8; n++) getSqlite().query("INSERT INTO document_page (document_id, page, text) VALUES (?, ?, ?)").run(docId, n, n === 6 ? "动量守恒定律：系统不受外力或所受合外力为零时，系统总动量保持不变。" : `第 ${n} 页 运动学公式`);
  indexDocument(docId);
  const refs = [{ title: "高中物理公式大全", uuid: DOC_UUID, page: 3, score: 0.9 }, { title: "高中物理公式大全", uuid: DOC_UUID, page: 5, score: 0.5 }];
  const a = addTopic("mine", t.userId, "牛顿定律复习");
  addMessage(a.id, t.userId, { question: "牛顿第二定律是什么？", answer: "物体的加速度与合外力成正比 [1]，公式为 $F=ma$ [2]。\n\n| 量 | 单位 |\n|---|---|\n| F | N |", references: refs });
  addMessage(a.id, t.userId, { question: "再举个例子", answer: "例如推车时用力越大", status: 2 });
  addMessage(a.id, t.userId, { question: "还有吗", answer: "", status: 3, error: "模型服务暂时不可用" });
  const x = addTopic("xss", t.userId, "<b>标题</b>");
  addMessage(x.id, t.userId, { question: "<img src=x onerror=alert(2)>", answer: "看这里 <script>alert(1)</script> 和 [x](javascript:alert(1)) 以及 [y](https://example.com/a)" });
  const s = addTopic("search", t.userId, "动量守恒", 2);
  addMessage(s.id, t.userId, { question: "动量守恒的条件", answer: "系统不受外力或所受合外力为零 [1]。", references: refs });
  addTopic("others", other.id, "别人的会话");
  for (let i = 0; i < 23; i++) addTopic(`bulk${i}`, t.userId, `批量会话 ${String(i).padStart(2, "0")}`);
  llm({ enable: true, suggestions: "推荐问题甲\n\n推荐问题乙", max_question_length: 300 });
});

describe("sign-in and ownership", () => {
  test("anonymous visitors of every chat page go to /login with the way back", async () => {
    for (const path of ["/chat", "/chat/dialog", "/chat/history", "/chat/search", `/chat/${topics.mine!.uuid}`]) {
      const r = await t.req("GET", path, { headers: { accept: "text/html" } });
      expect(r.status).toBe(302);
      expect(r.res.headers.get("location")).toBe(`/login?redirect=${encodeURIComponent(path)}`);
    }
  });

  test("someone else's topic, an unknown or malformed uuid is the 404 page; the root administrator may look", async () => {
    for (const path of [`/chat/${topics.others!.uuid}`, `/chat/${"0".repeat(32)}`, "/chat/not-a-uuid", `/chat/search?topic=${topics.others!.uuid}`]) {
      const r = await t.req("GET", path, { token: t.userToken, headers: { accept: "text/html" } });
      expect(r.status).toBe(404);
      expect(r.text).toContain("This page could not be found");
      expect(r.text).not.toContain("别人的会话");
    }
    const root = await t.req("GET", `/chat/${topics.others!.uuid}`, { token: t.rootToken });
    expect(root.status).toBe(200);
    expect(root.text).toContain("别人的会话");
  });
});

describe("a conversation page", () => {
  test("history is rendered on the server: questions, markdown answers, citation links, statuses, math, tokens", async () => {
    const r = await t.req("GET", `/chat/${topics.mine!.uuid}`, { token: t.userToken });
    expect(r.status).toBe(200);
    expect(r.res.headers.get("x-page-cache")).toBeNull();
    expect(r.text).toContain("<title>牛顿定律复习 - AI 对话 - ");
    expect(r.text).toContain('<meta name="robots" content="noindex"/>');
    expect(r.text).toContain("牛顿第二定律是什么？");
    expect(r.text).toContain(`<a class="chat-cite" href="/document/${DOC_UUID}?page=3" title="《高中物理公式大全》第 3 页">[1]</a>`);
    expect(r.text).toContain(`href="/document/${DOC_UUID}?page=5"`);
    // the reference list under the answer
    expect(r.text).toContain("《高中物理公式大全》");
    expect(r.text).toMatch(/<math>[\s\S]*<mi>F<\/mi>/);
    expect(r.text).toContain("<table>");
    expect(r.text).toContain("已停止");
    expect(r.text).toContain("例如推车时用力越大");
    expect(r.text).toContain("模型服务暂时不可用");
    expect(r.text).toContain("120 / 30 / 150 tokens");
    expect(r.text).toContain('aria-live="polite"');
    expect(r.text).toContain('data-island="ChatApp"');
    expect(r.text).toContain("今日剩余");
  });

  test("a hostile answer, question and title show as text: no script, no javascript: link", async () => {
    const r = await t.req("GET", `/chat/${topics.xss!.uuid}`, { token: t.userToken });
    expect(r.status).toBe(200);
    expect(r.text).not.toContain("<script>alert(1)");
    expect(r.text).not.toMatch(/href="\s*javascript:/i);
    expect(r.text).not.toContain("<img src=x");
    expect(r.text).not.toContain("<b>标题</b>");
    expect(r.text).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(r.text).toContain('<a href="https://example.com/a" target="_blank" rel="noopener noreferrer nofollow">y</a>');
  });

  test("/chat/dialog is an empty conversation; ?document= scopes it to a visible document", async () => {
    const plain = await t.req("GET", "/chat/dialog", { token: t.userToken });
    expect(plain.status).toBe(200);
    expect(plain.text).toContain("<title>AI 对话 - ");
    expect(plain.text).toContain("有什么可以帮你？");
    expect(plain.text).not.toContain("chat-scope-chip");
    const scoped = await t.req("GET", `/chat/dialog?document=${DOC_UUID}`, { token: t.userToken });
    expect(scoped.text).toContain("chat-scope-chip");
    expect(scoped.text).toContain(`aria-label="移除《高中物理公式大全》"`);
  });

  test("a scoped topic shows its documents as removable chips", async () => {
    const s = addTopic("scoped", t.userId, "只问这篇");
    getSqlite().query("INSERT INTO chat_topic_document (topic_id, document_id) VALUES (?, ?)").run(s.id, docId);
    const r = await t.req("GET", `/chat/${s.uuid}`, { token: t.userToken });
    expect(r.text).toContain("仅在这些文档中查找");
    expect(r.text).toContain(`href="/document/${DOC_UUID}"`);
  });
});

describe("start, search and history pages", () => {
  test("/chat: big input, suggested questions, recent topics, quota; a notice when AI is off", async () => {
    const r = await t.req("GET", "/chat", { token: t.userToken });
    expect(r.status).toBe(200);
    expect(r.text).toContain("<title>AI 助手 - ");
    expect(r.text).toContain("推荐问题甲");
    expect(r.text).toContain("推荐问题乙");
    expect(r.text).toContain("最近会话");
    expect(r.text).toContain("/ 300");
    expect((r.text.match(/<li><a href="\/chat\/[0-9a-f]{32}">/g) ?? []).length).toBe(5);
    expect(r.text).not.toContain("AI 助手尚未开启");
    llm({ enable: false });
    try {
      const off = await t.req("GET", "/chat", { token: t.userToken });
      expect(off.text).toContain("AI 助手尚未开启，请联系管理员");
      expect(off.text).toMatch(/<textarea[^>]*disabled=""/);
    } finally {
      llm({ enable: true });
    }
  });

  test("/chat/search shows the topic's last question with the library hits and the answer", async () => {
    const empty = await t.req("GET", "/chat/search", { token: t.userToken });
    expect(empty.status).toBe(200);
    expect(empty.text).toContain("<title>AI 搜索 - ");
    const r = await t.req("GET", `/chat/search?topic=${topics.search!.uuid}`, { token: t.userToken });
    expect(r.status).toBe(200);
    expect(r.text).toContain("AI 总结：动量守恒的条件");
    expect(r.text).toContain("系统不受外力或所受合外力为零");
    expect(r.text).toContain(`href="/document/${DOC_UUID}?page=3"`);
    expect(r.text).toContain("文库文档");
    // the library's hit for the same question, linked to its page, snippet HTML with <mark>
    expect(r.text).toContain(`class="ai-hit-title" href="/document/${DOC_UUID}?page=6"`);
    expect(r.text).toMatch(/<mark>动量<\/mark>|<mark>动量守恒<\/mark>/);
  });

  test("/chat/history: both kinds, newest first, 20 a page, search by title", async () => {
    const r = await t.req("GET", "/chat/history", { token: t.userToken });
    expect(r.status).toBe(200);
    expect(r.text).toContain("<title>历史会话 - ");
    expect(r.text).toContain("共 27 个会话");
    expect((r.text.match(/class="chat-history-item"/g) ?? []).length).toBe(20);
    expect(r.text).toContain('href="/chat/history?page=2"');
    expect(r.text).not.toContain("别人的会话");
    const p2 = await t.req("GET", "/chat/history?page=2", { token: t.userToken });
    expect((p2.text.match(/class="chat-history-item"/g) ?? []).length).toBe(7);
    const found = await t.req("GET", `/chat/history?wd=${encodeURIComponent("动量")}`, { token: t.userToken });
    expect(found.text).toContain("找到 1 个标题含“动量”的会话");
    expect(found.text).toContain(`href="/chat/${topics.search!.uuid}"`);
    expect(found.text).toContain("AI 搜索");
  });
});

describe("the reader's AI button", () => {
  test("shown while AI is on (a login link for visitors, a scoped dialog link for members), hidden when off", async () => {
    const anon = await t.req("GET", `/document/${DOC_UUID}`);
    expect(anon.status).toBe(200);
    expect(anon.text).toContain("AI 问这篇文档");
    expect(anon.text).toContain(`href="/login?redirect=${encodeURIComponent(`/document/${DOC_UUID}`)}"`);
    const member = await t.req("GET", `/document/${DOC_UUID}`, { token: t.userToken });
    expect(member.text).toContain(`href="/chat/dialog?document=${DOC_UUID}"`);
    llm({ enable: false });
    try {
      const off = await t.req("GET", `/document/${DOC_UUID}`, { token: t.userToken });
      expect(off.text).not.toContain("AI 问这篇文档");
    } finally {
      llm({ enable: true });
    }
  });
});
