// Hybrid retrieval: BM25 and vector neighbours (B's embeddings through the stand-in server's
// /v1/embeddings: hashed character bigrams, so texts sharing characters are near) fused by
// reciprocal rank; the same permission and scope rules as keyword retrieval; the keyword result
// when the provider fails or hangs; the optional reranker applied, and ignored when it fails.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { getSqlite } from "#db/client.ts";
import { keywordRetrieve } from "#src/features/ai/retrieval/keyword.ts";
import { QUERY_EMBED_TIMEOUT_MS } from "#src/features/ai/retrieval/hybrid.ts";
import { retrieve } from "#src/features/ai/retrieve.ts";
import { resetSpaceSync } from "#src/features/embedding/spaces.ts";
import { clearQueryCache, embeddingActive } from "#src/features/embedding/vectors.ts";
import { updateConfig } from "#src/features/settings/service.ts";
import { buildVectors } from "../../scripts/bench/retrieval/vectorSetup.ts";
import { startFakeLlm, type FakeLlm } from "../helpers/fakeLlm.ts";
import { overlapScore } from "../helpers/fakeRerank.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { configureLlm, newTopic, readEvents, streamAsk } from "./chat-fixtures.ts";
import { addLibrary, buy, keys, PAST_PREVIEW, type Library } from "./retrieval-fixtures.ts";

const t = setupTestApp();
let fake: FakeLlm;
let lib: Library;
let reader = 0;
// Shares no word with page 1 of 急救 (复甦 is a variant spelling, 胸部 / 按多深 are not its words),
// but several characters: keyword retrieval misses it, the stand-in's character vectors do not.
const ONLY_VECTORS = "复甦时胸部按多深";

const rerankOn = (on: boolean) => updateConfig([
  { category: "embedding", name: "rerank_enable", value: on },
  { category: "embedding", name: "rerank_base_url", value: fake.baseUrl },
  { category: "embedding", name: "rerank_api_key", value: "sk-test" },
  { category: "embedding", name: "rerank_model", value: "fake-reranker" },
]);

beforeAll(async () => {
  resetSpaceSync();
  clearQueryCache();
  fake = startFakeLlm();
  configureLlm(fake);
  const owner = await t.createUser("hybrid-owner");
  lib = addLibrary(owner.user.id);
  reader = t.userId;
  await buildVectors({ provider: "custom", base_url: fake.baseUrl, api_key: "sk-test", model: "fake-embed", dimensions: 64 }, 60_000);
}, 90_000);

afterAll(() => {
  fake?.stop();
  clearQueryCache();
});

describe("hybrid retrieval", () => {
  test("vectors are active and a question is embedded through the provider", async () => {
    expect(embeddingActive()).toBe(true);
    const before = fake.embeddings.requests.length;
    const pages = await retrieve("狂犬病疫苗怎么打", { userId: reader, limit: 5 });
    expect(fake.embeddings.requests.length).toBe(before + 1);
    expect(pages[0]).toMatchObject({ document_id: lib.firstAid.id, page: 2 });
    // A fused score: the sum of 1/(60 + rank) over the two lists.
    expect(pages[0]!.score).toBeGreaterThan(0);
    expect(pages[0]!.score).toBeLessThanOrEqual(2 / 61 + 1e-4);
  });

  test("a question in other words than the page: the vectors find what keywords miss", async () => {
    const scope = { userId: reader, limit: 5 };
    expect(keys(keywordRetrieve(ONLY_VECTORS, scope))).not.toContain(`${lib.firstAid.id}:1`);
    expect(keys(await retrieve(ONLY_VECTORS, scope))).toContain(`${lib.firstAid.id}:1`);
  });

  test("a page past the preview is found by its vector only for the owner and a buyer", async () => {
    const q = PAST_PREVIEW.slice(0, 30);
    const past = `${lib.firstAid.id}:3`;
    expect(keys(await retrieve(q, { userId: reader, limit: 10 }))).not.toContain(past);
    expect(keys(await retrieve(q, { userId: 0, limit: 10 }))).not.toContain(past);
    expect(keys(await retrieve(q, { userId: lib.ownerId, limit: 10 }))[0]).toBe(past);
    const buyer = await t.createUser("hybrid-buyer");
    buy(buyer.user.id, lib.firstAid.id);
    expect(keys(await retrieve(q, { userId: buyer.user.id, limit: 10 }))[0]).toBe(past);
  });

  test("deleted and disabled documents are never returned, even when their text is the question", async () => {
    for (const userId of [reader, lib.ownerId]) {
      const got = [
        ...await retrieve("删除文档专有词汇：烫伤后用流动凉水冲洗伤处", { userId, limit: 10 }),
        ...await retrieve("禁用文档专有词汇：流鼻血时身体前倾", { userId, limit: 10 }),
      ];
      expect(got.length).toBeGreaterThan(0);
      expect(got.map((p) => p.document_id)).not.toContain(lib.deleted.id);
      expect(got.map((p) => p.document_id)).not.toContain(lib.disabled.id);
    }
  });

  test("a document disabled or deleted after its vectors were built leaves retrieval at once", async () => {
    const q = "动量守恒定律：系统不受外力";
    const db = getSqlite();
    const vectors = () => db.query<{ n: number }, [number]>("SELECT count(*) AS n FROM chunk WHERE document_id = ?").get(lib.physics.id)!.n;
    expect(vectors()).toBeGreaterThan(0);
    for (const sql of ["UPDATE document SET status = 4 WHERE id = ?", "UPDATE document SET deleted_at = 1 WHERE id = ?"]) {
      db.query(sql).run(lib.physics.id);
      try {
        // Its chunks are still there (the embedding job has not run): the SQL filter alone keeps it out.
        expect(vectors()).toBeGreaterThan(0);
        expect((await retrieve(q, { userId: lib.ownerId, limit: 10 })).map((p) => p.document_id)).not.toContain(lib.physics.id);
      } finally {
        db.query("UPDATE document SET status = 2, deleted_at = NULL WHERE id = ?").run(lib.physics.id);
      }
    }
    expect(keys(await retrieve(q, { userId: lib.ownerId, limit: 10 }))[0]).toBe(`${lib.physics.id}:2`);
  });

  test("a topic's scope: only its documents, its nearest page first", async () => {
    const scoped = await retrieve("动量守恒的条件是什么", { userId: reader, limit: 5, documentIds: [lib.physics.id, lib.poems.id] });
    expect(scoped[0]).toMatchObject({ document_id: lib.physics.id, page: 2 });
    expect(scoped.every((p) => p.document_id === lib.physics.id || p.document_id === lib.poems.id)).toBe(true);
    const other = await retrieve(ONLY_VECTORS, { userId: reader, limit: 5, documentIds: [lib.poems.id] });
    expect(other.every((p) => p.document_id === lib.poems.id)).toBe(true);
  });

  test("the provider failing or hanging: keyword retrieval, and the chat still answers", { timeout: 20_000 }, async () => {
    const scope = { userId: reader, limit: 6 };
    fake.embeddings.mode = "fail";
    try {
      expect(await retrieve("狂犬病疫苗 失败时", scope)).toEqual(keywordRetrieve("狂犬病疫苗 失败时", scope));
      const tp = await newTopic(t, t.userToken);
      const events = await readEvents(await streamAsk(t, t.userToken, { topic_id: tp.id, content: "狂犬病疫苗什么时候打？" }));
      expect(events[0]!.document[0]).toMatchObject({ uuid: lib.firstAid.uuid, page: 2 });
      expect(events.at(-1)!.type).toBe("done");
      fake.embeddings.mode = "hang";
      const started = performance.now();
      expect(await retrieve("狂犬病疫苗 挂起时", scope)).toEqual(keywordRetrieve("狂犬病疫苗 挂起时", scope));
      expect(performance.now() - started).toBeLessThan(QUERY_EMBED_TIMEOUT_MS + 500);
    } finally {
      fake.embeddings.mode = "ok";
    }
  });

  test("the reranker reorders the fused candidates by its relevance", async () => {
    const scope = { userId: reader, limit: 5 };
    const q = "静夜思床前明月光";
    const fused = await retrieve(q, scope);
    rerankOn(true);
    try {
      const before = fake.rerank.requests.length;
      const ranked = await retrieve(q, scope);
      expect(fake.rerank.requests.length).toBe(before + 1);
      const sent = fake.rerank.requests.at(-1)!;
      expect(sent).toMatchObject({ model: "fake-reranker", query: q });
      // The fused candidates (up to rerank_top_n), of which the reranker's best make the answer.
      expect(sent.documents.length).toBeGreaterThanOrEqual(fused.length);
      expect(sent.documents.length).toBeLessThanOrEqual(20);
      const expected = ranked.map((p) => Math.round(overlapScore(q, `${p.title}\n${p.text}`) * 10_000) / 10_000);
      expect(ranked.map((p) => p.score)).toEqual(expected);
      expect(expected).toEqual([...expected].sort((a, b) => b - a));
      expect(ranked[0]).toMatchObject({ document_id: lib.poems.id, page: 1 });
    } finally {
      rerankOn(false);
    }
  });

  test("the reranker failing, answering garbage or hanging: the fused order", async () => {
    const scope = { userId: reader, limit: 5 };
    const q = "春眠不觉晓 处处闻啼鸟";
    const fused = await retrieve(q, scope);
    rerankOn(true);
    try {
      for (const mode of ["fail", "malformed", "unauthorized", "hang"] as const) {
        fake.rerank.mode = mode;
        const before = fake.rerank.requests.length;
        expect(await retrieve(q, scope)).toEqual(fused);
        if (mode !== "unauthorized") expect(fake.rerank.requests.length).toBe(before + 1);
      }
    } finally {
      fake.rerank.mode = "ok";
      rerankOn(false);
    }
  });
});
