// Category API (spec §7): admin CRUD with Chinese 400s, parent rules (exists, same type, no
// cycles), delete refused while children or documents remain, the public list's field/type
// filters, disabled rows hidden from visitors, permissions, and cover upload (attachment type 6).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getSqlite } from "#db/client.ts";
import { setStorageRoot } from "#src/features/admin/attachment/storage.ts";
import { contentVersion } from "#src/lib/contentVersion.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { pngBytes, uploadForm } from "./admin-fixtures.ts";
import { publish } from "./articles-fixtures.ts";
import { addDocument, refreshCounts } from "./categories-fixtures.ts";

const t = setupTestApp();
const post = (body: unknown, token = t.rootToken) => t.req("POST", "/api/v1/category", { token, body });
const put = (body: unknown, token = t.rootToken) => t.req("PUT", "/api/v1/category", { token, body });
const del = (query: string, token = t.rootToken) => t.req("DELETE", `/api/v1/category?${query}`, { token });
const list = (query = "", token?: string) => t.req("GET", `/api/v1/category/list${query ? `?${query}` : ""}`, { token });
const count = () => (getSqlite().query("select count(*) as n from category").get() as { n: number }).n;

async function expect400(r: Promise<{ status: number; body: any }>, message: string) {
  const res = await r;
  expect([res.status, res.body?.message]).toEqual([400, message]);
}

describe("create and update validation", () => {
  test("bad fields are Chinese 400s and write nothing", async () => {
    await expect400(post({}), "请输入分类名称");
    await expect400(post({ title: "  " }), "请输入分类名称");
    await expect400(post({ title: "x".repeat(65) }), "分类名称不能超过 64 个字符");
    await expect400(post({ title: "a", type: 2 }), "分类类型只能是 0（文档）或 1（文章）");
    await expect400(post({ title: "a", parent_id: -1 }), "上级分类不正确");
    await expect400(post({ title: "a", parent_id: 9999 }), "上级分类不存在");
    await expect400(post({ title: "a", cover: "javascript:alert(1)" }), "封面地址格式不正确");
    await expect400(post({ title: "a", icon: "//evil.example/x.png" }), "图标地址格式不正确");
    await expect400(post({ title: "a", sort: 1.5 }), "排序必须是整数");
    await expect400(post({ title: "a", enable: "yes" }), "启用状态必须是是或否");
    await expect400(post({ title: "a", show_description: 1 }), "是否显示描述必须是是或否");
    await expect400(post({ title: "a", description: "长".repeat(501) }), "分类描述不能超过 500 个字符");
    await expect400(t.req("POST", "/api/v1/category", { token: t.rootToken, body: "{bad", headers: { "content-type": "application/json" } }), "请求格式不正确（不是有效的 JSON 或表单）");
    expect(count()).toBe(0);
  });

  test("create answers the row with defaults; GET reads it; a write bumps the content version", async () => {
    const before = contentVersion();
    const r = await post({ title: " 教育资料 ", cover: "/uploads/category/2026/01/a.png", description: "中小学资料", show_description: true });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ title: "教育资料", parent_id: 0, type: 0, enable: true, sort: 0, doc_count: 0, show_description: true, cover: "/uploads/category/2026/01/a.png" });
    expect(contentVersion()).toBeGreaterThan(before);
    const got = await t.req("GET", `/api/v1/category?id=${r.body.id}`, { token: t.rootToken });
    expect(got.body.title).toBe("教育资料");
    expect((await t.req("GET", "/api/v1/category?id=99999", { token: t.rootToken })).status).toBe(404);
  });

  test("the parent must have the same type; cycles and self-parents are refused", async () => {
    const a = (await post({ title: "A" })).body.id;
    const b = (await post({ title: "B", parent_id: a })).body.id;
    const c = (await post({ title: "C", parent_id: b })).body.id;
    const article = (await post({ title: "文章分类", type: 1 })).body.id;
    await expect400(post({ title: "混合", parent_id: article }), "上级分类必须是同一类型（文档或文章）的分类");
    await expect400(post({ title: "混合", parent_id: a, type: 1 }), "上级分类必须是同一类型（文档或文章）的分类");
    await expect400(put({ id: a, parent_id: a }), "上级分类不能是自己");
    await expect400(put({ id: a, parent_id: c }), "上级分类不能是自己的下级分类");
    await expect400(put({ id: a, parent_id: b }), "上级分类不能是自己的下级分类");
    // A type change would split the tree: refused while children exist.
    await expect400(put({ id: a, type: 1 }), "该分类下还有子分类或文档，不能修改分类类型");
    expect((await put({ id: c, parent_id: 0, sort: 5 })).body).toMatchObject({ parent_id: 0, sort: 5 });
    expect((await put({ id: 99999, title: "x" })).status).toBe(404);
  });
});

describe("delete", () => {
  test("refused with children or documents; allowed when empty or together with its children", async () => {
    const p = (await post({ title: "待删父类" })).body.id;
    const kid = (await post({ title: "待删子类", parent_id: p })).body.id;
    await expect400(del(`id=${p}`), "该分类下还有子分类或文档");
    const withDoc = (await post({ title: "有文档" })).body.id;
    addDocument("回收站里的文档", withDoc, { deleted: true });
    await expect400(del(`id=${withDoc}`), "该分类下还有子分类或文档");
    // Failed deletes leave everything in place.
    expect(getSqlite().query("select count(*) as n from category where id in (?, ?, ?)").get(p, kid, withDoc)).toEqual({ n: 3 });
    expect((await del(`id=${p}&id=${kid}`)).body).toEqual({ message: "删除成功", deleted: 2 });
    expect((await del("id=99999")).status).toBe(404);
    await expect400(del(""), "请选择要删除的记录");
  });
});

describe("moving a category", () => {
  test("rewrites its documents' ancestor chains and recounts", async () => {
    const oldTop = (await post({ title: "旧上级" })).body.id;
    const newTop = (await post({ title: "新上级" })).body.id;
    const leaf = (await post({ title: "移动的分类", parent_id: oldTop })).body.id;
    const doc = addDocument("跟着移动的文档", leaf);
    refreshCounts();
    const chainOf = () => (getSqlite().query("select category_id from document_category where document_id = ? order by category_id").all(doc.id) as { category_id: number }[]).map((r) => r.category_id);
    expect(chainOf()).toEqual([oldTop, leaf].sort((x, y) => x - y));
    await put({ id: leaf, parent_id: newTop });
    expect(chainOf()).toEqual([newTop, leaf].sort((x, y) => x - y));
    const counts = getSqlite().query("select id, doc_count from category where id in (?, ?, ?) order by id").all(oldTop, newTop, leaf);
    expect(counts).toEqual([{ id: oldTop, doc_count: 0 }, { id: newTop, doc_count: 1 }, { id: leaf, doc_count: 1 }]);
  });

  test("an article category keeps every ancestor's count right, on the old chain and the new", async () => {
    const make = async (title: string, parent_id = 0) => (await post({ title, parent_id, type: 1 })).body.id as number;
    const top = await make("文章旧根");
    const mid = await make("文章中间", top);
    const leaf = await make("文章叶子", mid);
    const other = await make("文章新根");
    const otherMid = await make("新根下的中间", other);
    for (const title of ["跟着分类走一", "跟着分类走二"]) await publish(t, t.rootToken, { title, category_id: [top, mid, leaf] });
    await publish(t, t.rootToken, { title: "留在中间", category_id: [top, mid] });
    const binned = await publish(t, t.rootToken, { title: "回收站里不算", category_id: [top, mid, leaf] });
    await t.req("DELETE", `/api/v1/article?id=${binned.id}`, { token: t.rootToken });
    const counts = () => Object.fromEntries((getSqlite().query(`select id, doc_count from category where id in (${[top, mid, leaf, other, otherMid].join(",")})`)
      .all() as { id: number; doc_count: number }[]).map((r) => [r.id, r.doc_count]));
    expect(counts()).toEqual({ [top]: 3, [mid]: 3, [leaf]: 2, [other]: 0, [otherMid]: 0 });
    // The leaf moves two levels away: its old ancestors lose its articles, the new ones gain them.
    expect((await put({ id: leaf, parent_id: otherMid, type: 1 })).status).toBe(200);
    expect(counts()).toEqual({ [top]: 1, [mid]: 1, [leaf]: 2, [other]: 2, [otherMid]: 2 });
    // A whole branch moves: everything under it comes along.
    expect((await put({ id: mid, parent_id: otherMid, type: 1 })).status).toBe(200);
    expect(counts()).toEqual({ [top]: 0, [mid]: 1, [leaf]: 2, [other]: 3, [otherMid]: 3 });
    // Up to the top level: the branch it left is recounted too.
    expect((await put({ id: otherMid, parent_id: 0, type: 1 })).status).toBe(200);
    expect(counts()).toEqual({ [top]: 0, [mid]: 1, [leaf]: 2, [other]: 0, [otherMid]: 3 });
  });
});

describe("GET /api/v1/category/list", () => {
  let top = 0;
  let off = 0;
  let under = 0;
  beforeAll(async () => {
    getSqlite().run("delete from document_category; delete from document; delete from category");
    top = (await post({ title: "列表顶级", sort: 2 })).body.id;
    off = (await post({ title: "已禁用", sort: 1, enable: false })).body.id;
    under = (await post({ title: "禁用分类的子类", parent_id: off })).body.id;
    await post({ title: "文章类", type: 1, sort: 0 });
  });

  test("visitors get enabled, reachable rows sorted by sort then id", async () => {
    const r = await list();
    expect(r.status).toBe(200);
    expect(r.body.category.map((c: any) => c.title)).toEqual(["文章类", "列表顶级"]);
    expect(r.body.total).toBe(2);
    // Asking for disabled rows changes nothing for a visitor or a member.
    expect((await list("enable=false")).body.total).toBe(2);
    expect((await list("", t.userToken)).body.total).toBe(2);
  });

  test("admins see disabled rows too and may filter by enable and parent", async () => {
    const all = await list("", t.rootToken);
    expect(all.body.category.map((c: any) => c.id)).toEqual(expect.arrayContaining([top, off, under]));
    expect(all.body.total).toBe(4);
    expect((await list("enable=false", t.rootToken)).body.category.map((c: any) => c.id)).toEqual([off]);
    expect((await list(`parent_id=${off}`, t.rootToken)).body.category.map((c: any) => c.id)).toEqual([under]);
  });

  test("repeated type and field parameters", async () => {
    const docs = await list("type=0");
    expect(docs.body.category.map((c: any) => c.type)).toEqual([0]);
    expect((await list("type=0&type=1")).body.total).toBe(2);
    const slim = await list("field=title&field=doc_count&field=nonsense");
    expect(Object.keys(slim.body.category[0]).sort()).toEqual(["doc_count", "id", "title"]);
    await expect400(list("type=3"), "分类类型只能是 0（文档）或 1（文章）");
    await expect400(list("field=a;drop"), "字段名不正确");
    await expect400(list("enable=maybe"), "enable 参数只能是 true 或 false");
  });
});

describe("permissions", () => {
  test("writes need a login (401) and the permission (403); the list is public", async () => {
    expect((await t.req("POST", "/api/v1/category", { body: { title: "x" } })).status).toBe(401);
    expect((await post({ title: "x" }, t.userToken)).status).toBe(403);
    expect((await put({ id: 1, title: "x" }, t.userToken)).status).toBe(403);
    expect((await del("id=1", t.userToken)).status).toBe(403);
    expect((await t.req("GET", "/api/v1/category?id=1", { token: t.userToken })).status).toBe(403);
    expect((await t.req("GET", "/admin/document/category", { token: t.userToken })).status).toBe(302);
    expect((await list()).status).toBe(200);
    const perm = getSqlite().query("select category, title from permission where method = 'POST' and path = '/api/v1/category'").get();
    expect(perm).toEqual({ category: "category", title: "新增分类" });
  });

  test("the admin screen renders the tree for the root administrator", async () => {
    const r = await t.req("GET", "/admin/document/category", { token: t.rootToken });
    expect(r.status).toBe(200);
    expect(r.text).toContain('data-island="AdminCategoryTree"');
    expect(r.text).toContain("列表顶级");
  });
});

describe("POST /api/v1/upload/category", () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "wk-cat-upload-"));
    setStorageRoot(root);
  });
  afterAll(() => {
    setStorageRoot(null);
    rmSync(root, { recursive: true, force: true });
  });

  test("stores a cover as attachment type 6 under /uploads/category/", async () => {
    const r = await t.req("POST", "/api/v1/upload/category", { token: t.rootToken, body: uploadForm(pngBytes(30, 10), "封面.png") });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ type: 6, width: 30, height: 10, ext: "png" });
    expect(r.body.path).toMatch(/^\/uploads\/category\/\d{4}\/\d{2}\/[0-9a-f]{64}\.png$/);
    expect((await t.req("GET", r.body.path)).status).toBe(200);
    expect((await t.req("POST", "/api/v1/upload/category", { token: t.rootToken, body: uploadForm(new TextEncoder().encode("not an image"), "x.png") })).body.message)
      .toBe("只支持 PNG、JPEG、GIF、WebP 格式的图片（按文件内容识别）");
    expect((await t.req("POST", "/api/v1/upload/category", { token: t.userToken, body: uploadForm(pngBytes(3, 3), "x.png") })).status).toBe(403);
  });
});
