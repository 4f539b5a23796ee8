import { Hono, type Context } from "hono";
import { idsFrom } from "#src/features/admin/crud/routes.ts";
import { receiveImage, storeSpooledImage } from "#src/features/admin/attachment/storage.ts";
import { isBot, visitorKey } from "#src/features/reader/views.ts";
import { adminApi } from "#src/http/adminOnly.ts";
import { clientIp, type AppEnv } from "#src/http/context.ts";
import { badRequest, tooManyRequests, unauthorized } from "#src/lib/errors.ts";
import { hit } from "#src/lib/rateLimit.ts";
import { validate } from "#src/lib/validate.ts";
import { addArticleFavorite, articleFavoriteOf, listArticleFavorites, removeArticleFavorite } from "./favorites.ts";
import { assertMayPublish, findReadable, isArticleAdmin, type Actor } from "./policy.ts";
import { renderContent } from "./render.ts";
import { checkArticles, listArticleRecycle, purgeArticles, recommendArticles, restoreArticles } from "./review.ts";
import { articleIdField, checkBody, createBody, favoriteBody, favoriteListQuery, getQuery, listQuery, previewBody, recommendBody, recycleListQuery, restoreBody, updateBody } from "./schema.ts";
import { articleDetail, createArticle, listArticles, softDeleteArticles, updateArticle } from "./service.ts";
import { recordArticleView } from "./views.ts";
import { z } from "zod";

// The article API (spec §7 naming, MOREDOC's ArticleAPI): members publish and manage their own
// articles; article administrators (the "article" permissions) act on everyone's.
export const articleApi = new Hono<AppEnv>();

const actor = (c: Context<AppEnv>): Actor => {
  const u = c.get("user");
  if (!u) throw unauthorized();
  return u;
};

const limit = (key: string, n: number, ms: number, message: string) => {
  if (!hit(key, n, ms)) throw tooManyRequests(message);
};

articleApi.post("/api/v1/article", validate("json", createBody), (c) => {
  const me = actor(c);
  const admin = isArticleAdmin(me);
  // Members are limited (a spam burst stops at 30 an hour); administrators may post in bulk.
  if (!admin) limit(`article:create:${me.id}`, 30, 3600_000, "发布过于频繁，请稍后再试");
  const a = createArticle(me, admin, c.req.valid("json"));
  return c.json({ message: a.status === 1 ? "发布成功" : "发布成功，文章审核通过后公开", id: a.id, identifier: a.identifier, status: a.status });
});

articleApi.put("/api/v1/article", validate("json", updateBody), (c) => {
  const me = actor(c);
  const admin = isArticleAdmin(me);
  const a = updateArticle(me, admin, c.req.valid("json"));
  return c.json({ message: a.status === 0 && !admin ? "保存成功，文章审核通过后公开" : "保存成功", ...articleDetail(a, true) });
});

articleApi.delete("/api/v1/article", async (c) => {
  const me = actor(c);
  const deleted = softDeleteArticles(me, isArticleAdmin(me), await idsFrom(c));
  return c.json({ message: "已移入回收站", deleted });
});

articleApi.get("/api/v1/article", validate("query", getQuery), (c) => {
  const me = c.get("user");
  const admin = isArticleAdmin(me);
  const a = findReadable(c.req.valid("query"), me, admin);
  return c.json(articleDetail(a, admin || a.user_id === me?.id));
});

/** Administrators list and filter everything; a user's own list has every status; others see approved ones. */
articleApi.get("/api/v1/article/list", validate("query", listQuery), (c) => {
  const q = c.req.valid("query");
  const me = c.get("user");
  if (isArticleAdmin(me)) return c.json(listArticles(q, "admin"));
  return c.json(listArticles(q, q.user_id && me?.id === q.user_id ? "owner" : "public"));
});

articleApi.put("/api/v1/article/check", adminApi, validate("json", checkBody), (c) => {
  const { id, status, reason } = c.req.valid("json");
  const updated = checkArticles(id, status, reason ?? "");
  return c.json({ message: updated ? "操作成功" : "所选文章已是该状态", updated });
});

articleApi.put("/api/v1/article/recommend", adminApi, validate("json", recommendBody), (c) => {
  const { id, type } = c.req.valid("json");
  return c.json({ message: type === 0 ? "已取消推荐" : "推荐成功", updated: recommendArticles(id, type) });
});

articleApi.get("/api/v1/article/recycle/list", adminApi, validate("query", recycleListQuery), (c) => c.json(listArticleRecycle(c.req.valid("query"))));

articleApi.put("/api/v1/article/recycle/restore", adminApi, validate("json", restoreBody), (c) =>
  c.json({ message: "恢复成功", restored: restoreArticles(c.req.valid("json").id) }));

articleApi.delete("/api/v1/article/recycle", adminApi, async (c) => c.json({ message: "已彻底删除", deleted: purgeArticles(await idsFrom(c)) }));

// The editor's live preview: the page's own renderer, so what the author sees is what gets published.
articleApi.post("/api/v1/article/preview", validate("json", previewBody), (c) => {
  const me = actor(c);
  limit(`article:preview:${me.id}`, 240, 60_000, "预览过于频繁，请稍后再试");
  return c.json(renderContent(c.req.valid("json").content));
});

// Images of articles (attachment type 3): multipart `file`, streamed to a temp file, 5 MB at most.
articleApi.post("/api/v1/upload/article", async (c) => {
  const me = actor(c);
  assertMayPublish(me);
  limit(`article:image:${me.id}`, 100, 3600_000, "上传过于频繁，请稍后再试");
  const file = await receiveImage(c.req.raw);
  try {
    const row = await storeSpooledImage(file, "article", { userId: me.id, ip: clientIp(c) });
    return c.json({ message: "上传成功", id: row.id, path: row.path, width: row.width, height: row.height, name: row.name });
  } finally {
    file.cleanup();
  }
});

articleApi.get("/api/v1/article/favorite", validate("query", z.object({ article_id: articleIdField })), (c) => {
  const id = c.req.valid("query").article_id;
  const f = articleFavoriteOf(actor(c).id, id);
  return c.json({ favorited: !!f, id: f?.id ?? 0, article_id: id });
});

articleApi.get("/api/v1/article/favorite/list", validate("query", favoriteListQuery), (c) => {
  const { page, size } = c.req.valid("query");
  return c.json(listArticleFavorites(actor(c).id, page, size));
});

articleApi.post("/api/v1/article/favorite", validate("json", favoriteBody), (c) => {
  const me = actor(c);
  limit(`favorite:${me.id}`, 60, 3600_000, "收藏操作过于频繁，请稍后再试");
  return c.json({ message: "收藏成功", ...addArticleFavorite(me.id, c.req.valid("json").article_id) });
});

articleApi.delete("/api/v1/article/favorite", async (c) => {
  const me = actor(c);
  const raw = c.req.query("article_id") ?? (c.req.header("content-type")?.includes("json") ? ((await c.req.json().catch(() => null)) as { article_id?: unknown } | null)?.article_id : undefined);
  const id = articleIdField.safeParse(raw);
  if (!id.success) throw badRequest("文章 ID 不正确");
  limit(`favorite:${me.id}`, 60, 3600_000, "收藏操作过于频繁，请稍后再试");
  return c.json({ message: "已取消收藏", ...removeArticleFavorite(me.id, id.data) });
});

// The article page's beacon: sendBeacon posts text/plain, so the body is parsed whatever its type.
articleApi.post("/api/v1/article/view", async (c) => {
  let identifier = "";
  try {
    identifier = String((JSON.parse(await c.req.text()) as { identifier?: unknown }).identifier ?? "");
  } catch {
    throw badRequest("请求格式不正确");
  }
  // As an anonymous reader: only approved articles outside the recycle bin count (404 otherwise).
  const a = findReadable({ identifier: identifier.slice(0, 64) }, null, false);
  const ua = c.req.header("user-agent");
  const prefetch = /prefetch|prerender/i.test(`${c.req.header("sec-purpose") ?? ""} ${c.req.header("purpose") ?? ""}`);
  const counted = !prefetch && !isBot(ua) && recordArticleView(a.id, visitorKey(c.get("user")?.id, clientIp(c), ua ?? ""));
  return c.json({ counted });
});
