// Title suggestions for the header box: Chinese by any part of a title, latin words by prefix and
// (when long) fuzzily, only visible documents, and a background refresh once content changes;
// type 1 (the box on article pages) the same over approved articles.
import { beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { document } from "#db/schema/documents.ts";
import { expireSuggestCheck, queryTerms, resetSuggestIndex, suggestIdle, titleTerms } from "#src/features/search/suggest.ts";
import { bumpContentVersion } from "#src/lib/contentVersion.ts";
import { resetAll } from "#src/lib/rateLimit.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { MEMBERS, joinGroup, publish } from "./articles-fixtures.ts";
import { makeDoc, useDocumentsRoot } from "./reader-fixtures.ts";

const t = setupTestApp();
const titles = async (wd: string, type = 0) => {
  const r = await t.req("GET", `/api/v1/search/suggest?wd=${encodeURIComponent(wd)}&type=${type}`);
  expect(r.status).toBe(200);
  return (r.body.suggest as { title: string; uuid: string }[]).map((s) => s.title);
};

beforeAll(() => {
  useDocumentsRoot();
  resetSuggestIndex();
  const userId = t.rootId;
  for (const title of ["机器学习入门教程", "深度学习实战指南", "机器人设计", "Python 数据分析", "PYTHON3 编程手册", "JavaScript 高级程序设计", "２０２４年考研英语真题"]) makeDoc({ userId, title });
  makeDoc({ userId, title: "机器学习草稿", status: 0 });
  makeDoc({ userId, title: "机器学习已禁用", status: 4 });
  makeDoc({ userId, title: "机器学习回收站", deleted: true });
  for (let i = 1; i <= 12; i++) makeDoc({ userId, title: `学习资料合集 ${i}` });
});

describe("terms", () => {
  test("titles index Han characters and bigrams, latin words folded to lower case and half width", () => {
    expect(titleTerms("机器学习 Python３")).toEqual(["机", "机器", "器", "器学", "学", "学习", "习", "python3"]);
    expect(titleTerms("C++入门")).toEqual(["c", "入", "入门", "门"]);
  });
  test("queries use bigrams (a lone character stays one term) and words", () => {
    expect(queryTerms("机器学")).toEqual(["机器", "器学"]);
    expect(queryTerms("学")).toEqual(["学"]);
    expect(queryTerms("Python 数据")).toEqual(["python", "数据"]);
    expect(queryTerms("  ！？ ")).toEqual([]);
  });
});

describe("GET /api/v1/search/suggest", () => {
  test("Chinese input matches from the start or the middle of a title, one character or several", async () => {
    expect(await titles("机器学")).toEqual(["机器学习入门教程"]);
    expect(await titles("器学习")).toEqual(["机器学习入门教程"]);
    expect(await titles("机器")).toEqual(["机器人设计", "机器学习入门教程"]);
    expect(await titles("实战")).toEqual(["深度学习实战指南"]);
    expect((await titles("学")).length).toBe(8);
    expect(await titles("考研英语")).toEqual(["２０２４年考研英语真题"]);
  });

  test("latin words match by prefix, case-insensitively, and long ones fuzzily", async () => {
    expect(await titles("pyth")).toEqual(["Python 数据分析", "PYTHON3 编程手册"]);
    expect(await titles("PYTHON 数据")).toEqual(["Python 数据分析"]);
    expect(await titles("javscript")).toEqual(["JavaScript 高级程序设计"]);
    expect(await titles("2024 考研")).toEqual(["２０２４年考研英语真题"]);
    expect(await titles("rust")).toEqual([]);
  });

  test("answers at most 8, with the uuid of each document", async () => {
    const r = await t.req("GET", "/api/v1/search/suggest?wd=学习资料");
    expect(r.body.suggest.length).toBe(8);
    const row = getDb().select().from(document).where(eq(document.title, r.body.suggest[0].title)).get()!;
    expect(r.body.suggest[0].uuid).toBe(row.uuid);
    expect(r.res.headers.get("cache-control")).toBe("public, max-age=15");
  });

  test("hidden documents (not converted, disabled, in the recycle bin) are never suggested", async () => {
    for (const wd of ["机器学习", "草稿", "已禁用", "回收站"]) expect((await titles(wd)).some((x) => /草稿|禁用|回收站/.test(x))).toBe(false);
  });

  test("a document hidden after the index was built disappears at once", async () => {
    expect(await titles("深度学习")).toEqual(["深度学习实战指南"]);
    getDb().update(document).set({ status: 4 }).where(eq(document.title, "深度学习实战指南")).run();
    expect(await titles("深度学习")).toEqual([]);
    getDb().update(document).set({ status: 2 }).where(eq(document.title, "深度学习实战指南")).run();
  });

  test("a newly visible document is found after the background refresh; the old index answers meanwhile", async () => {
    makeDoc({ userId: t.rootId, title: "量子计算导论" });
    expect(await titles("量子")).toEqual([]);
    bumpContentVersion();
    expireSuggestCheck();
    // This request starts the rebuild and is answered by the index it already has.
    expect(await titles("量子")).toEqual([]);
    await suggestIdle();
    expect(await titles("量子")).toEqual(["量子计算导论"]);
    // A document that becomes visible later (conversion done) is picked up the same way.
    const pending = makeDoc({ userId: t.rootId, title: "量子力学讲义", status: 1 });
    bumpContentVersion();
    expireSuggestCheck();
    await titles("量子");
    await suggestIdle();
    expect(await titles("量子")).toEqual(["量子计算导论"]);
    getDb().update(document).set({ status: 2, updated_at: Date.now() + 1 }).where(eq(document.id, pending.id)).run();
    bumpContentVersion();
    expireSuggestCheck();
    await titles("量子");
    await suggestIdle();
    expect(await titles("量子")).toEqual(["量子力学讲义", "量子计算导论"]);
  });

  test("blank input and bad types", async () => {
    expect(await titles("   ")).toEqual([]);
    expect(await titles("   ", 1)).toEqual([]);
    const bad = await t.req("GET", "/api/v1/search/suggest?wd=a&type=9");
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("搜索类型不正确");
  });

  test("type 1 suggests approved articles only, each with its identifier and page; documents never", async () => {
    joinGroup(t.userId, MEMBERS);
    const shown = await publish(t, t.rootToken, { title: "机器学习的数学基础" });
    const other = await publish(t, t.rootToken, { title: "机器翻译简史" });
    const pending = await publish(t, t.userToken, { title: "机器学习待审稿" });
    expect(pending.status).toBe(0);
    const binned = await publish(t, t.rootToken, { title: "机器学习已删除" });
    await t.req("DELETE", `/api/v1/article?id=${binned.id}`, { token: t.rootToken });
    bumpContentVersion();
    expireSuggestCheck();
    await titles("机器", 1);
    await suggestIdle();
    const r = await t.req("GET", `/api/v1/search/suggest?type=1&wd=${encodeURIComponent("机器学")}`);
    expect(r.body.suggest).toEqual([{ title: "机器学习的数学基础", identifier: shown.identifier, url: `/article/${shown.identifier}` }]);
    expect((await titles("机器", 1)).sort()).toEqual(["机器学习的数学基础", "机器翻译简史"].sort());
    for (const wd of ["待审", "已删除", "入门教程"]) expect(await titles(wd, 1)).toEqual([]);
    // Documents carry their own page too, so one box can open either kind.
    const doc = (await t.req("GET", `/api/v1/search/suggest?wd=${encodeURIComponent("机器学")}`)).body.suggest[0];
    expect(doc.url).toBe(`/document/${doc.uuid}`);
    // Hidden after the build (deleted): gone at once; published later: found after the refresh.
    await t.req("DELETE", `/api/v1/article?id=${other.id}`, { token: t.rootToken });
    expect(await titles("翻译", 1)).toEqual([]);
    await t.req("PUT", "/api/v1/article/check", { token: t.rootToken, body: { id: [pending.id], status: 1 } });
    expireSuggestCheck();
    await titles("待审", 1);
    await suggestIdle();
    expect(await titles("待审", 1)).toEqual(["机器学习待审稿"]);
  });

  test("is rate-limited per IP", async () => {
    resetAll();
    const from = (ip: string) => t.req("GET", "/api/v1/search/suggest?wd=机器", { headers: { "x-forwarded-for": ip } });
    for (let i = 0; i < 60; i++) expect((await from("10.0.0.1")).status).toBe(200);
    const r = await from("10.0.0.1");
    expect([r.status, r.body.message]).toEqual([429, "搜索过于频繁，请稍后再试"]);
    expect((await from("10.0.0.2")).status).toBe(200);
    resetAll();
  });
});
