// POST /comment rules: the switch, login, targets, length, interval, bans and disabled accounts,
// group rights, review, captcha, reply depth, counts; DELETE own vs others'; PUT /comment/check
// permissions. Every refusal is a Chinese message with its status and writes nothing.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { group, groupPermission, permission, punishment, userGroup } from "#db/schema/accounts.ts";
import { article } from "#db/schema/articles.ts";
import { document } from "#db/schema/documents.ts";
import { user } from "#db/schema/users.ts";
import { clearCaptchas, issueCaptcha, peekCaptchaAnswerForTests } from "#src/features/captcha/service.ts";
import { setDocumentsRoot } from "#src/features/documents/paths.ts";
import { invalidatePermissions } from "#src/features/permissions/service.ts";
import { resetAll } from "#src/lib/rateLimit.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { ageComments, articleRow, commentRow, commentRows, docCount, makeArticle, member, userCount } from "./comments-fixtures.ts";
import { makeDoc, setConfig, useDocumentsRoot } from "./reader-fixtures.ts";

const t = setupTestApp();
let root = "";
beforeAll(() => void (root = useDocumentsRoot()));
afterAll(() => {
  setDocumentsRoot(null);
  rmSync(root, { recursive: true, force: true });
});
beforeEach(() => {
  resetAll();
  setConfig([["comment", "enable", true], ["comment", "need_review", false], ["comment", "enable_captcha", false], ["comment", "min_interval", 10], ["comment", "max_length", 2000]]);
});

const post = (token: string | undefined, body: Record<string, unknown>) => t.req("POST", "/api/v1/comment", { token, body });

/** Asserts a refusal: status, the exact Chinese message, and no comment row written. */
async function refused(token: string | undefined, body: Record<string, unknown>, status: number, message: string | RegExp) {
  const before = commentRows().length;
  const r = await post(token, body);
  expect(r.status).toBe(status);
  if (typeof message === "string") expect(r.body.message).toBe(message);
  else expect(r.body.message).toMatch(message);
  expect(commentRows().length).toBe(before);
  return r;
}

describe("posting", () => {
  test("a member comments on a document and on an article; the answer carries the comment and the counts move", async () => {
    const m = await member(t);
    const d = makeDoc({ userId: t.userId });
    const a = makeArticle({ userId: t.userId });
    const r = await post(m.token, { document_id: d.id, content: "  写得很好，\r\n受益匪浅  " });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ message: "评论成功", document_id: d.id, article_id: 0, parent_id: 0, content: "写得很好，\n受益匪浅", status: 0, username: m.user.username, target_type: "document" });
    expect(docCount(d.id)).toBe(1);
    ageComments(m.user.id);
    const onArticle = await post(m.token, { article_id: a.id, content: "文章评论" });
    expect(onArticle.body).toMatchObject({ article_id: a.id, document_id: 0, target_type: "article", target_url: `/article/${a.identifier}` });
    expect(articleRow(a.id).comment_count).toBe(1);
    expect(userCount(m.user.id)).toBe(2);
  });

  test("login, the switch, the target and the content are checked with clear messages", async () => {
    const m = await member(t);
    const d = makeDoc({ userId: t.userId });
    await refused(undefined, { document_id: d.id, content: "匿名" }, 401, "请先登录后再发表评论");
    await refused(m.token, { content: "没有对象" }, 400, "请指定一篇文档或一篇文章");
    await refused(m.token, { document_id: d.id, article_id: makeArticle({ userId: t.userId }).id, content: "两个对象" }, 400, "请指定一篇文档或一篇文章");
    await refused(m.token, { document_id: "x", content: "坏 ID" }, 400, "文档 ID 不正确");
    await refused(m.token, { document_id: d.id }, 400, "请输入评论内容");
    await refused(m.token, { document_id: d.id, content: " \n\t\u200b " }, 400, "请输入评论内容");
    await refused(m.token, { document_id: 999999, content: "不存在" }, 404, "文档不存在或已被删除");
    await refused(m.token, { document_id: makeDoc({ userId: t.userId, status: 4 }).id, content: "禁用的文档" }, 404, "文档不存在或已被删除");
    await refused(m.token, { article_id: makeArticle({ userId: t.userId, status: 0 }).id, content: "待审文章" }, 404, "文章不存在或已被删除");
    await refused(m.token, { article_id: makeArticle({ userId: t.userId, deleted: true }).id, content: "回收站文章" }, 404, "文章不存在或已被删除");
    setConfig([["comment", "enable", false]]);
    await refused(m.token, { document_id: d.id, content: "关闭了" }, 403, "评论功能已关闭");
  });

  test("maximum length counts characters (emoji and Chinese are one each) and follows the setting", async () => {
    const m = await member(t);
    const d = makeDoc({ userId: t.userId });
    setConfig([["comment", "max_length", 10]]);
    await refused(m.token, { document_id: d.id, content: "好".repeat(11) }, 400, "评论内容不能超过 10 个字");
    const ok = await post(m.token, { document_id: d.id, content: "😀".repeat(10) });
    expect(ok.status).toBe(200);
  });

  test("the minimum interval per user: 429 naming the wait, another user is not affected, 0 turns it off", async () => {
    const a = await member(t);
    const b = await member(t);
    const d = makeDoc({ userId: t.userId });
    expect((await post(a.token, { document_id: d.id, content: "第一条" })).status).toBe(200);
    await refused(a.token, { document_id: d.id, content: "第二条" }, 429, /^评论过于频繁，请 (10|9) 秒后再试$/);
    expect((await post(b.token, { document_id: d.id, content: "别人的" })).status).toBe(200);
    ageComments(a.user.id, 11_000);
    expect((await post(a.token, { document_id: d.id, content: "十秒后" })).status).toBe(200);
    setConfig([["comment", "min_interval", 0]]);
    expect((await post(a.token, { document_id: d.id, content: "不限间隔" })).status).toBe(200);
  });

  test("the ban-comment punishment and a disabled account are refused with the reason; a group without the right too", async () => {
    const d = makeDoc({ userId: t.userId });
    const banned = await member(t);
    const ban = await t.req("POST", "/api/v1/punishment", { token: t.rootToken, body: { user_id: banned.user.id, type: [2], reason: "恶意灌水" } });
    expect(ban.status).toBe(200);
    await refused(banned.token, { document_id: d.id, content: "被禁言" }, 403, /^您已被禁止发表评论：恶意灌水，解除时间：永久$/);

    // A disable punishment whose start has come before the periodic job switched the account off.
    const pending = await member(t);
    getDb().insert(punishment).values({ user_id: pending.user.id, type: 1, reason: "违规", start_time: Date.now() - 1000 }).run();
    await refused(pending.token, { document_id: d.id, content: "账号被禁用" }, 403, /^您的账号已被禁用：违规/);

    // Disabling through the admin ends the sessions: the old token is a visitor's.
    const off = await member(t);
    expect((await t.req("POST", "/api/v1/punishment", { token: t.rootToken, body: { user_id: off.user.id, type: [1] } })).status).toBe(200);
    await refused(off.token, { document_id: d.id, content: "下线了" }, 401, "请先登录后再发表评论");

    const g = getDb().insert(group).values({ title: "禁评组", enable_comment: false }).returning().get();
    const mute = await t.createUser("cmt_no_group_right");
    getDb().insert(userGroup).values({ user_id: mute.user.id, group_id: g.id }).run();
    await refused(mute.token, { document_id: d.id, content: "组不允许" }, 403, "您所在的用户组没有发表评论的权限");
  });

  test("captcha when comment.enable_captcha is on: missing, wrong, reused and right answers", async () => {
    const m = await member(t);
    const d = makeDoc({ userId: t.userId });
    expect((await t.req("GET", "/api/v1/user/captcha?type=comment")).body.enable).toBe(false);
    setConfig([["comment", "enable_captcha", true], ["comment", "min_interval", 0]]);
    clearCaptchas();
    const cap = await t.req("GET", "/api/v1/user/captcha?type=comment");
    expect(cap.body.enable).toBe(true);
    await refused(m.token, { document_id: d.id, content: "没填验证码" }, 400, "请输入验证码");
    await refused(m.token, { document_id: d.id, content: "错的验证码", captcha_id: cap.body.id, captcha: "zzzz" }, 400, "验证码错误");
    const fresh = await t.req("GET", "/api/v1/user/captcha?type=comment");
    const answer = peekCaptchaAnswerForTests(fresh.body.id)!;
    expect((await post(m.token, { document_id: d.id, content: "验证码正确", captcha_id: fresh.body.id, captcha: answer })).status).toBe(200);
    await refused(m.token, { document_id: d.id, content: "重复使用", captcha_id: fresh.body.id, captcha: answer }, 400, "验证码错误");
    // A captcha issued for another form does not pass here.
    const login = issueCaptcha("login");
    await refused(m.token, { document_id: d.id, content: "登录验证码", captcha_id: login.id, captcha: peekCaptchaAnswerForTests(login.id) }, 400, "验证码错误");
  });
});

describe("review", () => {
  test("with need_review on a member's comment waits (status 2, not counted); a group with 评论需审核 off and moderators skip it", async () => {
    setConfig([["comment", "need_review", true], ["comment", "min_interval", 0]]);
    const m = await member(t);
    const d = makeDoc({ userId: t.userId });
    const r = await post(m.token, { document_id: d.id, content: "待审核的评论" });
    expect(r.body).toMatchObject({ status: 2, message: "评论已提交，审核通过后将对所有人显示" });
    expect(docCount(d.id)).toBe(0);
    expect(userCount(m.user.id)).toBe(0);
    const visitor = await t.req("GET", `/api/v1/comment/list?document_id=${d.id}`);
    expect(visitor.body.total).toBe(0);
    const own = await t.req("GET", `/api/v1/comment/list?document_id=${d.id}`, { token: m.token });
    expect(own.body.comment.map((c: { id: number; status_label: string }) => [c.id, c.status_label])).toEqual([[r.body.id, "待审核"]]);

    const approve = await t.req("PUT", "/api/v1/comment/check", { token: t.rootToken, body: { id: [r.body.id], status: 0 } });
    expect(approve.body).toMatchObject({ message: "操作成功", updated: 1 });
    expect(docCount(d.id)).toBe(1);
    expect(userCount(m.user.id)).toBe(1);
    expect((await t.req("GET", `/api/v1/comment/list?document_id=${d.id}`)).body.total).toBe(1);

    const trusted = getDb().insert(group).values({ title: "免审组", enable_comment: true, enable_comment_approval: false }).returning().get();
    getDb().insert(userGroup).values({ user_id: m.user.id, group_id: trusted.id }).run();
    expect((await post(m.token, { document_id: d.id, content: "免审" })).body.status).toBe(0);
    expect((await post(t.rootToken, { document_id: d.id, content: "管理员" })).body.status).toBe(0);
  });
});

describe("replies and counts", () => {
  test("replies stay one level deep: a reply to a reply hangs under the top comment and names whom it answers", async () => {
    setConfig([["comment", "min_interval", 0]]);
    const a = await member(t);
    const b = await member(t);
    const d = makeDoc({ userId: t.userId });
    const top = (await post(a.token, { document_id: d.id, content: "楼主" })).body;
    const reply = (await post(b.token, { document_id: d.id, parent_id: top.id, content: "回复楼主" })).body;
    expect(reply).toMatchObject({ parent_id: top.id, reply_user_id: a.user.id, reply_username: a.user.username });
    const deeper = (await post(a.token, { document_id: d.id, parent_id: reply.id, content: "回复回复" })).body;
    expect(deeper).toMatchObject({ parent_id: top.id, reply_user_id: b.user.id, reply_username: b.user.username });
    expect(commentRow(top.id)!.reply_count).toBe(2);
    expect(docCount(d.id)).toBe(3);

    const other = makeDoc({ userId: t.userId });
    await refused(a.token, { document_id: other.id, parent_id: top.id, content: "串楼" }, 404, "要回复的评论不存在或已被删除");
    await refused(a.token, { document_id: d.id, parent_id: 999999, content: "不存在" }, 404, "要回复的评论不存在或已被删除");
    await refused(a.token, { document_id: d.id, parent_id: "abc", content: "坏 ID" }, 400, "回复的评论 ID 不正确");

    // Disabling the top comment hides its thread: the document count drops by the thread.
    await t.req("PUT", "/api/v1/comment/check", { token: t.rootToken, body: { id: top.id, status: 1 } });
    expect(docCount(d.id)).toBe(0);
    await refused(b.token, { document_id: d.id, parent_id: reply.id, content: "隐藏的楼" }, 404, "要回复的评论不存在或已被删除");
    await t.req("PUT", "/api/v1/comment/check", { token: t.rootToken, body: { id: top.id, status: 0 } });
    expect(docCount(d.id)).toBe(3);
    expect([userCount(a.user.id), userCount(b.user.id)]).toEqual([2, 1]);
  });
});

describe("deleting", () => {
  test("members delete their own (403 for another's, nothing removed); deleting a top comment removes its replies; moderators delete any", async () => {
    setConfig([["comment", "min_interval", 0]]);
    const a = await member(t);
    const b = await member(t);
    const a2 = makeArticle({ userId: t.userId });
    const top = (await post(a.token, { article_id: a2.id, content: "顶楼" })).body;
    const reply = (await post(b.token, { article_id: a2.id, parent_id: top.id, content: "回复" })).body;
    const mine = (await post(b.token, { article_id: a2.id, content: "b 的评论" })).body;
    expect(articleRow(a2.id).comment_count).toBe(3);

    expect((await t.req("DELETE", `/api/v1/comment?id=${mine.id}`)).status).toBe(401);
    const other = await t.req("DELETE", `/api/v1/comment?id=${top.id}&id=${mine.id}`, { token: b.token });
    expect([other.status, other.body.message]).toEqual([403, "只能删除自己的评论"]);
    expect(commentRows().filter((c) => [top.id, mine.id].includes(c.id))).toHaveLength(2);
    expect((await t.req("DELETE", "/api/v1/comment?id=999999", { token: b.token })).status).toBe(404);
    expect((await t.req("DELETE", "/api/v1/comment", { token: b.token })).body.message).toBe("请选择要删除的记录");

    const own = await t.req("DELETE", "/api/v1/comment", { token: b.token, body: { id: mine.id } });
    expect(own.body).toMatchObject({ message: "删除成功", deleted: 1 });
    const byTop = await t.req("DELETE", `/api/v1/comment?id=${top.id}`, { token: a.token });
    expect(byTop.status).toBe(200);
    expect(commentRow(reply.id)).toBeUndefined();
    expect(articleRow(a2.id).comment_count).toBe(0);
    expect([userCount(a.user.id), userCount(b.user.id)]).toEqual([0, 0]);

    const again = (await post(a.token, { article_id: a2.id, content: "再来" })).body;
    expect((await t.req("DELETE", `/api/v1/comment?id=${again.id}`, { token: t.rootToken })).status).toBe(200);
  });
});

describe("purging the item", () => {
  test("deleting a document or an article for good takes its comments and recounts their authors", async () => {
    setConfig([["comment", "min_interval", 0]]);
    const m = await member(t);
    const d = makeDoc({ userId: t.userId });
    const a = makeArticle({ userId: t.userId });
    await post(m.token, { document_id: d.id, content: "文档上的评论" });
    await post(m.token, { article_id: a.id, content: "文章上的评论" });
    expect(userCount(m.user.id)).toBe(2);
    getDb().update(document).set({ deleted_at: Date.now() }).where(eq(document.id, d.id)).run();
    expect((await t.req("DELETE", `/api/v1/document/recycle?id=${d.id}`, { token: t.rootToken })).status).toBe(200);
    expect(userCount(m.user.id)).toBe(1);
    getDb().update(article).set({ deleted_at: Date.now() }).where(eq(article.id, a.id)).run();
    expect((await t.req("DELETE", `/api/v1/article/recycle?id=${a.id}`, { token: t.rootToken })).status).toBe(200);
    expect(userCount(m.user.id)).toBe(0);
    expect(commentRows().filter((c) => c.user_id === m.user.id)).toEqual([]);
  });
});

describe("moderation permission", () => {
  test("PUT /comment/check: 401 anonymous, 403 for members, allowed once a group holds it; statuses 0–4 only", async () => {
    const m = await member(t);
    const d = makeDoc({ userId: t.userId });
    const c = (await post(m.token, { document_id: d.id, content: "待处理" })).body;
    expect((await t.req("PUT", "/api/v1/comment/check", { body: { id: [c.id], status: 1 } })).status).toBe(401);
    const denied = await t.req("PUT", "/api/v1/comment/check", { token: m.token, body: { id: [c.id], status: 1 } });
    expect([denied.status, denied.body.message]).toEqual([403, "没有权限进行此操作"]);
    expect(commentRow(c.id)!.status).toBe(0);

    const perm = getDb().select().from(permission).where(eq(permission.path, "/api/v1/comment/check")).get()!;
    expect(perm).toMatchObject({ method: "PUT", category: "comment", page: "/admin/comment" });
    const g = getDb().insert(group).values({ title: "评论审核员" }).returning().get();
    getDb().insert(groupPermission).values({ group_id: g.id, permission_id: perm.id }).run();
    const staff = await t.createUser("cmt_staff");
    getDb().insert(userGroup).values({ user_id: staff.user.id, group_id: g.id }).run();
    invalidatePermissions();
    for (const status of [-1, 5, 1.5, "1"]) {
      const bad = await t.req("PUT", "/api/v1/comment/check", { token: staff.token, body: { id: [c.id], status } });
      expect([bad.status, bad.body.message]).toEqual([400, "状态只能是 0 正常、1 禁用、2 审核中、3 拒绝或 4 忽略"]);
    }
    expect((await t.req("PUT", "/api/v1/comment/check", { token: staff.token, body: { id: [], status: 1 } })).body.message).toBe("请选择评论");
    expect((await t.req("PUT", "/api/v1/comment/check", { token: staff.token, body: { id: [999999], status: 1 } })).status).toBe(404);
    expect((await t.req("PUT", "/api/v1/comment/check", { token: staff.token, body: { id: [c.id], status: 1 } })).status).toBe(200);
    expect(commentRow(c.id)!.status).toBe(1);
    // Holding the review permission makes a moderator: another's comment may be deleted.
    expect((await t.req("DELETE", `/api/v1/comment?id=${c.id}`, { token: staff.token })).status).toBe(200);
    expect(getDb().select().from(user).where(eq(user.id, m.user.id)).get()!.comment_count).toBe(0);
  });
});
