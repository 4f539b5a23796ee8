// POST/PUT/DELETE/GET /api/v1/document and the list: validation, review by group flags, category
// chains, credits with a per-day limit, activity lines, and who may see or change what.
import { beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { getDb, getSqlite } from "#db/client.ts";
import { document, documentCategory } from "#db/schema/documents.ts";
import { jobs } from "#db/schema/jobs.ts";
import { user } from "#db/schema/users.ts";
import { setGroupPermissions } from "#src/features/permissions/service.ts";
import { permission, group } from "#db/schema/accounts.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { count, joinGroup, makeCategory, md5, pdfBytes, REVIEWED_GROUP, setConfig, trustedGroup, upload, uploadDocument, useDocumentsDir } from "./documents-fixtures.ts";

const t = setupTestApp();
useDocumentsDir();
let cat: { root: number; mid: number; leaf: number; off: number; article: number };
let other: { token: string; id: number };
let trusted: { token: string; id: number };

beforeAll(async () => {
  joinGroup(t.userId, REVIEWED_GROUP);
  const root = makeCategory("教育");
  const mid = makeCategory("高中", { parent: root.id });
  const leaf = makeCategory("物理", { parent: mid.id });
  const off = makeCategory("停用分类", { enable: false });
  const article = makeCategory("文章分类", { type: 1 });
  cat = { root: root.id, mid: mid.id, leaf: leaf.id, off: off.id, article: article.id };
  const o = await t.createUser("someone-else");
  joinGroup(o.user.id, REVIEWED_GROUP);
  other = { token: o.token, id: o.user.id };
  const tr = await t.createUser("trusted-uploader");
  joinGroup(tr.user.id, REVIEWED_GROUP);
  joinGroup(tr.user.id, trustedGroup());
  trusted = { token: tr.token, id: tr.user.id };
});

const create = (token: string, items: Record<string, unknown>[], extra: Record<string, unknown> = {}) =>
  t.req("POST", "/api/v1/document", { token, body: { ...extra, document: items } });
const fresh = async (token = t.userToken, seed: string | number = crypto.randomUUID()) => (await upload(t, token, pdfBytes(seed), "文件.pdf")).body as { id: number; hash: string };

describe("POST /api/v1/document", () => {
  test("creates a pending-review document for a reviewed group, with its chain, job, activity and count", async () => {
    const a = await fresh();
    const r = await create(t.userToken, [{ title: "  牛顿定律  ", attachment_id: a.id, category_id: cat.leaf, price: 3, language: "zh", keywords: "力学", description: "简介" }]);
    expect(r.status).toBe(200);
    const d = r.body.document[0];
    expect(d).toMatchObject({ title: "牛顿定律", status: 6, status_label: "待审核", price: 3, language: "zh", category_id: cat.leaf, user_id: t.userId, ext: "pdf", hash: a.hash });
    expect(d.uuid).toMatch(/^[0-9a-f]{32}$/);
    const chain = getDb().select().from(documentCategory).where(eq(documentCategory.document_id, d.id)).all().map((x) => x.category_id).sort();
    expect(chain).toEqual([cat.root, cat.mid, cat.leaf].sort());
    expect(getDb().select().from(jobs).where(eq(jobs.kind, "document.convert")).all().some((j) => JSON.parse(j.payload).document_id === d.id)).toBe(true);
    expect(count("select count(*) as n from dynamic where user_id = ? and content = ?", t.userId, "上传了文档《牛顿定律》")).toBe(1);
    expect(getDb().select().from(user).where(eq(user.id, t.userId)).get()!.doc_count).toBeGreaterThanOrEqual(1);
  });

  test("a group that skips review creates status 0; so does the root administrator", async () => {
    const d1 = await uploadDocument(t, trusted.token, { categoryId: cat.leaf });
    const d2 = await uploadDocument(t, t.rootToken, { categoryId: cat.leaf });
    expect([d1.status, d2.status]).toEqual([0, 0]);
  });

  test("MOREDOC's shape: a shared category chain for several items", async () => {
    const [a, b] = [await fresh(), await fresh()];
    const r = await create(t.userToken, [{ title: "甲", attachment_id: a.id, price: 0 }, { title: "乙", attachment_id: b.id, price: 1 }], { category_id: [cat.root, cat.mid] });
    expect(r.status).toBe(200);
    expect(r.body.document.map((d: { category_id: number }) => d.category_id)).toEqual([cat.mid, cat.mid]);
  });

  test("instant upload: a known hash creates the document and its own attachment row", async () => {
    const bytes = pdfBytes("instant");
    // Instant upload reuses public files or one's own (issue 13 item 7): here the user's own upload.
    await upload(t, t.userToken, bytes, "原件.pdf");
    const before = count("select count(*) as n from attachment where hash = ?", md5(bytes));
    const r = await create(t.userToken, [{ title: "秒传文档", hash: md5(bytes), name: "../秒传.pdf", category_id: cat.leaf }]);
    expect(r.status).toBe(200);
    expect(count("select count(*) as n from attachment where hash = ?", md5(bytes))).toBe(before + 1);
    const att = getSqlite().query("select user_id, name from attachment where id = ?").get(r.body.document[0].attachment_id) as { user_id: number; name: string };
    expect(att).toEqual({ user_id: t.userId, name: "秒传.pdf" });
    const unknown = await create(t.userToken, [{ title: "x", hash: "0".repeat(32), category_id: cat.leaf }]);
    expect([unknown.status, unknown.body.message]).toEqual([400, "服务器上没有该文件，请重新上传"]);
  });

  test("bad input is 400 in Chinese and creates nothing", async () => {
    const a = await fresh();
    const before = count("select count(*) as n from document");
    const bad = async (item: Record<string, unknown>, message: string | RegExp) => {
      const r = await create(t.userToken, [{ title: "坏输入", attachment_id: a.id, category_id: cat.leaf, ...item }]);
      expect(r.status).toBe(400);
      if (typeof message === "string") expect(r.body.message).toBe(message);
      else expect(r.body.message).toMatch(message);
    };
    await bad({ category_id: 999_999 }, "文档分类不存在或已禁用");
    await bad({ category_id: cat.off }, "文档分类不存在或已禁用");
    await bad({ category_id: cat.article }, "文档分类不存在或已禁用");
    await bad({ category_id: undefined }, "请选择文档分类");
    await bad({ price: -1 }, "价格必须是 0 到 100000 之间的整数");
    await bad({ price: 100_001 }, "价格必须是 0 到 100000 之间的整数");
    await bad({ price: 1.5 }, "价格必须是 0 到 100000 之间的整数");
    await bad({ language: "xx" }, "文档语言不存在或未启用");
    await bad({ language: "ja" }, "文档语言不存在或未启用");
    await bad({ title: "   " }, "请输入文档标题");
    await bad({ attachment_id: undefined }, "请先上传文档文件");
    await bad({ attachment_id: 999_999 }, "文档文件不存在，请重新上传");
    const empty = await t.req("POST", "/api/v1/document", { token: t.userToken, body: { document: [] } });
    expect(empty.body.message).toBe("请提交要创建的文档");
    expect(count("select count(*) as n from document")).toBe(before);
  });

  test("another user's attachment, a reused one, and a batch with one bad item are refused whole", async () => {
    const mine = await fresh(other.token);
    expect((await create(t.userToken, [{ title: "别人的", attachment_id: mine.id, category_id: cat.leaf }])).body.message).toBe("文档文件不存在，请重新上传");
    const a = await fresh();
    expect((await create(t.userToken, [{ title: "一", attachment_id: a.id, category_id: cat.leaf }])).status).toBe(200);
    expect((await create(t.userToken, [{ title: "二", attachment_id: a.id, category_id: cat.leaf }])).body.message).toBe("该文件已经创建过文档，请勿重复提交");
    const [b, c] = [await fresh(), await fresh()];
    const before = count("select count(*) as n from document");
    const r = await create(t.userToken, [{ title: "好", attachment_id: b.id, category_id: cat.leaf }, { title: "坏", attachment_id: c.id, category_id: cat.off }]);
    expect([r.status, r.body.message]).toEqual([400, "《坏》：文档分类不存在或已禁用"]);
    expect(count("select count(*) as n from document")).toBe(before);
  });

  test("anonymous 401, a user whose groups cannot upload 403", async () => {
    expect((await create("", [{ title: "x", attachment_id: 1, category_id: cat.leaf }])).status).toBe(401);
    const nobody = await t.createUser("cannot-upload");
    expect((await create(nobody.token, [{ title: "x", attachment_id: 1, category_id: cat.leaf }])).status).toBe(403);
  });

  test("upload awards follow score.document with the score.document_limit per day, paid when public (ledger rows)", async () => {
    setConfig("score", "document", 7);
    setConfig("score", "document_limit", 2);
    const u = await t.createUser("award-me");
    joinGroup(u.user.id, REVIEWED_GROUP);
    const docs = [];
    const own = makeCategory("奖励测试").id; // approved here: keeps the shared categories' counts out of it
    for (let i = 0; i < 3; i++) docs.push(await uploadDocument(t, u.token, { categoryId: own, title: `奖励${i}` }));
    // Nothing at upload: the award waits until a document is public (issue 13 item 6).
    expect(count("select count(*) as n from credit_log where user_id = ?", u.user.id)).toBe(0);
    for (const d of docs) {
      getSqlite().run("update jobs set status = 'done' where kind = 'document.convert' and json_extract(payload, '$.document_id') = ?", [d.id]);
      getDb().update(document).set({ pages: 1, preview: 1 }).where(eq(document.id, d.id)).run();
      expect((await t.req("PUT", "/api/v1/document/check", { token: t.rootToken, body: { id: [d.id], status: 2 } })).status).toBe(200);
    }
    const rows = getSqlite().query("select amount, kind, reason, balance from credit_log where user_id = ? order by id").all(u.user.id) as { amount: number; kind: string; reason: string; balance: number }[];
    expect(rows).toEqual([
      { amount: 7, kind: "document", reason: "上传文档《奖励0》", balance: 7 },
      { amount: 7, kind: "document", reason: "上传文档《奖励1》", balance: 14 },
    ]);
    expect(getDb().select().from(user).where(eq(user.id, u.user.id)).get()!.credit_count).toBe(14);
  });
});

describe("GET, PUT and DELETE /api/v1/document", () => {
  let doc: { id: number; uuid: string };
  beforeAll(async () => {
    doc = await uploadDocument(t, t.userToken, { categoryId: cat.leaf, title: "我的文档" });
  });

  test("a document in review is hidden from visitors, shown to its owner and to admins", async () => {
    expect((await t.req("GET", `/api/v1/document?id=${doc.id}`)).status).toBe(404);
    expect((await t.req("GET", `/api/v1/document?uuid=${doc.uuid}`, { token: other.token })).status).toBe(404);
    const own = await t.req("GET", `/api/v1/document?uuid=${doc.uuid}`, { token: t.userToken });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id: doc.id, username: "member", category_title: "物理", convert_error: "" });
    expect(own.body.category_path.map((c: { title: string }) => c.title)).toEqual(["教育", "高中", "物理"]);
    expect((await t.req("GET", `/api/v1/document?id=${doc.id}`, { token: t.rootToken })).status).toBe(200);
    getDb().update(document).set({ status: 2, pages: 3 }).where(eq(document.id, doc.id)).run();
    const pub = await t.req("GET", `/api/v1/document?id=${doc.id}`);
    expect(pub.status).toBe(200);
    expect(pub.body.hash).toBeUndefined();
    expect(pub.body.convert_error).toBeUndefined();
    expect((await t.req("GET", "/api/v1/document")).status).toBe(400);
  });

  test("another user cannot edit or delete my document (403); anonymous 401", async () => {
    const put = await t.req("PUT", "/api/v1/document", { token: other.token, body: { id: doc.id, title: "改掉" } });
    expect([put.status, put.body.message]).toEqual([403, "只能操作自己上传的文档"]);
    expect((await t.req("DELETE", `/api/v1/document?id=${doc.id}`, { token: other.token })).status).toBe(403);
    expect((await t.req("PUT", "/api/v1/document", { body: { id: doc.id, title: "改掉" } })).status).toBe(401);
    expect((await t.req("DELETE", `/api/v1/document?id=${doc.id}`)).status).toBe(401);
    expect(getDb().select().from(document).where(eq(document.id, doc.id)).get()).toMatchObject({ title: "我的文档", deleted_at: null });
  });

  test("the owner edits metadata; a new category rewrites the chain; bad values are 400", async () => {
    const r = await t.req("PUT", "/api/v1/document", { token: t.userToken, body: { id: doc.id, title: "新标题", category_id: cat.root, price: 9, language: "en", keywords: "a,b", description: "新的简介" } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ title: "新标题", category_id: cat.root, price: 9, language: "en", keywords: "a,b", description: "新的简介" });
    expect(getDb().select().from(documentCategory).where(eq(documentCategory.document_id, doc.id)).all().map((x) => x.category_id)).toEqual([cat.root]);
    expect(getSqlite().query("select doc_count from category where id = ?").get(cat.root)).toEqual({ doc_count: 1 });
    expect(getSqlite().query("select doc_count from category where id = ?").get(cat.leaf)).toEqual({ doc_count: 0 });
    expect((await t.req("PUT", "/api/v1/document", { token: t.userToken, body: { id: doc.id, price: -5 } })).status).toBe(400);
    expect((await t.req("PUT", "/api/v1/document", { token: t.userToken, body: { id: doc.id, category_id: cat.off } })).body.message).toBe("文档分类不存在或已禁用");
    expect((await t.req("PUT", "/api/v1/document", { token: t.userToken, body: { id: 999_999, title: "x" } })).status).toBe(404);
  });

  test("a group holding any document permission (the admin document pages) may edit anyone's document", async () => {
    expect(getDb().select().from(permission).where(eq(permission.path, "/api/v1/document")).all()).toEqual([]);
    const review = getDb().select().from(permission).where(eq(permission.path, "/api/v1/document/check")).get()!;
    expect(review).toMatchObject({ method: "PUT", category: "document", page: "/admin/document" });
    const g = getDb().insert(group).values({ title: "文档审核" }).returning().get();
    const editor = await t.createUser("doc-reviewer");
    joinGroup(editor.user.id, g.id);
    expect((await t.req("PUT", "/api/v1/document", { token: editor.token, body: { id: doc.id, title: "审核员改的" } })).status).toBe(403);
    setGroupPermissions(g.id, [review.id]);
    const r = await t.req("PUT", "/api/v1/document", { token: editor.token, body: { id: doc.id, title: "审核员改的" } });
    expect([r.status, r.body.title]).toEqual([200, "审核员改的"]);
    expect((await t.req("GET", `/api/v1/document/list?wd=${encodeURIComponent("审核员")}`, { token: editor.token })).body.total).toBe(1);
  });

  test("the owner deletes into the recycle bin: gone for visitors, counts drop", async () => {
    const r = await t.req("DELETE", "/api/v1/document", { token: t.userToken, body: { id: [doc.id] } });
    expect(r.status).toBe(200);
    expect(r.body.deleted).toBe(1);
    const row = getDb().select().from(document).where(eq(document.id, doc.id)).get()!;
    expect(row.deleted_at).toBeNumber();
    expect(row.deleted_user_id).toBe(t.userId);
    expect((await t.req("GET", `/api/v1/document?id=${doc.id}`)).status).toBe(404);
    expect(getSqlite().query("select doc_count from category where id = ?").get(cat.root)).toEqual({ doc_count: 0 });
    expect((await t.req("DELETE", `/api/v1/document?id=${doc.id}`, { token: t.userToken })).status).toBe(404);
  });
});

describe("GET /api/v1/document/list", () => {
  test("visitors see a user's converted documents; the owner sees every status; admins filter everything", async () => {
    const u = await t.createUser("lister");
    joinGroup(u.user.id, REVIEWED_GROUP);
    const a = await uploadDocument(t, u.token, { categoryId: cat.leaf, title: "已转换的" });
    await uploadDocument(t, u.token, { categoryId: cat.mid, title: "待审核的" });
    getDb().update(document).set({ status: 2 }).where(eq(document.id, a.id)).run();
    const pub = await t.req("GET", `/api/v1/document/list?user_id=${u.user.id}`);
    expect(pub.body.total).toBe(1);
    expect(pub.body.document[0]).toMatchObject({ title: "已转换的", username: "lister" });
    expect(pub.body.document[0].convert_error).toBeUndefined();
    const own = await t.req("GET", `/api/v1/document/list?user_id=${u.user.id}`, { token: u.token });
    expect(own.body.document.map((d: { title: string }) => d.title).sort()).toEqual(["已转换的", "待审核的"]);
    expect((await t.req("GET", "/api/v1/document/list")).status).toBe(400);

    const admin = (q: string) => t.req("GET", `/api/v1/document/list?${q}`, { token: t.rootToken });
    expect((await admin(`user_id=${u.user.id}&status=6`)).body.document.map((d: { title: string }) => d.title)).toEqual(["待审核的"]);
    expect((await admin(`user_id=${u.user.id}&category_id=${cat.mid}`)).body.total).toBe(2);
    expect((await admin(`user_id=${u.user.id}&category_id=${cat.leaf}`)).body.total).toBe(1);
    expect((await admin(`user_id=${u.user.id}&wd=${encodeURIComponent("已转换")}`)).body.total).toBe(1);
    expect((await admin(`user_id=${u.user.id}&ext=pdf&order=id%20asc`)).body.document[0].title).toBe("已转换的");
    expect((await admin("order=password%20desc")).status).toBe(400);
    expect((await admin("status=9")).status).toBe(400);
  });
});
