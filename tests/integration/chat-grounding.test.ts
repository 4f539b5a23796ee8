// Grounding on a document converted by the real pipeline: the page that holds the answer is cited
// and its text reaches the model; pages a user may not read, and documents outside a topic's
// scope, never do. Also: closing the connection mid-answer closes the upstream one.
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getSqlite } from "#db/client.ts";
import { setDocumentsRoot } from "#src/features/documents/paths.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { configureLlm, newTopic, readEvents, streamAsk, textOf, until, useFakeLlm } from "./chat-fixtures.ts";
import { addDocument, convert, docRow, samples, setConverter } from "./convert-fixtures.ts";
import { addDoc, addFiller } from "./search-fixtures.ts";

const t = setupTestApp();
const fake = useFakeLlm({ reply: "库仑定律：F = kq₁q₂ / r² [1]。", chunkSize: 2 });
let physics = { id: 0, uuid: "", ownerToken: "" };
let other = { id: 0, uuid: "" };

const sent = () => (fake.llm.requests.at(-1)!.body.messages as { role: string; content: string }[]).map((m) => m.content).join("\n");

beforeAll(async () => {
  setDocumentsRoot(mkdtempSync(join(tmpdir(), "wk-chat-docs-")));
  configureLlm(fake.llm);
  addFiller(20);
  const owner = await t.createUser("uploader");
  // Two of the PDF's three pages are rendered for reading: page 3 is beyond the preview.
  setConverter({ max_preview: 2 });
  const row = addDocument(owner.user.id, new Uint8Array(readFileSync(join(samples, "高中物理公式.pdf"))), "pdf", { title: "高中物理公式汇总" });
  const jobs = await convert([row.id]);
  expect(jobs[0]!.status).toBe("done");
  const d = docRow(row.id);
  expect(d).toMatchObject({ status: 2, pages: 3, preview: 2 });
  physics = { id: d.id, uuid: d.uuid, ownerToken: owner.token };
  other = addDoc({ title: "化学实验手册", pages: ["电解水实验：正极产生氧气，负极产生氢气。"] });
}, 120_000);

const pageText = (page: number) => (getSqlite().query("SELECT text FROM document_page WHERE document_id = ? AND page = ?").get(physics.id, page) as { text: string }).text;

describe("grounding on a converted PDF", () => {
  test("a question answered on page 2 cites page 2, and page 2's text is in the prompt", async () => {
    expect(pageText(2)).toContain("动量守恒定律");
    const tp = await newTopic(t, t.userToken);
    const events = await readEvents(await streamAsk(t, t.userToken, { topic_id: tp.id, content: "动量守恒定律的条件是什么？" }));
    const refs = events[0]!.document as { uuid: string; page: number; title: string; score: number }[];
    expect(refs[0]).toMatchObject({ uuid: physics.uuid, page: 2, title: "高中物理公式汇总" });
    expect(refs[0]!.score).toBeGreaterThan(0);
    expect(sent()).toContain("[1] 《高中物理公式汇总》第 2 页");
    expect(sent()).toContain("系统不受外力或合外力为零时");
    expect(events.at(-1)!.type).toBe("done");
  });

  test("page 3 is beyond the preview: a reader who did not buy it never gets it in the prompt", async () => {
    expect(pageText(3)).toContain("库仑定律");
    const tp = await newTopic(t, t.userToken);
    const events = await readEvents(await streamAsk(t, t.userToken, { topic_id: tp.id, content: "库仑定律的公式是什么？" }));
    expect((events[0]!.document as { page: number }[]).some((r) => r.page === 3)).toBe(false);
    expect(sent()).not.toContain("静电力常量");
  });

  test("the owner, and a user who bought (downloaded) it, get page 3", async () => {
    const own = await newTopic(t, physics.ownerToken);
    const events = await readEvents(await streamAsk(t, physics.ownerToken, { topic_id: own.id, content: "库仑定律的公式是什么？" }));
    expect(events[0]!.document[0]).toMatchObject({ uuid: physics.uuid, page: 3 });
    expect(sent()).toContain("静电力常量");
    const buyer = await t.createUser("buyer");
    getSqlite().query("INSERT INTO download (user_id, document_id, price) VALUES (?, ?, 5)").run(buyer.user.id, physics.id);
    const tp = await newTopic(t, buyer.token);
    const bought = await readEvents(await streamAsk(t, buyer.token, { topic_id: tp.id, content: "库仑定律的公式是什么？" }));
    expect(bought[0]!.document[0]).toMatchObject({ uuid: physics.uuid, page: 3 });
  });

  test("a topic scoped to another document never sees this one", async () => {
    const tp = await newTopic(t, t.userToken, { category: 1, document_id: [other.id] });
    const events = await readEvents(await streamAsk(t, t.userToken, { topic_id: tp.id, content: "动量守恒定律的条件是什么？" }));
    const refs = events[0]!.document as { uuid: string }[];
    expect(refs.every((r) => r.uuid === other.uuid)).toBe(true);
    expect(sent()).not.toContain("系统不受外力");
    // "Summarise this document" names none of its words: the scoped document's first pages stand in.
    expect(sent()).toContain("电解水实验");
  });

  test("a disabled or deleted document leaves retrieval at once", async () => {
    getSqlite().query("UPDATE document SET status = 4 WHERE id = ?").run(physics.id);
    const tp = await newTopic(t, physics.ownerToken);
    const events = await readEvents(await streamAsk(t, physics.ownerToken, { topic_id: tp.id, content: "动量守恒定律的条件是什么？" }));
    expect((events[0]!.document as { uuid: string }[]).some((r) => r.uuid === physics.uuid)).toBe(false);
    getSqlite().query("UPDATE document SET status = 2 WHERE id = ?").run(physics.id);
  });
});

describe("stop from the browser side", () => {
  test("closing the connection mid-answer closes the upstream request within a second and keeps the partial answer", async () => {
    fake.llm.chunkDelayMs = 80;
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req, srv) => t.app.fetch(req, srv) });
    try {
      const tp = await newTopic(t, physics.ownerToken);
      const ctrl = new AbortController();
      const res = await fetch(`http://127.0.0.1:${server.port}/api/v1/chat/stream`, {
        method: "POST", signal: ctrl.signal,
        headers: { "content-type": "application/json", authorization: `Bearer ${physics.ownerToken}` },
        body: JSON.stringify({ topic_id: tp.id, content: "库仑定律的公式是什么？" }),
      });
      const id = Number(res.headers.get("x-message-id"));
      let abortedAt = 0;
      const events = await readEvents(res, (e, all) => {
        if (all.filter((x) => x.type === "delta").length === 3) {
          abortedAt = Date.now();
          ctrl.abort();
          return true;
        }
        return false;
      }).catch(() => [] as never[]);
      expect(abortedAt).toBeGreaterThan(0);
      const upstream = fake.llm.requests.at(-1)!;
      await until(() => upstream.closedAt !== null, 1500);
      expect(upstream.closedAt! - abortedAt).toBeLessThan(1000);
      expect(upstream.finishedAt).toBeNull();
      await until(() => (getSqlite().query("SELECT status FROM chat_message WHERE id = ?").get(id) as { status: number }).status !== 0);
      const m = getSqlite().query("SELECT status, answer FROM chat_message WHERE id = ?").get(id) as { status: number; answer: string };
      expect(m.status).toBe(2);
      expect(m.answer.startsWith(textOf(events))).toBe(true);
      expect(m.answer.length).toBeGreaterThan(0);
    } finally {
      fake.llm.chunkDelayMs = 0;
      server.stop(true);
    }
  });
});
