// Search records: buffered off the request path and flushed in batches, retention by a daily job,
// the admin list with its filters and permissions, and the dashboard's top / zero-result queries.
import { beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { closeDatabase, configureDatabase, getDb, handle, openDatabase } from "#db/client.ts";
import { jobs } from "#db/schema/jobs.ts";
import { searchRecord } from "#db/schema/search.ts";
import { discardSearchRecords, flushSearchRecords, pendingSearchRecords, purgeSearchRecords, recordSearch } from "#src/features/search/records.ts";
import "#src/features/search/recordsJob.ts";
import { enqueue, getJob } from "#src/jobs/queue.ts";
import { startWorker } from "#src/jobs/worker.ts";
import { resetAll } from "#src/lib/rateLimit.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { setConfig } from "./reader-fixtures.ts";

const t = setupTestApp();
const DAY = 86_400_000;
const count = () => getDb().select().from(searchRecord).all().length;
const base = { type: 0, total: 3, page: 1, spend_ms: 4, user_id: 0, ip: "1.2.3.4", user_agent: "UA" };

function clear() {
  discardSearchRecords();
  getDb().delete(searchRecord).run();
}

function insertAt(keywords: string, ageMs: number, extra: Partial<typeof searchRecord.$inferInsert> = {}) {
  getDb().insert(searchRecord).values({ keywords, type: 0, total: 1, created_at: Date.now() - ageMs, ...extra }).run();
}

beforeAll(() => discardSearchRecords());

describe("recordSearch", () => {
  test("returns at once; rows reach the database after the one-second flush", async () => {
    clear();
    const started = performance.now();
    for (let i = 0; i < 50; i++) recordSearch({ ...base, keywords: `词${i}` });
    expect(performance.now() - started).toBeLessThan(50);
    expect(pendingSearchRecords()).toBe(50);
    expect(count()).toBe(0);
    await Bun.sleep(1300);
    expect(pendingSearchRecords()).toBe(0);
    expect(count()).toBe(50);
  });

  test("1,000 buffered rows are written without waiting for the timer, in one go", async () => {
    clear();
    for (let i = 0; i < 999; i++) recordSearch({ ...base, keywords: `批量${i}` });
    await Bun.sleep(0);
    expect(count()).toBe(0);
    recordSearch({ ...base, keywords: "批量999" });
    await Bun.sleep(0);
    expect(count()).toBe(1000);
    expect(pendingSearchRecords()).toBe(0);
  });

  test("truncates keywords to 64 and the user agent to 255; normalises numbers; ignores blank queries", () => {
    clear();
    recordSearch({ ...base, keywords: `  ${"长".repeat(100)}  `, user_agent: "u".repeat(400), type: 7, total: -3, page: 0, spend_ms: Number.NaN, user_id: null, ip: null });
    recordSearch({ ...base, keywords: "   " });
    expect(flushSearchRecords()).toBe(1);
    const row = getDb().select().from(searchRecord).get()!;
    expect(row.keywords).toBe("长".repeat(64));
    expect(row.user_agent.length).toBe(255);
    expect([row.type, row.total, row.page, row.spend_ms, row.user_id, row.ip]).toEqual([0, 0, 1, 0, 0, ""]);
  });

  test("never throws into the caller, even when the database is closed or cannot be opened", () => {
    clear();
    const file = handle().file;
    expect(() => recordSearch({ ...base, keywords: undefined as unknown as string })).not.toThrow();
    recordSearch({ ...base, keywords: "写不进去" });
    configureDatabase(() => { throw new Error("disk gone"); });
    try {
      expect(flushSearchRecords()).toBe(0);
      expect(() => recordSearch({ ...base, keywords: "打不开" })).not.toThrow();
      expect(pendingSearchRecords()).toBe(0);
    } finally {
      closeDatabase();
      configureDatabase(() => openDatabase(file));
    }
    expect(count()).toBe(0);
  });
});

describe("retention", () => {
  test("purge deletes rows older than security.search_record_retention_days", () => {
    clear();
    setConfig([["security", "search_record_retention_days", 30]]);
    insertAt("旧的", 31 * DAY);
    insertAt("新的", 29 * DAY);
    expect(purgeSearchRecords()).toBe(1);
    expect(getDb().select().from(searchRecord).all().map((r) => r.keywords)).toEqual(["新的"]);
  });

  test("the daily search.records.purge job runs the purge and schedules the next run", async () => {
    clear();
    setConfig([["security", "search_record_retention_days", 7]]);
    insertAt("八天前", 8 * DAY);
    insertAt("昨天", DAY);
    recordSearch({ ...base, keywords: "刚刚" });
    const job = enqueue("search.records.purge");
    const worker = startWorker({ concurrency: 1, pollMs: 20 });
    try {
      for (let i = 0; i < 250 && getJob(job.id)!.status !== "done"; i++) await Bun.sleep(20);
    } finally {
      await worker.stop();
    }
    expect(getJob(job.id)!.status).toBe("done");
    expect(JSON.parse(getJob(job.id)!.result)).toEqual({ deleted: 1 });
    expect(getDb().select().from(searchRecord).all().map((r) => r.keywords).sort()).toEqual(["刚刚", "昨天"].sort());
    const next = getDb().select().from(jobs).where(and(eq(jobs.kind, "search.records.purge"), eq(jobs.status, "queued"))).all();
    expect(next.length).toBe(1);
    expect(next[0]!.run_after).toBeGreaterThan(Date.now() + 23 * 3600_000);
  });
});

describe("GET /api/v1/searchrecord/list", () => {
  const list = (q: string, token = t.rootToken) => t.req("GET", `/api/v1/searchrecord/list${q}`, { token });

  test("401 for visitors, 403 for users without the permission; granting the list opens its page only", async () => {
    expect((await t.req("GET", "/api/v1/searchrecord/list")).status).toBe(401);
    expect((await list("", t.userToken)).status).toBe(403);
    expect((await t.req("DELETE", "/api/v1/searchrecord?id=1", { token: t.userToken })).status).toBe(403);
    const g = await t.req("POST", "/api/v1/group", { token: t.rootToken, body: { title: "搜索分析" } });
    const perms = await t.req("GET", "/api/v1/permission/list?category=searchrecord&size=100", { token: t.rootToken });
    const wanted = perms.body.permission.find((p: any) => p.method === "GET" && p.path === "/api/v1/searchrecord/list");
    expect(wanted).toMatchObject({ title: "查询搜索记录列表", page: "/admin/document/searchrecord" });
    await t.req("PUT", "/api/v1/group/permission", { token: t.rootToken, body: { id: g.body.id, permission_id: [wanted.id] } });
    await t.req("POST", "/api/v1/user", { token: t.rootToken, body: { username: "analyst", password: "analyst-pass-1", group_id: [g.body.id] } });
    resetAll();
    const token = (await t.req("POST", "/api/v1/user/login", { body: { username: "analyst", password: "analyst-pass-1" } })).body.token;
    expect((await list("", token)).status).toBe(200);
    expect((await t.req("DELETE", "/api/v1/searchrecord?id=1", { token })).status).toBe(403);
    const html = { accept: "text/html" };
    const page = await t.req("GET", "/admin/document/searchrecord", { token, headers: html });
    expect(page.status).toBe(200);
    const menu = page.text.slice(page.text.indexOf('class="adm-menu"'), page.text.indexOf("</nav>"));
    expect(menu).toContain("搜索记录");
    expect(menu).not.toContain("文档列表");
    expect((await t.req("GET", "/admin/document/list", { token, headers: html })).res.headers.get("location")).toBe("/admin");
  });

  test("filters by keyword, type, zero results and date; pages newest first with the user name", async () => {
    clear();
    insertAt("机器学习", 0, { type: 0, total: 5, user_id: t.rootId, ip: "9.9.9.9", user_agent: "Chrome" });
    insertAt("机器人", 1000, { type: 1, total: 0 });
    insertAt("高等数学", 3 * DAY, { type: 0, total: 0 });
    insertAt("线性代数", 40 * DAY, { type: 0, total: 2 });
    const all = await list("");
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(4);
    expect(all.body.search_record.map((r: any) => r.keywords)).toEqual(["机器学习", "机器人", "高等数学", "线性代数"]);
    expect(all.body.search_record[0]).toMatchObject({ keywords: "机器学习", total: 5, username: "root", ip: "9.9.9.9", user_agent: "Chrome", type: 0 });
    const kws = async (q: string) => (await list(q)).body.search_record.map((r: any) => r.keywords);
    expect(await kws("?keyword=机器")).toEqual(["机器学习", "机器人"]);
    expect(await kws("?type=1")).toEqual(["机器人"]);
    expect(await kws("?zero=1")).toEqual(["机器人", "高等数学"]);
    expect(await kws("?zero=false")).toEqual(["机器学习", "线性代数"]);
    expect(await kws("?days=7")).toEqual(["机器学习", "机器人", "高等数学"]);
    expect(await kws("?zero=true&days=1")).toEqual(["机器人"]);
    const day = (ms: number) => new Date(Date.now() - ms + 8 * 3600_000).toISOString().slice(0, 10);
    expect(await kws(`?start=${day(40 * DAY)}&end=${day(3 * DAY)}`)).toEqual(["高等数学", "线性代数"]);
    const paged = await list("?page=2&size=3");
    expect([paged.body.total, paged.body.search_record.map((r: any) => r.keywords)]).toEqual([4, ["线性代数"]]);
  });

  test("bad filters are 400 with a Chinese message", async () => {
    for (const q of ["?type=2", "?zero=maybe", "?start=2024-13-01", "?start=2024-02-30", "?end=yesterday", "?start=2024-05-02&end=2024-05-01", "?days=0"]) {
      const r = await list(q);
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(/[\u4e00-\u9fa5]/);
    }
  });
});

describe("DELETE /api/v1/searchrecord", () => {
  test("deletes the given ids; none given is a 400", async () => {
    clear();
    insertAt("甲", 0);
    insertAt("乙", 0);
    insertAt("丙", 0);
    const ids = getDb().select().from(searchRecord).all().map((r) => r.id);
    const r = await t.req("DELETE", `/api/v1/searchrecord?id=${ids[0]}&id=${ids[1]}`, { token: t.rootToken });
    expect([r.status, r.body.deleted]).toEqual([200, 2]);
    expect(count()).toBe(1);
    expect((await t.req("DELETE", "/api/v1/searchrecord", { token: t.rootToken })).status).toBe(400);
  });
});

describe("admin screens", () => {
  test("/admin/document/searchrecord renders the table for the root admin; visitors go to login", async () => {
    clear();
    insertAt("<b>注入</b>", 0);
    const r = await t.req("GET", "/admin/document/searchrecord", { token: t.rootToken });
    expect(r.status).toBe(200);
    expect(r.text).toContain("搜索记录");
    expect(r.text).toContain('href="/admin/document/searchrecord"');
    expect(r.text).not.toContain("<b>注入</b>");
    const anon = await t.req("GET", "/admin/document/searchrecord");
    expect(anon.status).toBe(302);
    expect(anon.res.headers.get("location")).toContain("/login");
  });

  test("the dashboard and GET /api/v1/stats show top and zero-result queries of the last 7 days", async () => {
    clear();
    for (let i = 0; i < 3; i++) insertAt("考研英语", i * 1000, { total: 9 });
    insertAt("考研数学", 0, { total: 4 });
    insertAt("没有的书", 0, { total: 0 });
    insertAt("没有的书", 0, { total: 0 });
    insertAt("很久以前", 8 * DAY, { total: 0 });
    recordSearch({ ...base, keywords: "考研数学" });
    const r = await t.req("GET", "/api/v1/stats", { token: t.rootToken });
    expect(r.body.search).toEqual({
      // Ties keep a stable order: by the keywords' code points.
      top: [{ keywords: "考研英语", count: 3 }, { keywords: "没有的书", count: 2 }, { keywords: "考研数学", count: 2 }],
      zero: [{ keywords: "没有的书", count: 2 }],
    });
    const page = await t.req("GET", "/admin/dashboard", { token: t.rootToken });
    expect(page.text).toContain("最近 7 天热门搜索");
    expect(page.text).toContain("最近 7 天无结果搜索");
    expect(page.text).toContain("没有的书");
    expect(page.text).not.toContain("很久以前");
  });
});
