// The provider path against the tests' OpenAI-compatible stand-in: bad providers fail documents
// with a Chinese error and write nothing; a width change builds a new space in the background
// while the old one keeps answering, then switches and drops the old table; the admin APIs.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { queueEmbedding } from "#src/features/embedding/enqueue.ts";
import { activeSpace, buildingSpace, syncSpaces, vecTable } from "#src/features/embedding/spaces.ts";
import { embedQuery, embeddingActive, knnChunks } from "#src/features/embedding/vectors.ts";
import { startWorker } from "#src/jobs/worker.ts";
import { startFakeLlm, type FakeLlm } from "../helpers/fakeLlm.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { addDoc } from "./search-fixtures.ts";
import { countOf, drainEmbeddingJobs, resetEmbeddingState, rows, setEmbedding } from "./embedding-fixtures.ts";

const t = setupTestApp();
let llm: FakeLlm;
let docs: number[];
beforeAll(() => {
  resetEmbeddingState();
  llm = startFakeLlm();
  docs = [
    addDoc({ title: "合同法", pages: ["合同是民事主体之间设立、变更、终止民事法律关系的协议。"] }).id,
    addDoc({ title: "会计准则", pages: ["会计要素包括资产、负债、所有者权益、收入、费用和利润。"] }).id,
    addDoc({ title: "地理常识", pages: ["长江是中国第一长河，全长约六千三百公里。"] }).id,
  ];
});
afterAll(() => llm.stop());

const tableExists = (name: string) => countOf("SELECT count(*) AS n FROM sqlite_master WHERE name = ?", name) > 0;
const statuses = (spaceId: number) => rows<{ document_id: number; status: number; error: string }>("SELECT document_id, status, error FROM document_embedding WHERE space_id = ? ORDER BY document_id", spaceId);

describe("embedding provider", () => {
  test("a wrong API key: every document failed with a Chinese message, no chunk, no vector, nothing active", async () => {
    setEmbedding({ enable: true, provider: "siliconflow", base_url: llm.baseUrl, api_key: "sk-wrong", model: "BAAI/bge-m3", dimensions: 64, chunk_size: 200, chunk_overlap: 20 });
    const space = syncSpaces()!;
    await drainEmbeddingJobs();
    const s = statuses(space.id);
    expect(s.map((r) => r.status)).toEqual([3, 3, 3]);
    expect(s[0]!.error).toContain("API Key 无效或已过期");
    expect(countOf("SELECT count(*) AS n FROM chunk")).toBe(0);
    expect(countOf(`SELECT count(*) AS n FROM ${vecTable(space.id)}`)).toBe(0);
    expect(activeSpace()).toBeNull();
    expect(embeddingActive()).toBe(false);
    expect(await embedQuery("合同")).toBeNull();
  });

  test("the right key and 重试: the same space is filled (after a 429 the request is retried) and becomes active", async () => {
    setEmbedding({ api_key: "sk-test" });
    llm.embeddings.mode = "ratelimit-once";
    const r = await t.req("POST", "/api/v1/embedding/retry", { token: t.rootToken, body: {} });
    expect(r.status).toBe(200);
    expect(r.body.queued).toBe(3);
    await drainEmbeddingJobs();
    const space = activeSpace()!;
    expect(statuses(space.id).map((x) => x.status)).toEqual([2, 2, 2]);
    // siliconflow's bge-m3 takes no `dimensions` parameter: none is sent.
    expect(llm.embeddings.requests.at(-1)!.body.dimensions).toBeUndefined();
    expect(knnChunks((await embedQuery("长江有多长"))!, 1)[0]?.document_id).toBe(docs[2]);
  });

  test("a provider answering another width: the document fails with the width in the message, the others stay", async () => {
    llm.embeddings.mode = "wrong-dims";
    const d = addDoc({ title: "新文档", pages: ["宽度不对的向量不能写入。"] }).id;
    queueEmbedding(d);
    await drainEmbeddingJobs();
    const space = activeSpace()!;
    const row = statuses(space.id).find((x) => x.document_id === d)!;
    expect(row.status).toBe(3);
    expect(row.error).toContain("模型返回的向量维度是 80，与设置的向量维度 64 不一致");
    expect(countOf("SELECT count(*) AS n FROM chunk WHERE document_id = ?", d)).toBe(0);
    expect(countOf(`SELECT count(*) AS n FROM ${vecTable(space.id)}`)).toBe(3);
    llm.embeddings.mode = "ok";
  });

  test("changing the width builds a new space while the old one answers; the switch drops the old table", async () => {
    const old = activeSpace()!;
    setEmbedding({ provider: "custom", dimensions: 32 });
    const next = syncSpaces()!;
    expect(next.id).not.toBe(old.id);
    expect(buildingSpace()?.id).toBe(next.id);
    expect(tableExists(vecTable(next.id))).toBe(true);
    // Still the old space, queried with the old model's own settings (64 wide, no dimensions sent).
    expect(activeSpace()?.id).toBe(old.id);
    const q = await embedQuery("会计要素");
    expect(q?.length).toBe(64);
    expect(knnChunks(q!, 1)[0]?.document_id).toBe(docs[1]);
    const status = await t.req("GET", "/api/v1/embedding/status", { token: t.rootToken });
    expect(status.body).toMatchObject({ enable: true, active: { id: old.id, dimensions: 64, status_label: "使用中" }, building: { id: next.id, dimensions: 32, status_label: "构建中" } });
    await drainEmbeddingJobs();
    expect(activeSpace()?.id).toBe(next.id);
    expect(buildingSpace()).toBeNull();
    expect(tableExists(vecTable(old.id))).toBe(false);
    expect(countOf("SELECT count(*) AS n FROM document_embedding WHERE space_id = ?", old.id)).toBe(0);
    const q2 = await embedQuery("会计要素");
    expect(q2?.length).toBe(32);
    expect(knnChunks(q2!, 1)[0]?.document_id).toBe(docs[1]);
    // Every servable document is in the new space, the one that failed included now that the provider is right.
    expect(countOf(`SELECT count(*) AS n FROM ${vecTable(next.id)}`)).toBe(countOf("SELECT count(*) AS n FROM chunk"));
  });

  test("测试连接: width and time; a wrong key or an unreachable address answer in Chinese with 502", async () => {
    const ok = await t.req("POST", "/api/v1/embedding/test", { token: t.rootToken, body: {} });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ ok: true, dimensions: 32, expected: 32 });
    expect(ok.body.message).toContain("连接成功：向量维度 32");
    const bad = await t.req("POST", "/api/v1/embedding/test", { token: t.rootToken, body: { api_key: "sk-nope" } });
    expect(bad.status).toBe(502);
    expect(bad.body.message).toContain("API Key 无效");
    const gone = await t.req("POST", "/api/v1/embedding/test", { token: t.rootToken, body: { base_url: "http://127.0.0.1:9/v1" } });
    expect(gone.status).toBe(502);
    expect(gone.body.message).toContain("无法连接向量服务");
    const outside = await t.req("POST", "/api/v1/embedding/test", { token: t.rootToken, body: { provider: "local", model_path: "../../etc" } });
    expect(outside.status).toBe(400);
    expect(outside.body.message).toBe("本地模型文件夹必须位于数据目录（DATA_DIR）之内");
    const invalid = await t.req("POST", "/api/v1/embedding/test", { token: t.rootToken, body: { base_url: "ftp://x" } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toContain("格式不正确");
  });

  test("重建索引 makes a new space for the same settings; the settings screen never sends the key back", async () => {
    const before = activeSpace()!;
    const r = await t.req("POST", "/api/v1/embedding/rebuild", { token: t.rootToken });
    expect(r.status).toBe(200);
    expect(r.body.message).toContain("已开始重建向量索引");
    expect(buildingSpace()?.model_key).toBe(before.model_key);
    await drainEmbeddingJobs();
    expect(activeSpace()?.id).toBe(r.body.space_id);
    const page = await t.req("GET", "/admin/ai/embedding", { token: t.rootToken, headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-island="AdminEmbeddingStatus"');
    expect(page.text).toContain('data-island="AdminEmbeddingSettings"');
    expect(page.text).toContain("混合检索");
    expect(page.text).not.toContain("sk-test");
  });

  test("an unreachable address: the document fails at once with a Chinese message (its job retries later), nothing written", async () => {
    setEmbedding({ base_url: "http://127.0.0.1:9/v1" });
    const d = addDoc({ title: "连不上", pages: ["服务地址填错了。"] }).id;
    queueEmbedding(d);
    const space = activeSpace()!;
    const worker = startWorker({ concurrency: 1, pollMs: 20 });
    try {
      for (let i = 0; i < 200 && statuses(space.id).find((x) => x.document_id === d)?.status !== 3; i++) await Bun.sleep(20);
    } finally {
      await worker.stop();
    }
    const row = statuses(space.id).find((x) => x.document_id === d)!;
    expect(row).toMatchObject({ status: 3, error: "无法连接向量服务，请检查接口地址（base_url）是否正确、服务是否已启动" });
    expect(countOf("SELECT count(*) AS n FROM chunk WHERE document_id = ?", d)).toBe(0);
    // The provider being down is no reason to stop answering: the question falls back to keywords.
    expect(await embedQuery("长江")).toBeNull();
    setEmbedding({ base_url: llm.baseUrl });
  });

  test("the embedding APIs: anonymous 401, member 403", async () => {
    const calls: [string, string, unknown?][] = [
      ["GET", "/api/v1/embedding/status"], ["POST", "/api/v1/embedding/test", {}], ["POST", "/api/v1/embedding/rebuild"],
      ["GET", "/api/v1/embedding/failed"], ["POST", "/api/v1/embedding/retry", {}],
    ];
    for (const [method, path, body] of calls) {
      expect((await t.req(method, path, { body })).status).toBe(401);
      expect((await t.req(method, path, { body, token: t.userToken })).status).toBe(403);
    }
    const perms = rows<{ method: string; path: string }>("SELECT method, path FROM permission WHERE path LIKE '/api/v1/embedding/%' ORDER BY path");
    expect(perms.length).toBe(5);
  });
});
