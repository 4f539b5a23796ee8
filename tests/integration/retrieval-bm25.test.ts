// Retrieval with embeddings off: BM25 pages exactly as before hybrid retrieval existed, with the
// same permission and scope rules (pages past the preview only for owners and buyers; deleted and
// disabled documents never; a topic's scope only its documents).
import { beforeAll, describe, expect, test } from "bun:test";
import { keywordRetrieve } from "#src/features/ai/retrieval/keyword.ts";
import { retrieve } from "#src/features/ai/retrieve.ts";
import { clearQueryCache } from "#src/features/embedding/vectors.ts";
import { resetSpaceSync } from "#src/features/embedding/spaces.ts";
import { updateConfig } from "#src/features/settings/service.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { addLibrary, buy, keys, type Library } from "./retrieval-fixtures.ts";

const t = setupTestApp();
let lib: Library;
let reader = 0;

beforeAll(async () => {
  resetSpaceSync();
  clearQueryCache();
  const owner = await t.createUser("retrieval-owner");
  lib = addLibrary(owner.user.id);
  reader = t.userId;
});

describe("BM25 retrieval (embeddings off)", () => {
  test("finds the page that holds the words, with a positive score, best first", async () => {
    const pages = await retrieve("狂犬病疫苗", { userId: reader, limit: 5 });
    expect(pages[0]).toMatchObject({ document_id: lib.firstAid.id, page: 2, title: "家庭急救常识" });
    expect(pages[0]!.score).toBeGreaterThan(0);
    expect(pages[0]!.text).toContain("狂犬病疫苗");
  });

  test("is exactly today's keyword retrieval", async () => {
    for (const q of ["狂犬病疫苗", "动量守恒定律的条件", "床前明月光", "没有这个词的问题甲乙丙"]) {
      const scope = { userId: reader, limit: 6 };
      expect(await retrieve(q, scope)).toEqual(keywordRetrieve(q, scope));
    }
  });

  test("a page past the preview: never for a reader or an anonymous visitor, always for the owner and a buyer", async () => {
    const q = "海姆立克急救法 气道异物梗阻";
    const past = `${lib.firstAid.id}:3`;
    expect(keys(await retrieve(q, { userId: reader, limit: 10 }))).not.toContain(past);
    expect(keys(await retrieve(q, { userId: 0, limit: 10 }))).not.toContain(past);
    expect(keys(await retrieve(q, { userId: lib.ownerId, limit: 10 }))[0]).toBe(past);
    const buyer = await t.createUser("retrieval-buyer");
    buy(buyer.user.id, lib.firstAid.id);
    expect(keys(await retrieve(q, { userId: buyer.user.id, limit: 10 }))[0]).toBe(past);
  });

  test("deleted and disabled documents are never returned, not even to their owner", async () => {
    for (const userId of [reader, lib.ownerId]) {
      const got = [...await retrieve("删除文档专有词汇", { userId, limit: 10 }), ...await retrieve("禁用文档专有词汇", { userId, limit: 10 })];
      expect(got.map((p) => p.document_id)).not.toContain(lib.deleted.id);
      expect(got.map((p) => p.document_id)).not.toContain(lib.disabled.id);
    }
  });

  test("a topic's scope: only its documents; a question naming none of their words gets their first pages", async () => {
    const inScope = await retrieve("狂犬病疫苗", { userId: reader, limit: 5, documentIds: [lib.physics.id, lib.poems.id] });
    expect(inScope.length).toBeGreaterThan(0);
    expect(inScope.every((p) => p.document_id === lib.physics.id || p.document_id === lib.poems.id)).toBe(true);
    expect(inScope.every((p) => p.score === 0 && p.page <= 3)).toBe(true);
    const scoped = await retrieve("动量守恒定律", { userId: reader, limit: 5, documentIds: [lib.physics.id] });
    expect(scoped[0]).toMatchObject({ document_id: lib.physics.id, page: 2 });
    expect(scoped.every((p) => p.document_id === lib.physics.id)).toBe(true);
  });

  test("embeddings switched on but no vectors built yet: still keyword retrieval", async () => {
    updateConfig([{ category: "embedding", name: "enable", value: true }]);
    try {
      const scope = { userId: reader, limit: 6 };
      expect(await retrieve("狂犬病疫苗", scope)).toEqual(keywordRetrieve("狂犬病疫苗", scope));
    } finally {
      updateConfig([{ category: "embedding", name: "enable", value: false }]);
    }
  });
});
