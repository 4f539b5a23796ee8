// GET /comment/list (threads, sorts, visibility, filters), the comments on the reader page
// (escaped plain text, links only when allowed, cache) and the admin screen /admin/comment.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { setDocumentsRoot } from "#src/features/documents/paths.ts";
import { resetAll } from "#src/lib/rateLimit.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { makeArticle, member } from "./comments-fixtures.ts";
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
  setConfig([["comment", "enable", true], ["comment", "need_review", false], ["comment", "min_interval", 0], ["comment", "allow_link", false]]);
});

const post = async (token: string, body: Record<string, unknown>) => {
  const r = await t.req("POST", "/api/v1/comment", { token, body });
  expect(r.status).toBe(200);
  return r.body as { id: number; status: number };
};
const list = (query: string, token?: string) => t.req("GET", `/api/v1/comment/list?${query}`, { token });
const ids = (r: { body: { comment: { id: number }[] } }) => r.body.comment.map((c) => c.id);
const html = (path: string, token?: string) => t.req("GET", path, { token, headers: { accept: "text/html" } });

describe("list", () => {
  test("threads newest or hottest first, each with its first three replies; parent_id pages through a thread", async () => {
    const a = await member(t);
    const b = await member(t);
    const d = makeDoc({ userId: t.userId });
    const first = await post(a.token, { document_id: d.id, content: "第一条" });
    const second = await post(b.token, { document_id: d.id, content: "第二条" });
    const replies = [];
    for (let i = 1; i <= 5; i++) replies.push(await post(i % 2 ? b.token : a.token, { document_id: d.id, parent_id: first.id, content: `回复 ${i}` }));

    const newest = await list(`document_id=${d.id}`);
    expect(newest.status).toBe(200);
    expect(newest.body.total).toBe(2);
    expect(ids(newest)).toEqual([second.id, first.id]);
    const thread = newest.body.comment[1];
    expect(thread).toMatchObject({ reply_count: 5, reply_total: 5 });
    expect(thread.replies.map((r: { id: number }) => r.id)).toEqual(replies.slice(0, 3).map((r) => r.id));
    expect(thread.ip).toBeUndefined();

    expect(ids(await list(`document_id=${d.id}&sort=hot`))).toEqual([first.id, second.id]);
    const rest = await list(`document_id=${d.id}&parent_id=${first.id}&size=2&page=2`);
    expect([rest.body.total, ids(rest)]).toEqual([5, replies.slice(2, 4).map((r) => r.id)]);

    expect((await list(`document_id=${d.id}&sort=best`)).body.message).toBe("排序只能是 new（最新）或 hot（最热）");
    expect((await list(`document_id=${d.id}&size=101`)).body.message).toBe("每页最多 100 条");
    expect((await list(`document_id=${d.id}&article_id=1`)).body.message).toBe("文档和文章只能指定一个");
    expect((await list("document_id=abc")).status).toBe(400);
  });

  test("visitors see normal comments on items they may read; moderators see every status, with IP", async () => {
    const m = await member(t);
    const d = makeDoc({ userId: t.userId });
    const shown = await post(m.token, { document_id: d.id, content: "正常" });
    const hidden = await post(m.token, { document_id: d.id, content: "将被禁用" });
    await t.req("PUT", "/api/v1/comment/check", { token: t.rootToken, body: { id: [hidden.id], status: 1 } });

    expect(ids(await list(`document_id=${d.id}`))).toEqual([shown.id]);
    expect(ids(await list(`document_id=${d.id}&status=1`))).toEqual([]);
    const admin = await list(`document_id=${d.id}`, t.rootToken);
    expect(ids(admin)).toEqual([hidden.id, shown.id]);
    expect(admin.body.comment[0]).toMatchObject({ status: 1, status_label: "已禁用" });
    expect(typeof admin.body.comment[0].ip).toBe("string");
    expect(ids(await list(`document_id=${d.id}&status=1`, t.rootToken))).toEqual([hidden.id]);

    const gone = makeDoc({ userId: t.userId });
    const onGone = await post(m.token, { document_id: gone.id, content: "文档后来被禁用" });
    await t.req("PUT", "/api/v1/document/check", { token: t.rootToken, body: { id: [gone.id], status: 4 } });
    expect((await list(`document_id=${gone.id}`)).status).toBe(404);
    // A user's comments: flat, with the item's title and link, only on items still public.
    const theirs = await list(`user_id=${m.user.id}`);
    expect(ids(theirs)).toEqual([shown.id]);
    expect(theirs.body.comment[0]).toMatchObject({ target_title: d.title, target_url: `/document/${d.uuid}` });
    expect(ids(await list(`user_id=${m.user.id}`, t.rootToken))).toEqual([onGone.id, hidden.id, shown.id]);
  });

  test("admin filters: type, keyword over content, user and title, dates", async () => {
    const m = await member(t);
    const d = makeDoc({ userId: t.userId, title: "筛选用文档" });
    const a = makeArticle({ userId: t.userId, title: "筛选用文章" });
    const onDoc = await post(m.token, { document_id: d.id, content: "关于表格的问题" });
    const onArt = await post(m.token, { article_id: a.id, content: "写得好" });
    expect(ids(await list(`type=article&user_id=${m.user.id}`, t.rootToken))).toEqual([onArt.id]);
    expect(ids(await list(`type=document&user_id=${m.user.id}`, t.rootToken))).toEqual([onDoc.id]);
    expect(ids(await list("wd=表格的问", t.rootToken))).toEqual([onDoc.id]);
    expect(ids(await list("wd=筛选用文章", t.rootToken))).toEqual([onArt.id]);
    expect(ids(await list(`wd=${m.user.username.toUpperCase()}`, t.rootToken)).sort()).toEqual([onDoc.id, onArt.id].sort());
    expect((await list("start=2000-01-01&end=2000-01-02", t.rootToken)).body.total).toBe(0);
    expect((await list("start=2030-01-02&end=2030-01-01", t.rootToken)).body.message).toBe("开始日期不能晚于结束日期");
    expect((await list("type=video", t.rootToken)).body.message).toBe("类型只能是 document 或 article");
  });
});

describe("reader page", () => {
  test("comments render under the document as escaped plain text; links become clickable only when allowed", async () => {
    const m = await member(t);
    const d = makeDoc({ userId: t.userId });
    await post(m.token, { document_id: d.id, content: "<script>alert(1)</script> 看 https://example.com/a?b=1 吧" });
    const page = await html(`/document/${d.uuid}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('id="comments"');
    expect(page.text).toContain("评论 1");
    expect(page.text).not.toContain("<script>alert(1)");
    expect(page.text).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(page.text).not.toContain('href="https://example.com/a?b=1"');
    expect(page.text).toContain("登录后参与评论");

    setConfig([["comment", "allow_link", true]]);
    const linked = await html(`/document/${d.uuid}`);
    expect(linked.text).toContain('href="https://example.com/a?b=1" target="_blank" rel="nofollow ugc noopener noreferrer"');

    // A signed-in member gets the form, a moderator the delete buttons on everything.
    expect((await html(`/document/${d.uuid}`, m.token)).text).toContain("写下你的评论");
    expect((await html(`/document/${d.uuid}?comment_sort=hot`)).text).toMatch(/aria-current="true" class="cmt-sort active"[^>]*>最热/);
    setConfig([["comment", "enable", false]]);
    expect((await html(`/document/${d.uuid}`)).text).toContain("评论功能已关闭");
  });

  test("a new comment shows on the cached anonymous page at once", async () => {
    const m = await member(t);
    const d = makeDoc({ userId: t.userId });
    expect((await html(`/document/${d.uuid}`)).text).toContain("还没有评论");
    await post(m.token, { document_id: d.id, content: "缓存之后的评论" });
    expect((await html(`/document/${d.uuid}`)).text).toContain("缓存之后的评论");
  });
});

describe("admin screen", () => {
  test("/admin/comment lists comments waiting for review first; members are sent away", async () => {
    setConfig([["comment", "need_review", true]]);
    const m = await member(t);
    const d = makeDoc({ userId: t.userId });
    await post(m.token, { document_id: d.id, content: "等待审核的评论内容" });
    const page = await html("/admin/comment", t.rootToken);
    expect(page.status).toBe(200);
    expect(page.text).toContain("评论管理");
    expect(page.text).toContain("等待审核的评论内容");
    expect(page.text).toContain('href="/admin/comment"');
    const denied = await t.req("GET", "/admin/comment", { token: m.token, headers: { accept: "text/html" } });
    expect(denied.status).toBe(302);
  });
});
