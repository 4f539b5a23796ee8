// The article API: publishing with its checks (Chinese 400/401/403, nothing half-written), CRUD
// with ownership, the review flow (pending hidden from visitors, visible to its author, rejected
// with a reason, edited back into review), the review setting, recommend, recycle bin, favourites,
// image upload as attachment type 3 and the preview renderer.
import { beforeAll, describe, expect, test } from "bun:test";
import { getSqlite } from "#db/client.ts";
import { PUNISH } from "#src/features/users/punishments/types.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import {
  MEMBERS, articleCount, articleRow, cookie, html, imageForm, joinGroup, makeArticleCategory, png, publish, setConfig, uploadImage, useImageRoot,
} from "./articles-fixtures.ts";

const t = setupTestApp();
useImageRoot();
let other = { token: "", id: 0 };
let loner = { token: "", id: 0 };
let tech = 0;
let web = 0;
let off = 0;

beforeAll(async () => {
  joinGroup(t.userId, MEMBERS);
  const o = await t.createUser("other_writer");
  joinGroup(o.user.id, MEMBERS);
  other = { token: o.token, id: o.user.id };
  const l = await t.createUser("no_group_user");
  loner = { token: l.token, id: l.user.id };
  tech = makeArticleCategory("技术").id;
  web = makeArticleCategory("前端", { parent: tech }).id;
  off = makeArticleCategory("停用分类", { enable: false }).id;
});

const post = (token: string, body: unknown) => t.req("POST", "/api/v1/article", { token, body });
const put = (token: string, body: unknown) => t.req("PUT", "/api/v1/article", { token, body });
const get = (query: string, token?: string) => t.req("GET", `/api/v1/article?${query}`, { token });

describe("POST /api/v1/article", () => {
  test("bad input: a clear Chinese 400, and no row written", async () => {
    const before = articleCount();
    const cases: [unknown, string][] = [
      [{ title: "", content: "x" }, "请输入文章标题"],
      [{ title: "标题", content: "   " }, "请输入文章内容"],
      [{ title: "标题" }, "请输入文章内容"],
      [{ title: "标", content: "x", category_id: [off] }, "文章分类不存在或已禁用"],
      [{ title: "标", content: "x", category_id: [999_999] }, "文章分类不存在或已禁用"],
      [{ title: "标", content: "x", category_id: [web, tech] }, "文章分类不存在或已禁用"],
      [{ title: "标", content: "x", category_id: ["abc"] }, "文章分类不正确"],
      [{ title: "标", content: "x", cover: "https://evil.example/a.png" }, "封面图片不正确，请上传图片作为封面"],
      [{ title: "标", content: "x", cover: "/uploads/article/2026/01/nothere.png" }, "封面图片不正确，请上传图片作为封面"],
      [{ title: "x".repeat(101), content: "x" }, "文章标题不能超过 100 个字符"],
    ];
    for (const [body, message] of cases) {
      const r = await post(t.userToken, body);
      expect({ body, status: r.status, message: r.body?.message }).toEqual({ body, status: 400, message });
    }
    setConfig("article", "max_content_length", 1000);
    const long = await post(t.userToken, { title: "太长", content: "字".repeat(1001) });
    expect([long.status, long.body.message]).toEqual([400, "文章内容不能超过 1000 个字（当前 1001 字）"]);
    setConfig("article", "max_content_length", 50000);
    expect(articleCount()).toBe(before);
  });

  test("anonymous 401; no publishing right 403; a publishing ban 403 with its reason", async () => {
    expect((await post("", { title: "匿名", content: "x" })).status).toBe(401);
    const r = await post(loner.token, { title: "无权", content: "x" });
    expect([r.status, r.body.message]).toEqual([403, "您所在的用户组没有发布文章的权限"]);
    const banned = await t.createUser("banned_writer");
    joinGroup(banned.user.id, MEMBERS);
    expect((await t.req("POST", "/api/v1/punishment", { token: t.rootToken, body: { user_id: banned.user.id, type: [PUNISH.ARTICLE], reason: "发布广告" } })).status).toBe(200);
    const b = await post(banned.token, { title: "被禁", content: "x" });
    expect(b.status).toBe(403);
    expect(b.body.message).toStartWith("您已被禁止发布文章：发布广告");
  });

  test("only administrators name an article; a taken identifier is a 409", async () => {
    expect((await post(t.userToken, { title: "自定", content: "x", identifier: "about" })).status).toBe(403);
    const a = await publish(t, t.rootToken, { title: "关于我们", identifier: "About" });
    expect(a.identifier).toBe("about");
    const dup = await post(t.rootToken, { title: "重复", content: "x", identifier: "about" });
    expect([dup.status, dup.body.message]).toEqual([409, "文章标识已被使用，请换一个"]);
    const bad = await post(t.rootToken, { title: "坏", content: "x", identifier: "-bad id-" });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toStartWith("文章标识只能包含小写字母");
  });

  test("an administrator's article is public at once, with a generated identifier, keywords and summary", async () => {
    const r = await post(t.rootToken, { title: "深入理解浏览器渲染", content: "# 渲染流程\n\n浏览器解析 HTML 生成 DOM 树，解析 CSS 生成样式规则，合成渲染树后布局与绘制。渲染性能优化的关键是减少重排与重绘。", category_id: [tech, web] });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ message: "发布成功", status: 1 });
    expect(r.body.identifier).toMatch(/^[a-z0-9]{12}$/);
    const row = articleRow(r.body.id)!;
    expect(row.category_id).toBe(web);
    expect(row.keywords.split(",").length).toBeGreaterThan(0);
    expect(row.description).toStartWith("浏览器解析 HTML 生成 DOM 树");
    const g = await get(`identifier=${r.body.identifier}`);
    expect(g.status).toBe(200);
    expect(g.body).toMatchObject({ id: r.body.id, title: "深入理解浏览器渲染", category_id: [tech, web], status_label: "已发布", username: "root" });
    expect(g.body.category_path).toEqual([{ id: tech, title: "技术" }, { id: web, title: "前端" }]);
    // Visitors never see the internals.
    expect(g.body).not.toHaveProperty("reject_reason");
    expect(g.body).not.toHaveProperty("deleted_user_id");
    expect((getSqlite().query("SELECT article_count AS n FROM user WHERE id = ?").get(t.rootId) as { n: number }).n).toBeGreaterThan(0);
  });
});

describe("ownership", () => {
  test("editing or deleting another member's article is 403; the author and admins may", async () => {
    const a = await publish(t, t.userToken, { title: "我的文章" });
    const edit = await put(other.token, { id: a.id, title: "改掉" });
    expect([edit.status, edit.body.message]).toEqual([403, "只能操作自己发布的文章"]);
    const del = await t.req("DELETE", "/api/v1/article", { token: other.token, body: { id: [a.id] } });
    expect(del.status).toBe(403);
    expect(articleRow(a.id)!.title).toBe("我的文章");
    expect(articleRow(a.id)!.deleted_at).toBeNull();
    expect((await put(t.userToken, { id: a.id, title: "我的文章（修订）" })).status).toBe(200);
    expect((await put(t.rootToken, { id: a.id, title: "管理员改过" })).status).toBe(200);
    expect((await put(t.userToken, { id: 999_999, title: "x" })).status).toBe(404);
    expect((await put(t.userToken, { id: a.id, identifier: "mine" })).status).toBe(403);
    expect((await put("", { id: a.id, title: "x" })).status).toBe(401);
  });
});

describe("review", () => {
  test("a member's article waits: hidden from visitors and others, visible to its author and admins", async () => {
    const a = await publish(t, t.userToken, { title: "待审核的文章", content: "审核中的正文" });
    expect(a.status).toBe(0);
    expect((await get(`id=${a.id}`)).status).toBe(404);
    expect((await get(`id=${a.id}`, other.token)).status).toBe(404);
    const mine = await get(`id=${a.id}`, t.userToken);
    expect([mine.status, mine.body.status, mine.body.status_label]).toEqual([200, 0, "待审核"]);
    expect((await get(`id=${a.id}`, t.rootToken)).status).toBe(200);
    // Lists: the public one leaves it out, the author's own has it.
    const pub = await t.req("GET", `/api/v1/article/list?user_id=${t.userId}`);
    expect(pub.body.article.some((x: { id: number }) => x.id === a.id)).toBe(false);
    const own = await t.req("GET", `/api/v1/article/list?user_id=${t.userId}`, { token: t.userToken });
    expect(own.body.article.find((x: { id: number }) => x.id === a.id)).toMatchObject({ status: 0 });
    expect(own.body.article[0]).not.toHaveProperty("content");
    // The page: 404 for visitors, the author reads it with a notice.
    expect((await t.req("GET", `/article/${a.identifier}`, { headers: html })).status).toBe(404);
    const page = await t.req("GET", `/article/${a.identifier}`, { headers: cookie(t.userToken) });
    expect(page.status).toBe(200);
    expect(page.text).toContain("文章正在审核中");
    expect(page.text).toContain('<meta name="robots" content="noindex"/>');
  });

  test("approve, reject with a reason (required), and editing sends it back to review", async () => {
    const a = await publish(t, t.userToken, { title: "审核流程" });
    const check = (body: unknown, token = t.rootToken) => t.req("PUT", "/api/v1/article/check", { token, body });
    expect((await check({ id: [a.id], status: 1 }, t.userToken)).status).toBe(403);
    expect((await check({ id: [a.id], status: 1 }, "")).status).toBe(401);
    expect((await check({ id: [a.id], status: 3 })).status).toBe(400);
    const noReason = await check({ id: [a.id], status: 2 });
    expect([noReason.status, noReason.body.message]).toEqual([400, "请填写拒绝原因"]);
    expect(articleRow(a.id)!.status).toBe(0);
    expect((await check({ id: [999_999], status: 1 })).status).toBe(404);

    expect((await check({ id: [a.id], status: 2, reason: "内容与分类不符" })).body.updated).toBe(1);
    const mine = await get(`id=${a.id}`, t.userToken);
    expect([mine.body.status, mine.body.reject_reason]).toEqual([2, "内容与分类不符"]);
    expect((await get(`id=${a.id}`)).status).toBe(404);

    expect((await check({ id: [a.id], status: 1 })).body.updated).toBe(1);
    expect((await get(`id=${a.id}`)).status).toBe(200);
    expect(articleRow(a.id)!.reject_reason).toBe("");

    // A reviewed member edits the text: back to pending, hidden again; a category change alone stays public.
    expect((await put(t.userToken, { id: a.id, category_id: [tech] })).body.status).toBe(1);
    const edited = await put(t.userToken, { id: a.id, content: "改过的正文" });
    expect([edited.status, edited.body.status, edited.body.message]).toEqual([200, 0, "保存成功，文章审核通过后公开"]);
    expect((await get(`id=${a.id}`)).status).toBe(404);
  });

  test("with article.enable_review off, members publish straight away", async () => {
    setConfig("article", "enable_review", false);
    try {
      const a = await publish(t, other.token, { title: "免审核发布" });
      expect(a.status).toBe(1);
      expect((await get(`id=${a.id}`)).status).toBe(200);
    } finally {
      setConfig("article", "enable_review", true);
    }
  });

  test("recommend: admins only; recommended articles come first in the list's default sort", async () => {
    const a = await publish(t, t.rootToken, { title: "推荐的旧文章" });
    await publish(t, t.rootToken, { title: "更新的文章" });
    expect((await t.req("PUT", "/api/v1/article/recommend", { token: t.userToken, body: { id: [a.id], type: 1 } })).status).toBe(403);
    expect((await t.req("PUT", "/api/v1/article/recommend", { token: t.rootToken, body: { id: [a.id], type: 1 } })).body.updated).toBe(1);
    expect(articleRow(a.id)!.is_recommend).toBe(true);
    const list = await t.req("GET", "/api/v1/article/list?is_recommend=1");
    expect(list.body.article.map((x: { id: number }) => x.id)).toContain(a.id);
    const page = await t.req("GET", "/article", { headers: html });
    expect(page.text.indexOf("推荐的旧文章")).toBeLessThan(page.text.indexOf("更新的文章"));
  });
});

describe("list filters", () => {
  test("category (with its subtree), author, status (admins), order; bad filters are 400", async () => {
    const inWeb = await publish(t, t.rootToken, { title: "前端文章", category_id: [tech, web] });
    const inTech = await publish(t, t.rootToken, { title: "技术文章", category_id: [tech] });
    const ids = async (q: string, token?: string) => (await t.req("GET", `/api/v1/article/list?${q}`, { token })).body.article.map((x: { id: number }) => x.id);
    expect(await ids(`category_id=${tech}&size=100`)).toEqual(expect.arrayContaining([inWeb.id, inTech.id]));
    expect(await ids(`category_id=${web}&size=100`)).not.toContain(inTech.id);
    expect(await ids(`user_id=${t.rootId}&order=id asc&size=2`)).toHaveLength(2);
    const pending = await ids("status=0&size=100", t.rootToken);
    expect(pending.every((id: number) => articleRow(id)!.status === 0)).toBe(true);
    // Category counts: approved articles in each category's subtree, kept in step with deletes.
    const docCount = (id: number) => (getSqlite().query("SELECT doc_count AS n FROM category WHERE id = ?").get(id) as { n: number }).n;
    const [techBefore, webBefore] = [docCount(tech), docCount(web)];
    expect(techBefore).toBeGreaterThanOrEqual(webBefore + 1);
    await t.req("DELETE", `/api/v1/article?id=${inWeb.id}`, { token: t.rootToken });
    expect([docCount(tech), docCount(web)]).toEqual([techBefore - 1, webBefore - 1]);
    expect((await t.req("GET", "/api/v1/article/list?status=5")).status).toBe(400);
    expect((await t.req("GET", "/api/v1/article/list?order=password")).status).toBe(400);
    expect((await t.req("GET", "/api/v1/article/list?page=0")).status).toBe(400);
  });

  test("a category holding articles cannot be deleted; an empty one can", async () => {
    const used = makeArticleCategory("有文章的分类").id;
    await publish(t, t.rootToken, { title: "占用分类", category_id: [used] });
    const r = await t.req("DELETE", `/api/v1/category?id=${used}`, { token: t.rootToken });
    expect([r.status, r.body.message]).toEqual([400, "该分类下还有子分类或文档"]);
    const empty = makeArticleCategory("空分类").id;
    expect((await t.req("DELETE", `/api/v1/category?id=${empty}`, { token: t.rootToken })).status).toBe(200);
  });
});

describe("recycle bin", () => {
  test("delete hides, restore brings back, purge removes for good with favourites; admin routes only", async () => {
    const a = await publish(t, t.rootToken, { title: "回收站里的文章" });
    expect((await t.req("POST", "/api/v1/article/favorite", { token: t.userToken, body: { article_id: a.id } })).status).toBe(200);
    const del = await t.req("DELETE", `/api/v1/article?id=${a.id}`, { token: t.rootToken });
    expect([del.status, del.body.deleted]).toEqual([200, 1]);
    expect((await get(`id=${a.id}`)).status).toBe(404);
    expect((await t.req("GET", `/article/${a.identifier}`, { headers: html })).status).toBe(404);
    expect((await t.req("GET", "/api/v1/article/recycle/list", { token: t.userToken })).status).toBe(403);
    const bin = await t.req("GET", "/api/v1/article/recycle/list", { token: t.rootToken });
    expect(bin.body.article.find((x: { id: number }) => x.id === a.id)).toMatchObject({ deleted_username: "root" });
    // Only what is in the bin can be restored or purged.
    const live = await publish(t, t.rootToken, { title: "还活着" });
    const wrong = await t.req("PUT", "/api/v1/article/recycle/restore", { token: t.rootToken, body: { id: [live.id] } });
    expect([wrong.status, wrong.body.message]).toEqual([400, "只能操作回收站中的文章"]);
    expect((await t.req("PUT", "/api/v1/article/recycle/restore", { token: t.rootToken, body: { id: [a.id] } })).body.restored).toBe(1);
    expect((await get(`id=${a.id}`)).status).toBe(200);
    await t.req("DELETE", `/api/v1/article?id=${a.id}`, { token: t.rootToken });
    expect((await t.req("DELETE", `/api/v1/article/recycle?id=${a.id}`, { token: t.userToken })).status).toBe(403);
    expect((await t.req("DELETE", `/api/v1/article/recycle?id=${a.id}`, { token: t.rootToken })).body.deleted).toBe(1);
    expect(articleRow(a.id)).toBeUndefined();
    expect((getSqlite().query("SELECT count(*) AS n FROM article_favorite WHERE article_id = ?").get(a.id) as { n: number }).n).toBe(0);
  });
});

describe("favourites", () => {
  test("add once, count kept in step, remove; hidden articles cannot be favourited", async () => {
    const a = await publish(t, t.rootToken, { title: "值得收藏" });
    const add = await t.req("POST", "/api/v1/article/favorite", { token: t.userToken, body: { article_id: a.id } });
    expect([add.status, add.body.favorite_count]).toEqual([200, 1]);
    const again = await t.req("POST", "/api/v1/article/favorite", { token: t.userToken, body: { article_id: a.id } });
    expect([again.status, again.body.message]).toEqual([409, "您已经收藏过这篇文章了"]);
    expect((await t.req("GET", `/api/v1/article/favorite?article_id=${a.id}`, { token: t.userToken })).body.favorited).toBe(true);
    const rm = await t.req("DELETE", `/api/v1/article/favorite?article_id=${a.id}`, { token: t.userToken });
    expect([rm.status, rm.body.favorite_count]).toEqual([200, 0]);
    expect((await t.req("DELETE", `/api/v1/article/favorite?article_id=${a.id}`, { token: t.userToken })).status).toBe(404);
    expect((await t.req("POST", "/api/v1/article/favorite", { body: { article_id: a.id } })).status).toBe(401);
    const pending = await publish(t, t.userToken, { title: "未审核不能收藏" });
    expect((await t.req("POST", "/api/v1/article/favorite", { token: other.token, body: { article_id: pending.id } })).status).toBe(404);
    expect((await t.req("POST", "/api/v1/article/favorite", { token: other.token, body: { article_id: "x" } })).status).toBe(400);
  });
});

describe("images and preview", () => {
  test("members upload images as article attachments (type 3); anything but an image is refused", async () => {
    const path = await uploadImage(t, t.userToken, 3);
    expect(path).toMatch(/^\/uploads\/article\/\d{4}\/\d{2}\/[0-9a-f]{64}\.png$/);
    expect(getSqlite().query("SELECT type, user_id FROM attachment WHERE path = ?").get(path)).toEqual({ type: 3, user_id: t.userId });
    const served = await t.req("GET", path);
    expect([served.status, served.res.headers.get("content-type")]).toEqual([200, "image/png"]);
    const fake = new FormData();
    fake.append("file", new File(["<svg onload=alert(1)></svg>"], "x.png", { type: "image/png" }));
    const bad = await t.req("POST", "/api/v1/upload/article", { token: t.userToken, body: fake });
    expect([bad.status, bad.body.message]).toEqual([400, "只支持 PNG、JPEG、GIF、WebP 格式的图片（按文件内容识别）"]);
    expect((await t.req("POST", "/api/v1/upload/article", { body: imageForm(await png(4)) })).status).toBe(401);
    expect((await t.req("POST", "/api/v1/upload/article", { token: loner.token, body: imageForm(await png(5)) })).status).toBe(403);
    // The uploaded image works as a cover and in the body.
    const a = await publish(t, t.rootToken, { title: "带封面", cover: path, content: `![示意](${path})` });
    expect(articleRow(a.id)!.cover).toBe(path);
  });

  test("the preview is the page's own renderer: sanitised, images only from attachments", async () => {
    const path = await uploadImage(t, t.userToken, 6);
    const r = await t.req("POST", "/api/v1/article/preview", { token: t.userToken, body: { content: `## 小节\n\n<script>alert(1)</script>\n\n![图](${path}) ![外](https://evil.example/x.png)\n\n$a^2$` } });
    expect(r.status).toBe(200);
    expect(r.body.html).toContain('<h3 id="h-小节">');
    expect(r.body.html).toContain("&lt;script&gt;");
    expect(r.body.html).toContain(`<img src="${path}" alt="图" loading="lazy" /> <span>外</span>`);
    expect(r.body.html).not.toContain("evil.example");
    expect(r.body.html).toContain("<math>");
    expect(r.body.toc).toEqual([{ level: 2, id: "h-小节", text: "小节" }]);
    expect((await t.req("POST", "/api/v1/article/preview", { body: { content: "x" } })).status).toBe(401);
  });
});
