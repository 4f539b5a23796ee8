// A document's vectors follow what may be served: soft delete and disable remove them, restore and
// enable embed again, purge leaves no chunk and no vector row — through the real admin APIs, with
// the provider path (the tests' OpenAI-compatible stand-in answering /v1/embeddings).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { activeSpace, syncSpaces, vecTable } from "#src/features/embedding/spaces.ts";
import { embedQuery, knnChunks } from "#src/features/embedding/vectors.ts";
import { startFakeLlm, type FakeLlm } from "../helpers/fakeLlm.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { useDocumentsDir } from "./documents-fixtures.ts";
import { addDoc } from "./search-fixtures.ts";
import { countOf, drainEmbeddingJobs, resetEmbeddingState, setEmbedding } from "./embedding-fixtures.ts";

const t = setupTestApp();
useDocumentsDir();
let llm: FakeLlm;
beforeAll(() => {
  resetEmbeddingState();
  llm = startFakeLlm();
});
afterAll(() => llm.stop());

const vectorsOf = (docId: number) => countOf(`SELECT count(*) AS n FROM ${vecTable(activeSpace()!.id)} v JOIN chunk c ON c.id = v.rowid WHERE c.document_id = ?`, docId);
const chunksOf = (docId: number) => countOf("SELECT count(*) AS n FROM chunk WHERE document_id = ?", docId);
const allVectors = () => countOf(`SELECT count(*) AS n FROM ${vecTable(activeSpace()!.id)}`);
const nearestDoc = async (q: string) => knnChunks((await embedQuery(q))!, 1)[0]?.document_id;

describe("vectors follow the document's life", () => {
  let keep: number;
  let doc: number;
  test("set-up: two documents embedded through the provider", async () => {
    keep = addDoc({ title: "保留的文档", pages: ["图书馆的开放时间为每天上午八点至晚上十点。"] }).id;
    doc = addDoc({ title: "要处理的文档", pages: ["员工请假需要提前三天提交申请，由部门经理审批。", "年假天数按照工龄计算，满一年五天。"] }).id;
    setEmbedding({ enable: true, provider: "custom", base_url: llm.baseUrl, api_key: "sk-test", model: "fake-embed", dimensions: 48, chunk_size: 200, chunk_overlap: 20 });
    syncSpaces();
    await drainEmbeddingJobs();
    expect(activeSpace()).not.toBeNull();
    expect(vectorsOf(doc)).toBe(2);
    expect(await nearestDoc("请假审批")).toBe(doc);
    // The real OpenAI shape went out: the model, the texts, the width (custom sends dimensions), the key.
    const sent = llm.embeddings.requests.at(-1)!;
    expect(sent.body).toMatchObject({ model: "fake-embed", dimensions: 48 });
    expect(sent.headers.authorization).toBe("Bearer sk-test");
  });

  test("soft delete removes its chunks and vectors; restore embeds it again", async () => {
    expect((await t.req("DELETE", `/api/v1/document?id=${doc}`, { token: t.rootToken })).status).toBe(200);
    expect(chunksOf(doc)).toBe(0);
    expect(vectorsOf(doc)).toBe(0);
    expect(countOf("SELECT count(*) AS n FROM document_embedding WHERE document_id = ?", doc)).toBe(0);
    expect(await nearestDoc("请假审批")).toBe(keep);
    expect((await t.req("PUT", "/api/v1/document/recycle/restore", { token: t.rootToken, body: { id: [doc] } })).status).toBe(200);
    expect(countOf("SELECT count(*) AS n FROM document_embedding WHERE document_id = ? AND status = 0", doc)).toBe(1);
    await drainEmbeddingJobs();
    expect(vectorsOf(doc)).toBe(2);
    expect(await nearestDoc("请假审批")).toBe(doc);
  });

  test("disable removes them; enable brings them back", async () => {
    expect((await t.req("PUT", "/api/v1/document/check", { token: t.rootToken, body: { id: [doc], status: 4 } })).body.updated).toBe(1);
    expect(vectorsOf(doc)).toBe(0);
    expect(await nearestDoc("请假审批")).toBe(keep);
    // A job queued before the disable finds nothing to do and writes nothing.
    expect((await t.req("PUT", "/api/v1/document/check", { token: t.rootToken, body: { id: [doc], status: 2 } })).body.updated).toBe(1);
    await drainEmbeddingJobs();
    expect(vectorsOf(doc)).toBe(2);
  });

  test("purge (delete for ever) leaves no chunk and no vector row", async () => {
    const before = allVectors();
    expect((await t.req("DELETE", `/api/v1/document?id=${doc}`, { token: t.rootToken })).status).toBe(200);
    expect((await t.req("PUT", "/api/v1/document/recycle/restore", { token: t.rootToken, body: { id: [doc] } })).status).toBe(200);
    await drainEmbeddingJobs();
    expect(allVectors()).toBe(before);
    expect((await t.req("DELETE", `/api/v1/document?id=${doc}`, { token: t.rootToken })).status).toBe(200);
    expect((await t.req("DELETE", `/api/v1/document/recycle?id=${doc}`, { token: t.rootToken })).status).toBe(200);
    expect(chunksOf(doc)).toBe(0);
    expect(allVectors()).toBe(before - 2);
    expect(countOf("SELECT count(*) AS n FROM document_embedding WHERE document_id = ?", doc)).toBe(0);
    // Only the kept document's vectors are left, each with its chunk.
    expect(countOf(`SELECT count(*) AS n FROM ${vecTable(activeSpace()!.id)} v LEFT JOIN chunk c ON c.id = v.rowid WHERE c.id IS NULL`)).toBe(0);
    expect(vectorsOf(keep)).toBe(allVectors());
  });

  test("a purge cascading past the service (document row deleted directly) still leaves no vector behind", async () => {
    const d = addDoc({ title: "直接删除", pages: ["直接删除的文档内容。"] }).id;
    const { queueEmbedding } = await import("#src/features/embedding/enqueue.ts");
    queueEmbedding(d);
    await drainEmbeddingJobs();
    expect(vectorsOf(d)).toBe(1);
    const { getSqlite } = await import("#db/client.ts");
    getSqlite().query("DELETE FROM document WHERE id = ?").run(d);
    expect(countOf(`SELECT count(*) AS n FROM ${vecTable(activeSpace()!.id)} v LEFT JOIN chunk c ON c.id = v.rowid WHERE c.id IS NULL`)).toBe(0);
  });
});
