// Reports on articles (reasons 1–6, once per user) and /admin/report handling both kinds:
// ignore, disable the item (document disabled / article rejected with a reason), punish the author.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { group, groupPermission, permission, punishment, userGroup } from "#db/schema/accounts.ts";
import { document, report } from "#db/schema/documents.ts";
import { setDocumentsRoot } from "#src/features/documents/paths.ts";
import { invalidatePermissions } from "#src/features/permissions/service.ts";
import { resetAll } from "#src/lib/rateLimit.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { articleRow, makeArticle, member } from "./comments-fixtures.ts";
import { makeDoc, useDocumentsRoot } from "./reader-fixtures.ts";

const t = setupTestApp();
let root = "";
beforeAll(() => void (root = useDocumentsRoot()));
afterAll(() => {
  setDocumentsRoot(null);
  rmSync(root, { recursive: true, force: true });
});
beforeEach(() => resetAll());

const reportOf = (id: number) => getDb().select().from(report).where(eq(report.id, id)).get()!;
const file = async (token: string, body: Record<string, unknown>) => {
  const r = await t.req("POST", "/api/v1/report", { token, body });
  expect(r.status).toBe(200);
  return r.body.id as number;
};
const handle = (body: Record<string, unknown>, token = t.rootToken) => t.req("PUT", "/api/v1/report/handle", { token, body });

describe("reporting an article", () => {
  test("reasons 1–6 only, one report per user, visible articles only; nothing written on refusal", async () => {
    const a = makeArticle({ userId: t.userId, title: "被举报的文章" });
    const m = await member(t, "rep");
    const count = () => getDb().select().from(report).all().length;
    const before = count();
    expect((await t.req("POST", "/api/v1/report", { body: { article_id: a.id, reason: 1 } })).status).toBe(401);
    for (const reason of [0, 7, 1.5, "x", null]) {
      const r = await t.req("POST", "/api/v1/report", { token: m.token, body: { article_id: a.id, reason } });
      expect([r.status, r.body.message]).toEqual([400, "请选择举报原因"]);
    }
    for (const body of [{ reason: 1 }, { article_id: a.id, document_id: makeDoc({ userId: t.userId }).id, reason: 1 }]) {
      const r = await t.req("POST", "/api/v1/report", { token: m.token, body });
      expect([r.status, r.body.message]).toEqual([400, "请指定要举报的文档或文章"]);
    }
    const hidden = await t.req("POST", "/api/v1/report", { token: m.token, body: { article_id: makeArticle({ userId: t.userId, status: 0 }).id, reason: 2 } });
    expect([hidden.status, hidden.body.message]).toEqual([404, "文章不存在或已被删除"]);
    expect(count()).toBe(before);

    for (const reason of [1, 2, 3, 4, 5, 6]) {
      const other = await member(t, "rep");
      expect((await t.req("POST", "/api/v1/report", { token: other.token, body: { article_id: a.id, reason } })).status).toBe(200);
    }
    const id = await file(m.token, { article_id: a.id, reason: 5, remark: "  辱骂他人 " });
    expect(reportOf(id)).toMatchObject({ article_id: a.id, document_id: null, reason: 5, remark: "辱骂他人", status: 2 });
    const dup = await t.req("POST", "/api/v1/report", { token: m.token, body: { article_id: a.id, reason: 1 } });
    expect([dup.status, dup.body.message]).toEqual([409, "您已经举报过该文章了"]);

    const listed = await t.req("GET", "/api/v1/report/list?type=article&reason=5", { token: t.rootToken });
    expect(listed.body.report.find((r: { id: number }) => r.id === id)).toMatchObject({
      target_type: "article", target_title: "被举报的文章", target_url: `/article/${a.identifier}`, target_visible: true,
      author_id: t.userId, author_name: "member", reason_label: "人身攻击", username: m.user.username, document_id: 0, article_id: a.id,
    });
    expect((await t.req("GET", "/api/v1/report/list?type=document", { token: t.rootToken })).body.report.some((r: { id: number }) => r.id === id)).toBe(false);
    expect((await t.req("GET", "/api/v1/report/list?wd=被举报的文章", { token: t.rootToken })).body.total).toBe(7);
  });
});

describe("handling reports", () => {
  test("ignore marks the reports 4 and touches nothing else", async () => {
    const a = makeArticle({ userId: t.userId });
    const m = await member(t, "rep");
    const id = await file(m.token, { article_id: a.id, reason: 1 });
    const r = await handle({ id: [id], action: "ignore" });
    expect(r.body).toMatchObject({ handled: 1, disabled: 0, punished: 0 });
    expect(r.body.message).toBe("已忽略，1 条举报已处理");
    expect(reportOf(id).status).toBe(4);
    expect(articleRow(a.id).status).toBe(1);
  });

  test("disable: the article is rejected with the reason its author reads, the document disabled; every pending report on them is handled", async () => {
    const a = makeArticle({ userId: t.userId });
    const d = makeDoc({ userId: t.userId });
    const r1 = await file((await member(t, "rep")).token, { article_id: a.id, reason: 1 });
    const r2 = await file((await member(t, "rep")).token, { article_id: a.id, reason: 2 });
    const r3 = await file((await member(t, "rep")).token, { document_id: d.id, reason: 4 });
    const r = await handle({ id: [r1, r3], action: "disable" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ disabled: 2, handled: 3 });
    expect(articleRow(a.id)).toMatchObject({ status: 2, reject_reason: "内容被举报（垃圾广告、敏感信息），经核实已下架" });
    expect(getDb().select().from(document).where(eq(document.id, d.id)).get()!.status).toBe(4);
    expect([reportOf(r1).status, reportOf(r2).status, reportOf(r3).status]).toEqual([0, 0, 0]);
    // The item is gone from visitors, and the list says so.
    expect((await t.req("GET", `/api/v1/comment/list?article_id=${a.id}`)).status).toBe(404);
    const row = (await t.req("GET", "/api/v1/report/list?type=article", { token: t.rootToken })).body.report.find((x: { id: number }) => x.id === r1);
    expect(row.target_visible).toBe(false);
    // A second disable of the same item changes nothing more.
    expect((await handle({ id: [r2], action: "disable", reason: "重复处理" })).body).toMatchObject({ disabled: 0, handled: 1 });
    expect(articleRow(a.id).reject_reason).toBe("内容被举报（垃圾广告、敏感信息），经核实已下架");
  });

  test("punish: the author gets the chosen punishments for the chosen time and can no longer comment", async () => {
    const author = await member(t, "author");
    const a = makeArticle({ userId: author.user.id });
    const d = makeDoc({ userId: t.userId });
    const id = await file((await member(t, "rep")).token, { article_id: a.id, reason: 6 });
    const before = Date.now();
    const r = await handle({ id: [id], action: "punish", punish_type: [2, 3], days: 7 });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ punished: 1, handled: 1, message: "已处罚 1 位作者，1 条举报已处理" });
    const rows = getDb().select().from(punishment).where(eq(punishment.user_id, author.user.id)).all();
    expect(rows.map((p) => p.type).sort()).toEqual([2, 3]);
    expect(rows[0]!.reason).toBe("发布的内容被举报（骚扰他人）");
    expect(rows[0]!.end_time! - before).toBeGreaterThanOrEqual(7 * 86_400_000);
    expect(rows[0]!.end_time! - before).toBeLessThan(7 * 86_400_000 + 60_000);
    expect(reportOf(id).status).toBe(0);
    const blocked = await t.req("POST", "/api/v1/comment", { token: author.token, body: { document_id: d.id, content: "还能评论吗" } });
    expect(blocked.status).toBe(403);
    expect(blocked.body.message).toStartWith("您已被禁止发表评论：发布的内容被举报（骚扰他人）");
  });

  test("bad handling is refused before anything is written", async () => {
    const rootArticle = makeArticle({ userId: 1 });
    const id = await file((await member(t, "rep")).token, { article_id: rootArticle.id, reason: 1 });
    const punishments = () => getDb().select().from(punishment).all().length;
    const before = punishments();
    const cases: [Record<string, unknown>, number, string][] = [
      [{ id: [id], action: "punish" }, 400, "请选择处罚类型"],
      [{ id: [id], action: "punish", punish_type: [9] }, 400, "处罚类型无效"],
      [{ id: [id], action: "punish", punish_type: [2], days: 5000 }, 400, "处罚天数必须是 0 到 3650 的整数"],
      [{ id: [id], action: "punish", punish_type: [2] }, 400, "内容作者是超级管理员，不能处罚"],
      [{ id: [id], action: "delete" }, 400, "处理方式只能是忽略（ignore）、禁用内容（disable）或处罚作者（punish）"],
      [{ id: [], action: "ignore" }, 400, "请选择举报"],
      [{ id: [id, 999999], action: "ignore" }, 404, "举报记录不存在"],
    ];
    for (const [body, status, message] of cases) {
      const r = await handle(body);
      expect([JSON.stringify(body), r.status, r.body.message]).toEqual([JSON.stringify(body), status, message]);
    }
    expect(punishments()).toBe(before);
    expect(reportOf(id).status).toBe(2);
  });

  test("PUT /report/handle: 401 anonymous, 403 without the permission, allowed once granted; /admin/report shows both kinds", async () => {
    const a = makeArticle({ userId: t.userId, title: "权限测试文章" });
    const id = await file((await member(t, "rep")).token, { article_id: a.id, reason: 3 });
    expect((await t.req("PUT", "/api/v1/report/handle", { body: { id: [id], action: "ignore" } })).status).toBe(401);
    const staff = await t.createUser("report_staff");
    expect((await handle({ id: [id], action: "ignore" }, staff.token)).status).toBe(403);
    const perm = getDb().select().from(permission).where(eq(permission.path, "/api/v1/report/handle")).get()!;
    expect(perm).toMatchObject({ method: "PUT", category: "report", page: "/admin/report" });
    const g = getDb().insert(group).values({ title: "举报处理员" }).returning().get();
    getDb().insert(groupPermission).values({ group_id: g.id, permission_id: perm.id }).run();
    getDb().insert(userGroup).values({ user_id: staff.user.id, group_id: g.id }).run();
    invalidatePermissions();
    const page = await t.req("GET", "/admin/report", { token: t.rootToken, headers: { accept: "text/html" } });
    expect(page.text).toContain("权限测试文章");
    expect(page.text).toContain("处罚作者");
    expect((await handle({ id: [id], action: "ignore" }, staff.token)).status).toBe(200);
  });
});
