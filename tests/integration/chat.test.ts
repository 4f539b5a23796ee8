import { beforeAll, describe, expect, test } from "bun:test";
import { getSqlite } from "#db/client.ts";
import { updateConfig } from "#src/features/settings/service.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { configureLlm, newTopic, readEvents, streamAsk, textOf, until, useFakeLlm } from "./chat-fixtures.ts";
import { addDoc, addFiller } from "./search-fixtures.ts";

const t = setupTestApp();
const fake = useFakeLlm({ reply: "光合作用在叶绿体中进行 [1]。", chunkSize: 3 });
let other = { token: "", id: 0 };
let doc = { id: 0, uuid: "" };

beforeAll(async () => {
  configureLlm(fake.llm);
  const o = await t.createUser("other-member");
  other = { token: o.token, id: o.user.id };
  addFiller(20);
  doc = addDoc({ title: "植物学基础", pages: ["第一章 细胞结构", "光合作用发生在叶绿体中，把光能转化为化学能。"] });
});

const row = (id: number) => getSqlite().query("SELECT * FROM chat_message WHERE id = ?").get(id) as Record<string, any>;

describe("topics", () => {
  test("create, get, rename, list with category and title search, delete", async () => {
    const a = await newTopic(t, t.userToken, { category: 1, title: "第一个会话" });
    const b = await newTopic(t, t.userToken, { category: 2, document_id: [doc.id] });
    expect(a.uuid).toMatch(/^[0-9a-f]{32}$/);
    const got = await t.req("GET", `/api/v1/chat/topic?uuid=${b.uuid}`, { token: t.userToken });
    expect(got.status).toBe(200);
    expect(got.body.category).toBe(2);
    expect(got.body.title).toBe("植物学基础");
    expect(got.body.document.map((d: { uuid: string }) => d.uuid)).toEqual([doc.uuid]);
    expect((await t.req("PUT", "/api/v1/chat/topic", { token: t.userToken, body: { id: a.id, title: "改过的名字" } })).status).toBe(200);
    const dialogs = await t.req("GET", "/api/v1/chat/topic/list?category=1", { token: t.userToken });
    expect(dialogs.body.topic.map((x: { id: number }) => x.id)).toContain(a.id);
    expect(dialogs.body.topic.map((x: { id: number }) => x.id)).not.toContain(b.id);
    const found = await t.req("GET", `/api/v1/chat/topic/list?wd=${encodeURIComponent("改过")}`, { token: t.userToken });
    expect(found.body).toMatchObject({ total: 1, topic: [{ id: a.id, title: "改过的名字" }] });
    const docs = await t.req("GET", `/api/v1/chat/topic/document?topic_id=${b.id}`, { token: t.userToken });
    expect(docs.body.document[0].title).toBe("植物学基础");
    expect((await t.req("DELETE", `/api/v1/chat/topic?id=${a.id}`, { token: t.userToken })).status).toBe(200);
    expect((await t.req("DELETE", "/api/v1/chat/topic", { token: t.userToken, body: { id: [b.id] } })).status).toBe(200);
    expect((await t.req("GET", `/api/v1/chat/topic?id=${a.id}`, { token: t.userToken })).status).toBe(404);
  });

  test("another user's topic is not found for every call; anonymous callers must log in", async () => {
    const mine = await newTopic(t, t.userToken);
    const o = { token: other.token };
    const calls: [string, string, unknown?][] = [
      ["GET", `/api/v1/chat/topic?id=${mine.id}`],
      ["PUT", "/api/v1/chat/topic", { id: mine.id, title: "偷改" }],
      ["DELETE", `/api/v1/chat/topic?id=${mine.id}`],
      ["GET", `/api/v1/chat/topic/document?topic_id=${mine.id}`],
      ["GET", `/api/v1/chat/message/list?topic_id=${mine.id}`],
      ["POST", "/api/v1/chat/message", { topic_id: mine.id, content: "你好" }],
      ["POST", "/api/v1/chat/stream", { topic_id: mine.id, content: "你好" }],
      ["DELETE", "/api/v1/chat/message/document", { topic_id: mine.id, document_id: doc.id }],
    ];
    for (const [m, p, body] of calls) {
      const r = await t.req(m, p, { ...o, body });
      expect({ call: `${m} ${p}`, status: r.status }).toEqual({ call: `${m} ${p}`, status: 404 });
      expect(r.body.message).toMatch(/[\u4e00-\u9fa5]/);
      expect((await t.req(m, p, { body })).status).toBe(401);
    }
    expect((await t.req("GET", `/api/v1/chat/topic?id=${mine.id}`, { token: t.rootToken })).status).toBe(200);
    expect((await t.req("GET", `/api/v1/chat/topic?id=${mine.id}`, { token: t.userToken })).body.title).toBe("");
  });

  test("bad input: unknown or hidden documents, too many, wrong types", async () => {
    const hidden = addDoc({ title: "未转换", pages: ["x"], status: 0 });
    expect((await t.req("POST", "/api/v1/chat/topic", { token: t.userToken, body: { category: 1, document_id: [hidden.id] } })).status).toBe(404);
    expect((await t.req("POST", "/api/v1/chat/topic", { token: t.userToken, body: { category: 1, document_id: [999999] } })).status).toBe(404);
    const many = await t.req("POST", "/api/v1/chat/topic", { token: t.userToken, body: { category: 1, document_id: Array.from({ length: 21 }, (_, i) => i + 1) } });
    expect(many.status).toBe(400);
    expect(many.body.message).toContain("最多关联 20 篇");
    expect((await t.req("POST", "/api/v1/chat/topic", { token: t.userToken, body: { category: "x" } })).status).toBe(400);
    expect((await t.req("POST", "/api/v1/chat/topic", { token: t.userToken, body: "{broken" , headers: { "content-type": "application/json" } })).status).toBe(400);
    const before = (getSqlite().query("SELECT count(*) AS n FROM chat_topic").get() as { n: number }).n;
    await t.req("POST", "/api/v1/chat/topic", { token: t.userToken, body: { category: 1, document_id: [doc.id, 999999] } });
    expect((getSqlite().query("SELECT count(*) AS n FROM chat_topic").get() as { n: number }).n).toBe(before);
  });

  test("removing a document from a topic's scope", async () => {
    const tp = await newTopic(t, t.userToken, { category: 1, document_id: [doc.id] });
    expect((await t.req("DELETE", "/api/v1/chat/message/document", { token: t.userToken, body: { topic_id: tp.id, document_id: doc.id } })).status).toBe(200);
    const again = await t.req("DELETE", "/api/v1/chat/message/document", { token: t.userToken, body: { topic_id: tp.id, document_id: doc.id } });
    expect(again.status).toBe(404);
    expect((await t.req("GET", `/api/v1/chat/topic/document?topic_id=${tp.id}`, { token: t.userToken })).body.document).toEqual([]);
  });
});

describe("answers", () => {
  test("the stream: reference first, deltas as written, done last with the provider's usage; saved", async () => {
    const tp = await newTopic(t, t.userToken);
    const res = await streamAsk(t, t.userToken, { topic_id: tp.id, content: "光合作用在哪里进行？" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/x-ndjson");
    const events = await readEvents(res);
    expect(events[0]!.type).toBe("reference");
    expect(events[0]!.document[0]).toMatchObject({ title: "植物学基础", uuid: doc.uuid, page: 2 });
    expect(events.filter((e) => e.type === "delta").length).toBeGreaterThan(3);
    expect(textOf(events)).toBe("光合作用在叶绿体中进行 [1]。");
    const done = events.at(-1)!;
    expect(done).toMatchObject({ type: "done", status: 1, usage: { estimated: false } });
    expect(done.usage.total_tokens).toBe(done.usage.prompt_tokens + done.usage.completion_tokens);
    const m = row(done.message_id);
    expect(m).toMatchObject({ status: 1, answer: "光合作用在叶绿体中进行 [1]。", total_tokens: done.usage.total_tokens, usage_estimated: 0 });
    expect(JSON.parse(m.references)[0].page).toBe(2);
    const list = await t.req("GET", `/api/v1/chat/message/list?topic_id=${tp.id}`, { token: t.userToken });
    expect(list.body.message[0]).toMatchObject({ question: "光合作用在哪里进行？", status: 1, references: [{ uuid: doc.uuid, page: 2 }] });
    const topic = await t.req("GET", `/api/v1/chat/topic?id=${tp.id}`, { token: t.userToken });
    expect(topic.body).toMatchObject({ title: "光合作用在哪里进行？", message_count: 1 });
    // Usage was asked for the way the issue says: stream_options.include_usage.
    expect(fake.llm.requests.at(-1)!.body.stream_options).toEqual({ include_usage: true });
  });

  test("POST /chat/message answers in one JSON; a provider without usage gets estimated counts", async () => {
    fake.llm.mode = "nousage";
    try {
      const tp = await newTopic(t, t.userToken);
      const r = await t.req("POST", "/api/v1/chat/message", { token: t.userToken, body: { topic_id: tp.id, content: "叶绿体有什么作用？" } });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ question: "叶绿体有什么作用？", answer: "光合作用在叶绿体中进行 [1]。", status: 1 });
      expect(r.body.total_tokens).toBeGreaterThan(0);
      expect(row(r.body.id).usage_estimated).toBe(1);
    } finally {
      fake.llm.mode = "ok";
    }
  });

  test("a follow-up question searches with the earlier question's words", async () => {
    const tp = await newTopic(t, t.userToken);
    await readEvents(await streamAsk(t, t.userToken, { topic_id: tp.id, content: "光合作用是什么？" }));
    const events = await readEvents(await streamAsk(t, t.userToken, { topic_id: tp.id, content: "它发生在哪里呢？" }));
    const m = row(events.at(-1)!.message_id);
    expect(m.search_query).toContain("光合作用");
    expect(events[0]!.document[0].uuid).toBe(doc.uuid);
    // The earlier turn is in the prompt as conversation.
    const sent = fake.llm.requests.at(-1)!.body.messages as { role: string; content: string }[];
    expect(sent.map((x) => x.role)).toEqual(["system", "user", "assistant", "user"]);
  });

  test("regenerate replaces the earlier answer", async () => {
    const tp = await newTopic(t, t.userToken);
    const first = await readEvents(await streamAsk(t, t.userToken, { topic_id: tp.id, content: "光合作用的产物？" }));
    const id = first.at(-1)!.message_id;
    const again = await readEvents(await streamAsk(t, t.userToken, { topic_id: tp.id, content: "光合作用的产物？", replace_id: id }));
    expect(again.at(-1)!.message_id).not.toBe(id);
    expect(row(id)).toBeNull();
    const list = await t.req("GET", `/api/v1/chat/message/list?topic_id=${tp.id}`, { token: t.userToken });
    expect(list.body.total).toBe(1);
  });

  test("refusals before the stream are plain HTTP errors with Chinese messages and write nothing", async () => {
    const tp = await newTopic(t, t.userToken);
    const count = () => (getSqlite().query("SELECT count(*) AS n FROM chat_message WHERE topic_id = ?").get(tp.id) as { n: number }).n;
    const empty = await t.req("POST", "/api/v1/chat/stream", { token: t.userToken, body: { topic_id: tp.id, content: "   " } });
    expect(empty).toMatchObject({ status: 400, body: { message: "请输入问题" } });
    updateConfig([{ category: "llm", name: "max_question_length", value: 50 }]);
    const long = await t.req("POST", "/api/v1/chat/stream", { token: t.userToken, body: { topic_id: tp.id, content: "问".repeat(51) } });
    expect(long.status).toBe(400);
    expect(long.body.message).toContain("最多 50 字");
    updateConfig([{ category: "llm", name: "max_question_length", value: 2000 }]);
    expect((await t.req("POST", "/api/v1/chat/stream", { token: t.userToken, body: { topic_id: tp.id } })).status).toBe(400);
    expect((await t.req("POST", "/api/v1/chat/stream", { token: t.userToken, body: { topic_id: tp.id, content: "x".repeat(20_001) } })).status).toBe(400);
    updateConfig([{ category: "llm", name: "enable", value: false }]);
    const off = await t.req("POST", "/api/v1/chat/stream", { token: t.userToken, body: { topic_id: tp.id, content: "你好" } });
    expect(off).toMatchObject({ status: 503, body: { message: "AI 助手尚未开启，请联系管理员" } });
    updateConfig([{ category: "llm", name: "enable", value: true }]);
    expect(count()).toBe(0);
  });

  test("provider failures end the stream with a Chinese error event and a failed message; never a 500", async () => {
    const tp = await newTopic(t, t.userToken);
    const cases: [typeof fake.llm.mode, RegExp][] = [["unauthorized", /API Key 无效/], ["fail", /模型服务出错/], ["malformed", /无法解析/]];
    for (const [mode, msg] of cases) {
      fake.llm.mode = mode;
      const res = await streamAsk(t, t.userToken, { topic_id: tp.id, content: "光合作用？" });
      expect(res.status).toBe(200);
      const events = await readEvents(res);
      const last = events.at(-1)!;
      expect(last.type).toBe("error");
      expect(last.message).toMatch(msg);
      expect(row(last.message_id)).toMatchObject({ status: 3 });
    }
    fake.llm.mode = "unauthorized";
    const plain = await t.req("POST", "/api/v1/chat/message", { token: t.userToken, body: { topic_id: tp.id, content: "光合作用？" } });
    expect(plain.status).toBe(503);
    expect(plain.body.message).toMatch(/API Key 无效/);
    fake.llm.mode = "ok";
    configureLlm(fake.llm, { base_url: "http://127.0.0.1:1/v1" });
    const down = await readEvents(await streamAsk(t, t.userToken, { topic_id: tp.id, content: "光合作用？" }));
    expect(down.at(-1)!.message).toMatch(/无法连接模型服务/);
    configureLlm(fake.llm, { timeout: 5 });
    fake.llm.mode = "hang";
    updateConfig([{ category: "llm", name: "timeout", value: 5 }]);
    const started = Date.now();
    const hung = await readEvents(await streamAsk(t, t.userToken, { topic_id: tp.id, content: "光合作用？" }));
    expect(hung.at(-1)!.message).toMatch(/5 秒内没有响应/);
    expect(Date.now() - started).toBeLessThan(8000);
    await until(() => fake.llm.requests.at(-1)!.closedAt !== null);
    fake.llm.mode = "ok";
  }, 20_000);

  test("cancel stops the answer: partial text saved as stopped, upstream closed within a second", async () => {
    fake.llm.chunkDelayMs = 60;
    try {
      const tp = await newTopic(t, t.userToken);
      const res = await streamAsk(t, t.userToken, { topic_id: tp.id, content: "光合作用在哪里？" });
      const id = Number(res.headers.get("x-message-id"));
      let cancelledAt = 0;
      const events = await readEvents(res, (e, all) => {
        if (e.type === "delta" && all.filter((x) => x.type === "delta").length === 2 && !cancelledAt) {
          cancelledAt = Date.now();
          void t.req("PUT", "/api/v1/chat/message/cancel", { token: t.userToken, body: { id } });
        }
        return false;
      });
      const last = events.at(-1)!;
      expect(last).toMatchObject({ type: "done", status: 2, message_id: id });
      const partial = textOf(events);
      expect(partial.length).toBeGreaterThan(0);
      expect(partial.length).toBeLessThan("光合作用在叶绿体中进行 [1]。".length);
      expect(row(id)).toMatchObject({ status: 2, answer: partial });
      await until(() => fake.llm.requests.at(-1)!.closedAt !== null, 1000);
      expect(fake.llm.requests.at(-1)!.closedAt! - cancelledAt).toBeLessThan(1000);
      expect(fake.llm.requests.at(-1)!.finishedAt).toBeNull();
      // Someone else cannot cancel; a finished answer is simply not running.
      expect((await t.req("PUT", "/api/v1/chat/message/cancel", { token: other.token, body: { id } })).status).toBe(404);
      expect((await t.req("PUT", "/api/v1/chat/message/cancel", { token: t.userToken, body: { id } })).body.stopped).toBe(false);
    } finally {
      fake.llm.chunkDelayMs = 0;
    }
  });

  test("one answer at a time per user", async () => {
    fake.llm.chunkDelayMs = 40;
    try {
      const tp = await newTopic(t, t.userToken);
      const first = await streamAsk(t, t.userToken, { topic_id: tp.id, content: "光合作用？" });
      const second = await t.req("POST", "/api/v1/chat/stream", { token: t.userToken, body: { topic_id: tp.id, content: "叶绿体？" } });
      expect(second.status).toBe(409);
      expect(second.body.message).toContain("还在生成中");
      await readEvents(first);
      expect((await t.req("POST", "/api/v1/chat/message", { token: t.userToken, body: { topic_id: tp.id, content: "叶绿体？" } })).status).toBe(200);
    } finally {
      fake.llm.chunkDelayMs = 0;
    }
  });
});

describe("quotas", () => {
  test("members see the default limits; usage counts questions and tokens", async () => {
    const q = await t.req("GET", "/api/v1/user/ai/quota", { token: t.userToken });
    expect(q.status).toBe(200);
    expect(q.body.questions_per_day).toBe(50);
    expect(q.body.questions_used).toBeGreaterThan(0);
    expect(q.body.tokens_used).toBeGreaterThan(0);
    expect(q.body.questions_remaining).toBe(50 - q.body.questions_used);
    const root = await t.req("GET", "/api/v1/user/ai/quota", { token: t.rootToken });
    expect(root.body).toMatchObject({ questions_per_day: -1, tokens_per_month: -1, questions_remaining: -1 });
    expect((await t.req("GET", "/api/v1/user/ai/quota")).status).toBe(401);
  });

  test("an admin sets a user's own limits; at the limit the user gets a 429 before any model call", async () => {
    const bad = await t.req("POST", "/api/v1/user/ai/quota", { token: t.rootToken, body: { user_id: other.id, questions_per_day: -2, tokens_per_month: null } });
    expect(bad.status).toBe(400);
    expect((await t.req("POST", "/api/v1/user/ai/quota", { token: t.userToken, body: { user_id: other.id, questions_per_day: 100, tokens_per_month: null } })).status).toBe(403);
    expect((await t.req("POST", "/api/v1/user/ai/quota", { body: { user_id: other.id, questions_per_day: 1, tokens_per_month: null } })).status).toBe(401);
    expect((await t.req("POST", "/api/v1/user/ai/quota", { token: t.rootToken, body: { user_id: 999999, questions_per_day: 1, tokens_per_month: null } })).status).toBe(404);
    const set = await t.req("POST", "/api/v1/user/ai/quota", { token: t.rootToken, body: { user_id: other.id, questions_per_day: 1, tokens_per_month: null } });
    expect(set.body).toMatchObject({ questions_per_day: 1, tokens_per_month: 1000000, source: "user" });
    expect((await t.req("GET", `/api/v1/user/ai/quota?user_id=${other.id}`, { token: t.rootToken })).body.questions_per_day).toBe(1);
    expect((await t.req("GET", `/api/v1/user/ai/quota?user_id=${other.id}`, { token: t.userToken })).status).toBe(403);
    const tp = await newTopic(t, other.token);
    expect((await t.req("POST", "/api/v1/chat/message", { token: other.token, body: { topic_id: tp.id, content: "光合作用？" } })).status).toBe(200);
    const calls = fake.llm.requests.length;
    const refused = await t.req("POST", "/api/v1/chat/stream", { token: other.token, body: { topic_id: tp.id, content: "再问一次" } });
    expect(refused.status).toBe(429);
    expect(refused.body.message).toContain("今日 AI 提问次数已用完");
    expect(fake.llm.requests.length).toBe(calls);
    expect((getSqlite().query("SELECT status FROM chat_message WHERE topic_id = ? ORDER BY id DESC").get(tp.id) as { status: number }).status).toBe(4);
    // Tokens per month: the one answer used more than 1.
    await t.req("POST", "/api/v1/user/ai/quota", { token: t.rootToken, body: { user_id: other.id, questions_per_day: -1, tokens_per_month: 1 } });
    expect((await t.req("POST", "/api/v1/chat/stream", { token: other.token, body: { topic_id: tp.id, content: "再问一次" } })).body.message).toContain("本月 AI 用量已用完");
    // Cleared: back to the group's limits.
    const cleared = await t.req("POST", "/api/v1/user/ai/quota", { token: t.rootToken, body: { user_id: other.id, questions_per_day: null, tokens_per_month: null } });
    expect(cleared.body).toMatchObject({ questions_per_day: 50, source: "group" });
  });

  test("VIP members get the larger of their group's and the VIP limits", async () => {
    getSqlite().query("UPDATE user SET vip_until = ? WHERE id = ?").run(Date.now() + 86400_000, other.id);
    const q = await t.req("GET", "/api/v1/user/ai/quota", { token: other.token });
    expect(q.body).toMatchObject({ questions_per_day: 200, source: "vip" });
    getSqlite().query("UPDATE user SET vip_until = ? WHERE id = ?").run(Date.now() - 1, other.id);
    expect((await t.req("GET", "/api/v1/user/ai/quota", { token: other.token })).body.questions_per_day).toBe(50);
  });
});

describe("quota usage survives deletion", () => {
  test("deleting a topic (or an admin deleting messages) gives no questions or tokens back", async () => {
    const u = await t.createUser("deleter");
    const tp = await newTopic(t, u.token);
    await readEvents(await streamAsk(t, u.token, { topic_id: tp.id, content: "光合作用？" }));
    const before = (await t.req("GET", "/api/v1/user/ai/quota", { token: u.token })).body;
    expect(before.questions_used).toBe(1);
    expect(before.tokens_used).toBeGreaterThan(0);
    expect((await t.req("DELETE", `/api/v1/chat/topic?id=${tp.id}`, { token: u.token })).status).toBe(200);
    const after = (await t.req("GET", "/api/v1/user/ai/quota", { token: u.token })).body;
    expect(after).toMatchObject({ questions_used: 1, tokens_used: before.tokens_used });
    expect(after.own).toEqual({ questions_per_day: null, tokens_per_month: null });
  });
});
