// Member actions on a document: rating once, favourites (counters, the uploader's award and its
// daily limit, the favourite ban), reports (once; the admin list and its permissions), /me/favorite.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { and, eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { creditLog, group, groupPermission, permission, punishment, userGroup } from "#db/schema/accounts.ts";
import { document, documentScore, report } from "#db/schema/documents.ts";
import { user } from "#db/schema/users.ts";
import { setDocumentsRoot } from "#src/features/documents/paths.ts";
import { invalidatePermissions } from "#src/features/permissions/service.ts";
import { resetAll } from "#src/lib/rateLimit.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { makeDoc, setConfig, useDocumentsRoot } from "./reader-fixtures.ts";

const t = setupTestApp();
let root = "";
beforeAll(() => void (root = useDocumentsRoot()));
afterAll(() => {
  setDocumentsRoot(null);
  rmSync(root, { recursive: true, force: true });
});

let n = 0;
const member = async () => t.createUser(`reader_member_${++n}`);
const docRow = (id: number) => getDb().select().from(document).where(eq(document.id, id)).get()!;
const userRow = (id: number) => getDb().select().from(user).where(eq(user.id, id)).get()!;

describe("rating", () => {
  test("1–5 once per user; the average ×100 and count follow; bad input is refused clearly", async () => {
    const d = makeDoc({ userId: t.userId });
    const a = await member();
    const b = await member();
    expect((await t.req("POST", "/api/v1/document/score", { body: { document_id: d.id, score: 4 } })).status).toBe(401);
    for (const score of [0, 6, 2.5, "5", null]) {
      const r = await t.req("POST", "/api/v1/document/score", { token: a.token, body: { document_id: d.id, score } });
      expect([r.status, r.body.message]).toEqual([400, "请选择 1 到 5 分"]);
    }
    const first = await t.req("POST", "/api/v1/document/score", { token: a.token, body: { document_id: d.id, score: 4 } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ score: 4, document_score: 400, score_count: 1 });
    const again = await t.req("POST", "/api/v1/document/score", { token: a.token, body: { document_id: d.id, score: 1 } });
    expect([again.status, again.body.message]).toEqual([409, "您已经评过分了"]);
    await t.req("POST", "/api/v1/document/score", { token: b.token, body: { document_id: d.id, score: 5 } });
    expect(docRow(d.id)).toMatchObject({ score: 450, score_count: 2 });
    expect(getDb().select().from(documentScore).where(eq(documentScore.document_id, d.id)).all()).toHaveLength(2);
    expect((await t.req("GET", `/api/v1/document/score?document_id=${d.id}`, { token: a.token })).body).toEqual({ document_id: d.id, score: 4 });
    // The page shows the viewer's own rating.
    const html = await t.req("GET", `/document/${d.uuid}`, { token: b.token, headers: { accept: "text/html" } });
    expect(html.text).toContain("&quot;myScore&quot;:5");
  });

  test("hidden or unknown documents cannot be rated", async () => {
    const a = await member();
    const hidden = makeDoc({ userId: t.userId, status: 4 });
    const r = await t.req("POST", "/api/v1/document/score", { token: a.token, body: { document_id: hidden.id, score: 3 } });
    expect([r.status, r.body.message]).toEqual([404, "文档不存在或已被删除"]);
    expect((await t.req("POST", "/api/v1/document/score", { token: a.token, body: { document_id: 999999, score: 3 } })).status).toBe(404);
    expect(docRow(hidden.id).score_count).toBe(0);
  });
});

describe("favourites", () => {
  test("favourite and unfavourite: counters on both sides, state, list; the uploader gets score.favorite credits", async () => {
    const uploader = await member();
    const fan = await member();
    const d = makeDoc({ userId: uploader.user.id, title: "收藏测试文档" });
    expect((await t.req("POST", "/api/v1/favorite", { body: { document_id: d.id } })).status).toBe(401);
    const r = await t.req("POST", "/api/v1/favorite", { token: fan.token, body: { document_id: d.id } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ message: "收藏成功", document_id: d.id, favorite_count: 1, award: 1 });
    expect(docRow(d.id).favorite_count).toBe(1);
    expect(userRow(fan.user.id).favorite_count).toBe(1);
    expect(userRow(uploader.user.id).credit_count).toBe(1);
    const log = getDb().select().from(creditLog).where(eq(creditLog.user_id, uploader.user.id)).all();
    expect(log).toEqual([expect.objectContaining({ amount: 1, balance: 1, kind: "favorite", reason: "文档《收藏测试文档》被收藏", ref_id: r.body.id })]);

    const dup = await t.req("POST", "/api/v1/favorite", { token: fan.token, body: { document_id: d.id } });
    expect([dup.status, dup.body.message]).toEqual([409, "您已经收藏过该文档了"]);
    expect((await t.req("GET", `/api/v1/favorite?document_id=${d.id}`, { token: fan.token })).body).toMatchObject({ favorited: true, id: r.body.id });
    const list = await t.req("GET", "/api/v1/favorite/list?page=1&size=10", { token: fan.token });
    expect(list.body.total).toBe(1);
    expect(list.body.favorite[0]).toMatchObject({ id: r.body.id, document_id: d.id, uuid: d.uuid, title: "收藏测试文档", visible: true });
    expect((await t.req("GET", "/api/v1/favorite/list")).status).toBe(401);

    const me = await t.req("GET", "/me/favorite", { token: fan.token, headers: { accept: "text/html" } });
    expect(me.text).toContain("收藏测试文档");
    expect(me.text).toContain('data-island="ReaderFavoriteList"');

    const del = await t.req("DELETE", "/api/v1/favorite", { token: fan.token, body: { document_id: d.id } });
    expect([del.status, del.body.removed]).toEqual([200, 1]);
    expect(docRow(d.id).favorite_count).toBe(0);
    expect(userRow(fan.user.id).favorite_count).toBe(0);
    expect((await t.req("GET", `/api/v1/favorite?document_id=${d.id}`, { token: fan.token })).body.favorited).toBe(false);
    expect((await t.req("DELETE", "/api/v1/favorite", { token: fan.token, body: { document_id: d.id } })).status).toBe(404);
    // Earned credits stay with the uploader.
    expect(userRow(uploader.user.id).credit_count).toBe(1);
  });

  test("DELETE by favourite id (one or several, also in the query); never someone else's", async () => {
    const a = await member();
    const b = await member();
    const docs = [makeDoc({ userId: t.userId }), makeDoc({ userId: t.userId }), makeDoc({ userId: t.userId })];
    const ids: number[] = [];
    for (const d of docs) ids.push((await t.req("POST", "/api/v1/favorite", { token: a.token, body: { document_id: d.id } })).body.id);
    expect((await t.req("DELETE", "/api/v1/favorite", { token: b.token, body: { id: ids[0] } })).status).toBe(404);
    expect((await t.req("DELETE", "/api/v1/favorite", { token: a.token, body: { id: "x" } })).status).toBe(400);
    expect((await t.req("DELETE", "/api/v1/favorite", { token: a.token, body: {} })).status).toBe(400);
    expect((await t.req("DELETE", "/api/v1/favorite", { token: a.token, body: { id: ids[0] } })).body.removed).toBe(1);
    expect((await t.req("DELETE", `/api/v1/favorite?id=${ids[1]}&id=${ids[2]}`, { token: a.token })).body.removed).toBe(2);
    expect(userRow(a.user.id).favorite_count).toBe(0);
    expect(docs.map((d) => docRow(d.id).favorite_count)).toEqual([0, 0, 0]);
  });

  test("no award for one's own document; awards stop at score.favorite_limit a day; award 0 gives none", async () => {
    const uploader = await member();
    const own = makeDoc({ userId: uploader.user.id });
    const r = await t.req("POST", "/api/v1/favorite", { token: uploader.token, body: { document_id: own.id } });
    expect([r.status, r.body.award]).toEqual([200, 0]);
    expect(userRow(uploader.user.id).credit_count).toBe(0);

    setConfig([["score", "favorite", 3], ["score", "favorite_limit", 2]]);
    const docs = [makeDoc({ userId: uploader.user.id }), makeDoc({ userId: uploader.user.id }), makeDoc({ userId: uploader.user.id })];
    const awards: number[] = [];
    for (const d of docs) {
      const fan = await member();
      awards.push((await t.req("POST", "/api/v1/favorite", { token: fan.token, body: { document_id: d.id } })).body.award);
    }
    expect(awards).toEqual([3, 3, 0]);
    expect(userRow(uploader.user.id).credit_count).toBe(6);
    // Yesterday's awards do not count against today.
    getDb().update(creditLog).set({ created_at: Date.now() - 2 * 86400_000 }).where(and(eq(creditLog.user_id, uploader.user.id), eq(creditLog.kind, "favorite"))).run();
    const fan = await member();
    expect((await t.req("POST", "/api/v1/favorite", { token: fan.token, body: { document_id: docs[2]!.id } })).body.award).toBe(3);

    setConfig([["score", "favorite", 0]]);
    const late = await member();
    expect((await t.req("POST", "/api/v1/favorite", { token: late.token, body: { document_id: docs[0]!.id } })).body.award).toBe(0);
    setConfig([["score", "favorite", 1], ["score", "favorite_limit", 10]]);
  });

  test("a favourite ban (punishment 5) is 403 with its reason; hidden documents cannot be favourited", async () => {
    const banned = await member();
    getDb().insert(punishment).values({ user_id: banned.user.id, type: 5, reason: "恶意刷收藏" }).run();
    const d = makeDoc({ userId: t.userId });
    const r = await t.req("POST", "/api/v1/favorite", { token: banned.token, body: { document_id: d.id } });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe("您已被禁止收藏：恶意刷收藏，解除时间：永久");
    expect(docRow(d.id).favorite_count).toBe(0);
    const a = await member();
    const hidden = makeDoc({ userId: t.userId, status: 6 });
    expect((await t.req("POST", "/api/v1/favorite", { token: a.token, body: { document_id: hidden.id } })).status).toBe(404);
  });

  test("favourite toggling is rate limited per user", async () => {
    resetAll();
    const a = await member();
    const d = makeDoc({ userId: t.userId });
    let last = 0;
    for (let i = 0; i < 62; i++) {
      last = (await t.req(i % 2 ? "DELETE" : "POST", "/api/v1/favorite", { token: a.token, body: { document_id: d.id } })).status;
    }
    expect(last).toBe(429);
    resetAll();
  });
});

describe("reports", () => {
  test("one report per user per document, reasons 1–6, remark up to 255", async () => {
    const a = await member();
    const d = makeDoc({ userId: t.userId, title: "被举报的文档" });
    expect((await t.req("POST", "/api/v1/report", { body: { document_id: d.id, reason: 1 } })).status).toBe(401);
    for (const reason of [0, 7, "1"]) {
      const r = await t.req("POST", "/api/v1/report", { token: a.token, body: { document_id: d.id, reason } });
      expect([r.status, r.body.message]).toEqual([400, "请选择举报原因"]);
    }
    expect((await t.req("POST", "/api/v1/report", { token: a.token, body: { document_id: d.id, reason: 1, remark: "长".repeat(256) } })).body.message).toBe("补充说明不能超过 255 个字");
    const ok = await t.req("POST", "/api/v1/report", { token: a.token, body: { document_id: d.id, reason: 2, remark: "  含有不良内容 " } });
    expect([ok.status, ok.body.message]).toEqual([200, "举报成功，我们会尽快处理"]);
    const dup = await t.req("POST", "/api/v1/report", { token: a.token, body: { document_id: d.id, reason: 3 } });
    expect([dup.status, dup.body.message]).toEqual([409, "您已经举报过该文档了"]);
    const rows = getDb().select().from(report).where(eq(report.document_id, d.id)).all();
    expect(rows).toEqual([expect.objectContaining({ user_id: a.user.id, reason: 2, remark: "含有不良内容", status: 2 })]);
    const page = await t.req("GET", `/document/${d.uuid}`, { token: a.token, headers: { accept: "text/html" } });
    expect(page.text).toContain("&quot;reported&quot;:true");
    expect((await t.req("POST", "/api/v1/report", { token: a.token, body: { document_id: makeDoc({ userId: t.userId, status: 4 }).id, reason: 1 } })).status).toBe(404);
  });

  test("admin list, handle and delete: 401 anonymous, 403 without the permission, allowed once granted", async () => {
    const reporter = await member();
    const d = makeDoc({ userId: t.userId, title: "待处理举报文档" });
    const created = await t.req("POST", "/api/v1/report", { token: reporter.token, body: { document_id: d.id, reason: 5, remark: "辱骂" } });
    const id = created.body.id;
    expect((await t.req("GET", "/api/v1/report/list")).status).toBe(401);
    const staff = await member();
    expect((await t.req("GET", "/api/v1/report/list", { token: staff.token })).status).toBe(403);
    expect((await t.req("PUT", "/api/v1/report", { token: staff.token, body: { id, status: 1 } })).status).toBe(403);
    expect((await t.req("DELETE", `/api/v1/report?id=${id}`, { token: staff.token })).status).toBe(403);

    // Spec §4 generic statuses: a new report is 2 (under review = pending).
    const list = await t.req("GET", "/api/v1/report/list?status=2&reason=5", { token: t.rootToken });
    expect(list.status).toBe(200);
    expect(list.body.report.find((r: { id: number }) => r.id === id)).toMatchObject({
      document_title: "待处理举报文档", document_uuid: d.uuid, document_url: `/document/${d.uuid}`, username: reporter.user.username, reason: 5, reason_label: "人身攻击", remark: "辱骂", status: 2,
    });
    expect((await t.req("GET", "/api/v1/report/list?wd=待处理举报", { token: t.rootToken })).body.total).toBe(1);
    expect((await t.req("GET", "/api/v1/report/list?status=9", { token: t.rootToken })).status).toBe(400);

    // Granting the list permission to a group of the staff member opens the list and the page.
    const perm = getDb().select().from(permission).where(and(eq(permission.method, "GET"), eq(permission.path, "/api/v1/report/list"))).get()!;
    expect(perm).toMatchObject({ category: "report", page: "/admin/report" });
    const g = getDb().insert(group).values({ title: "举报审核员" }).returning().get();
    getDb().insert(groupPermission).values({ group_id: g.id, permission_id: perm.id }).run();
    getDb().insert(userGroup).values({ user_id: staff.user.id, group_id: g.id }).run();
    invalidatePermissions();
    expect((await t.req("GET", "/api/v1/report/list", { token: staff.token })).status).toBe(200);
    expect((await t.req("PUT", "/api/v1/report", { token: staff.token, body: { id, status: 1 } })).status).toBe(403);
    const adminPage = await t.req("GET", "/admin/report", { token: staff.token, headers: { accept: "text/html" } });
    expect(adminPage.status).toBe(200);
    expect(adminPage.text).toContain("举报管理");
    expect(adminPage.text).toContain('href="/admin/report"');

    // Handled is 0 (normal), ignored is 4; 1 (disabled) and 3 (rejected) are not report statuses.
    const put = await t.req("PUT", "/api/v1/report", { token: t.rootToken, body: { id, status: 0 } });
    expect([put.status, put.body.status]).toEqual([200, 0]);
    for (const bad of [1, 3, 5]) expect((await t.req("PUT", "/api/v1/report", { token: t.rootToken, body: { id, status: bad } })).status).toBe(400);
    expect((await t.req("GET", "/api/v1/report/list?status=1", { token: t.rootToken })).status).toBe(400);
    expect((await t.req("PUT", "/api/v1/report", { token: t.rootToken, body: { id: 999999, status: 0 } })).status).toBe(404);
    expect((await t.req("GET", "/api/v1/report/list?status=0", { token: t.rootToken })).body.report.map((r: { id: number }) => r.id)).toContain(id);
    expect((await t.req("GET", "/api/v1/report/list?status=2", { token: t.rootToken })).body.report.map((r: { id: number }) => r.id)).not.toContain(id);
    const ignored = await t.req("PUT", "/api/v1/report", { token: t.rootToken, body: { id, status: 4 } });
    expect([ignored.status, ignored.body.status]).toEqual([200, 4]);
    expect((await t.req("GET", "/api/v1/report/list?status=4", { token: t.rootToken })).body.report.map((r: { id: number }) => r.id)).toContain(id);
    const del = await t.req("DELETE", "/api/v1/report", { token: t.rootToken, body: { id } });
    expect([del.status, del.body.deleted]).toEqual([200, 1]);
    expect(getDb().select().from(report).where(eq(report.id, id)).get()).toBeUndefined();
    // Anonymous and plain members are sent away from the admin page.
    expect((await t.req("GET", "/admin/report", { headers: { accept: "text/html" } })).status).toBe(302);
    expect((await t.req("GET", "/admin/report", { token: reporter.token, headers: { accept: "text/html" } })).status).toBe(302);
  });
});
