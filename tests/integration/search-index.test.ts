import { beforeAll, describe, expect, test } from "bun:test";
import { closeDatabase, configureDatabase, getSqlite, openDatabase } from "#db/client.ts";
import { applySuccess } from "#src/features/convert/store.ts";
import { rebuildIndex, rowidOf } from "#src/features/search/indexer.ts";
import { searchDocuments } from "#src/features/search/service.ts";
import { startWorker } from "#src/jobs/worker.ts";
import "#src/jobs/registry.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { setConfig, useDocumentsDir } from "./documents-fixtures.ts";
import { addDoc, addFiller } from "./search-fixtures.ts";

const t = setupTestApp();
useDocumentsDir();
const found = (wd: string) => searchDocuments({ wd, type: 0, page: 1, size: 50 }).document.map((d) => d.uuid);
const rows = (id: number) => (getSqlite().query("SELECT count(*) AS n FROM search_fts WHERE rowid BETWEEN ? AND ?").get(rowidOf(id, 0), rowidOf(id + 1, 0) - 1) as { n: number }).n;

beforeAll(() => addFiller(20));

describe("the index follows the data in the same transaction", () => {
  test("a conversion's outcome makes the document findable at once; a rolled-back one does not", () => {
    const d = addDoc({ title: "待转换的文件", status: 0 });
    expect(found("哈密瓜种植")).toEqual([]);
    const outcome = { pages: 2, preview: 2, width: 600, height: 800, texts: ["封面", "哈密瓜种植技术要点"], description: "", keywords: [] };
    // The job completion transaction: an error after applySuccess rolls everything back.
    expect(() => getSqlite().transaction(() => {
      applySuccess(d.id, outcome);
      throw new Error("crash before commit");
    }).immediate()).toThrow("crash before commit");
    expect(found("哈密瓜种植")).toEqual([]);
    getSqlite().transaction(() => applySuccess(d.id, outcome)).immediate();
    const r = searchDocuments({ wd: "哈密瓜种植", type: 0, page: 1, size: 10 });
    expect(r.document.map((x) => [x.uuid, x.page])).toEqual([[d.uuid, 2]]);
  });

  test("editing the title reindexes it", async () => {
    const d = addDoc({ title: "旧标题火烈鸟", pages: ["正文"] });
    const r = await t.req("PUT", "/api/v1/document", { token: t.rootToken, body: { id: d.id, title: "新标题帝企鹅" } });
    expect(r.status).toBe(200);
    expect(found("火烈鸟")).toEqual([]);
    expect(found("帝企鹅")).toEqual([d.uuid]);
  });

  test("disabled or deleted: gone at once; enabled or restored: back at once; purged: rows removed", async () => {
    const d = addDoc({ title: "犀牛保护报告", pages: ["草原上的犀牛"] });
    const put = (path: string, body: unknown) => t.req("PUT", path, { token: t.rootToken, body });
    expect(found("犀牛")).toEqual([d.uuid]);
    expect((await put("/api/v1/document/check", { id: [d.id], status: 4 })).status).toBe(200);
    expect(found("犀牛")).toEqual([]);
    expect((await put("/api/v1/document/check", { id: [d.id], status: 2 })).status).toBe(200);
    expect(found("犀牛")).toEqual([d.uuid]);
    expect((await t.req("DELETE", `/api/v1/document?id=${d.id}`, { token: t.rootToken })).status).toBe(200);
    expect(found("犀牛")).toEqual([]);
    expect((await put("/api/v1/document/recycle/restore", { id: [d.id] })).status).toBe(200);
    expect(found("犀牛")).toEqual([d.uuid]);
    expect(rows(d.id)).toBe(2);
    await t.req("DELETE", `/api/v1/document?id=${d.id}`, { token: t.rootToken });
    expect((await t.req("DELETE", `/api/v1/document/recycle?id=${d.id}`, { token: t.rootToken })).status).toBe(200);
    expect(rows(d.id)).toBe(0);
  });
});

describe("rebuild", () => {
  test("only administrators may start or watch it", async () => {
    expect((await t.req("PUT", "/api/v1/renew/document/index")).status).toBe(401);
    expect((await t.req("PUT", "/api/v1/renew/document/index", { token: t.userToken })).status).toBe(403);
    expect((await t.req("GET", "/api/v1/renew/document/index", { token: t.userToken })).status).toBe(403);
  });

  test("progress rises to 99 while batches commit, then the job reports 100", async () => {
    for (let i = 0; i < 250; i++) addDoc({ title: `批量文档${i}`, pages: [`内容${i}`] });
    const seen: number[] = [];
    await rebuildIndex((p) => void seen.push(p));
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.at(-1)).toBe(99);
  });

  test("a dictionary change is applied to new searches, and the job re-segments older documents", async () => {
    const d = addDoc({ title: "魔豆文库使用说明", pages: ["欢迎使用"] });
    setConfig("search", "dictionary", "魔豆文库 50000");
    // The query is now one word the old rows do not hold as a token.
    expect(found("魔豆文库")).not.toContain(d.uuid);
    const before = await t.req("GET", "/api/v1/renew/document/index", { token: t.rootToken });
    expect(before.body.stale).toBe(true);
    const start = await t.req("PUT", "/api/v1/renew/document/index", { token: t.rootToken });
    expect(start.status).toBe(200);
    expect(["queued", "running"]).toContain(start.body.status);
    const worker = startWorker({ concurrency: 1, pollMs: 20 });
    let status = start.body;
    for (let i = 0; i < 200 && status.status !== "done"; i++) {
      await Bun.sleep(25);
      status = (await t.req("GET", "/api/v1/renew/document/index", { token: t.rootToken })).body;
    }
    await worker.stop();
    expect(status).toMatchObject({ status: "done", progress: 100, stale: false });
    expect(found("魔豆文库")).toContain(d.uuid);
    setConfig("search", "dictionary", "");
  });

  test("the admin config screen shows the rebuild panel", async () => {
    const r = await t.req("GET", "/admin/config/search", { token: t.rootToken, headers: { accept: "text/html" } });
    expect(r.status).toBe(200);
    expect(r.text).toContain("搜索索引");
    expect(r.text).toContain("AdminSearchIndex");
  });
});

describe("persistence", () => {
  test("the index survives closing and reopening the database, with no rebuild", () => {
    const d = addDoc({ title: "长颈鹿观察日记", pages: ["非洲草原"] });
    const file = getSqlite().filename;
    closeDatabase();
    configureDatabase(() => openDatabase(file));
    expect(found("长颈鹿")).toEqual([d.uuid]);
    expect((getSqlite().query("SELECT count(*) AS n FROM jobs WHERE kind = 'search.rebuild' AND status = 'queued'").get() as { n: number }).n).toBe(0);
  });

  test("a database migrated before the index existed gets its tables and a queued rebuild on first use", () => {
    const file = getSqlite().filename;
    getSqlite().exec("DROP TABLE search_fts; DROP TABLE search_meta; DELETE FROM jobs WHERE kind = 'search.rebuild'");
    closeDatabase();
    configureDatabase(() => openDatabase(file));
    expect(found("非洲草原")).toEqual([]);
    expect(getSqlite().query("SELECT 1 FROM sqlite_master WHERE name = 'search_fts'").get()).not.toBeNull();
    expect((getSqlite().query("SELECT count(*) AS n FROM jobs WHERE kind = 'search.rebuild' AND status = 'queued'").get() as { n: number }).n).toBe(1);
  });
});
