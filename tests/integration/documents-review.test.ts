// Admin review and maintenance: approve / reject / disable / enable by the conversion contract,
// recommend, reconvert, category counts of visible documents only, and admin-only access.
import { beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { getDb, getSqlite } from "#db/client.ts";
import { document } from "#db/schema/documents.ts";
import { refreshCategoryCounts } from "#src/features/documents/counts.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { joinGroup, makeCategory, REVIEWED_GROUP, uploadDocument, useDocumentsDir } from "./documents-fixtures.ts";

const t = setupTestApp();
useDocumentsDir();
let parent: number;
let leaf: number;

beforeAll(() => {
  joinGroup(t.userId, REVIEWED_GROUP);
  parent = makeCategory("计算机").id;
  leaf = makeCategory("编程", { parent }).id;
});

const row = (id: number) => getDb().select().from(document).where(eq(document.id, id)).get()!;
const docCount = (id: number) => (getSqlite().query("select doc_count as n from category where id = ?").get(id) as { n: number }).n;
const check = (id: number[], status: number, token = t.rootToken) => t.req("PUT", "/api/v1/document/check", { token, body: { id, status } });
const pendingJobs = (id: number) => (getSqlite().query("select count(*) as n from jobs where kind = 'document.convert' and status = 'queued' and json_extract(payload, '$.document_id') = ?").get(id) as { n: number }).n;
/** What a finished conversion leaves on a document in review: pages, no error, status kept. */
const converted = (id: number) => {
  getSqlite().run("update jobs set status = 'done' where kind = 'document.convert' and json_extract(payload, '$.document_id') = ?", [id]);
  getDb().update(document).set({ pages: 5, preview: 5 }).where(eq(document.id, id)).run();
};

describe("PUT /api/v1/document/check", () => {
  test("members 403, anonymous 401; a bad status 400", async () => {
    const d = await uploadDocument(t, t.userToken, { categoryId: leaf });
    expect((await check([d.id], 2, t.userToken)).status).toBe(403);
    expect((await check([d.id], 2, "")).status).toBe(401);
    expect((await check([d.id], 3)).status).toBe(400);
    expect((await check([], 2)).status).toBe(400);
    expect((await check([999_999], 2)).status).toBe(404);
  });

  test("approving a converted document in review makes it visible and counts it in its whole chain", async () => {
    const d = await uploadDocument(t, t.userToken, { categoryId: leaf, title: "已转换待审" });
    converted(d.id);
    expect((await t.req("GET", `/api/v1/document?id=${d.id}`)).status).toBe(404);
    const before = [docCount(parent), docCount(leaf)];
    const r = await check([d.id], 2);
    expect(r.body).toMatchObject({ updated: 1 });
    expect(row(d.id).status).toBe(2);
    expect([docCount(parent), docCount(leaf)]).toEqual([before[0]! + 1, before[1]! + 1]);
    expect((await t.req("GET", `/api/v1/document?id=${d.id}`)).status).toBe(200);
  });

  test("approving one whose conversion is still queued lets the converter finish it (status 1, no second job)", async () => {
    const d = await uploadDocument(t, t.userToken, { categoryId: leaf });
    expect(pendingJobs(d.id)).toBe(1);
    await check([d.id], 2);
    expect(row(d.id).status).toBe(1);
    expect(pendingJobs(d.id)).toBe(1);
  });

  test("reject applies to documents in review only; disable then enable brings a converted one back", async () => {
    const d = await uploadDocument(t, t.userToken, { categoryId: leaf });
    converted(d.id);
    expect((await check([d.id], 7)).body.updated).toBe(1);
    expect(row(d.id).status).toBe(7);
    expect((await check([d.id], 7)).body).toMatchObject({ updated: 0, message: "所选文档的状态不适用此操作" });
    await check([d.id], 2);
    expect(row(d.id).status).toBe(2);
    const before = docCount(leaf);
    await check([d.id], 4);
    expect(row(d.id).status).toBe(4);
    expect(docCount(leaf)).toBe(before - 1);
    await check([d.id], 2);
    expect(row(d.id).status).toBe(2);
    expect(docCount(leaf)).toBe(before);
  });

  test("enabling a disabled document that never converted queues its conversion (status 0)", async () => {
    const d = await uploadDocument(t, t.rootToken, { categoryId: leaf });
    getSqlite().run("update jobs set status = 'failed' where json_extract(payload, '$.document_id') = ?", [d.id]);
    await check([d.id], 4);
    await check([d.id], 2);
    expect(row(d.id).status).toBe(0);
    expect(pendingJobs(d.id)).toBe(1);
  });
});

describe("recommend and reconvert", () => {
  test("recommend 1 keeps the first time, 2 renews it, 0 cancels", async () => {
    const d = await uploadDocument(t, t.userToken, { categoryId: leaf });
    expect((await t.req("PUT", "/api/v1/document/recommend", { token: t.userToken, body: { id: [d.id], type: 1 } })).status).toBe(403);
    await t.req("PUT", "/api/v1/document/recommend", { token: t.rootToken, body: { id: [d.id], type: 1 } });
    const first = row(d.id).recommend_at!;
    expect(row(d.id).is_recommend).toBe(true);
    await Bun.sleep(5);
    await t.req("PUT", "/api/v1/document/recommend", { token: t.rootToken, body: { id: [d.id], type: 1 } });
    expect(row(d.id).recommend_at).toBe(first);
    await t.req("PUT", "/api/v1/document/recommend", { token: t.rootToken, body: { id: [d.id], type: 2 } });
    expect(row(d.id).recommend_at!).toBeGreaterThan(first);
    await t.req("PUT", "/api/v1/document/recommend", { token: t.rootToken, body: { id: [d.id], type: 0 } });
    expect(row(d.id)).toMatchObject({ is_recommend: false, recommend_at: null });
    expect((await t.req("PUT", "/api/v1/document/recommend", { token: t.rootToken, body: { id: [d.id], type: 3 } })).status).toBe(400);
  });

  test("reconvert one document or every failed one; a converted one leaves the counts until done", async () => {
    const a = await uploadDocument(t, t.rootToken, { categoryId: leaf });
    const b = await uploadDocument(t, t.rootToken, { categoryId: leaf });
    getSqlite().run("update jobs set status = 'done' where json_extract(payload, '$.document_id') in (?, ?)", [a.id, b.id]);
    getDb().update(document).set({ status: 2, pages: 2 }).where(eq(document.id, a.id)).run();
    getDb().update(document).set({ status: 3, convert_error: "转换失败" }).where(eq(document.id, b.id)).run();
    refreshCategoryCounts();
    const before = docCount(leaf);
    const one = await t.req("PUT", "/api/v1/document/reconvert", { token: t.rootToken, body: { id: [a.id] } });
    expect(one.body).toMatchObject({ queued: 1 });
    expect(row(a.id).status).toBe(5);
    expect(docCount(leaf)).toBe(before - 1);
    expect(pendingJobs(a.id)).toBe(1);
    const all = await t.req("PUT", "/api/v1/document/reconvert", { token: t.rootToken, body: { all_failed: true } });
    expect(all.status).toBe(200);
    expect(row(b.id)).toMatchObject({ status: 5, convert_error: "" });
    expect(pendingJobs(b.id)).toBe(1);
    expect((await t.req("PUT", "/api/v1/document/reconvert", { token: t.rootToken, body: {} })).status).toBe(400);
    expect((await t.req("PUT", "/api/v1/document/reconvert", { token: t.userToken, body: { all_failed: true } })).status).toBe(403);
  });
});

test("refreshCategoryCounts counts converted, not-deleted documents through the chain", () => {
  getSqlite().run("update category set doc_count = 99");
  refreshCategoryCounts();
  const visible = (getSqlite().query("select count(*) as n from document where status = 2 and deleted_at is null and category_id = ?").get(leaf) as { n: number }).n;
  expect(docCount(leaf)).toBe(visible);
  expect(docCount(parent)).toBe(visible + (getSqlite().query("select count(*) as n from document where status = 2 and deleted_at is null and category_id = ?").get(parent) as { n: number }).n);
});
