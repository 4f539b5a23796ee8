import { Hono } from "hono";
import { z } from "zod";
import { clientIp, type AppContext, type AppEnv } from "#src/http/context.ts";
import { badRequest, notFound, tooManyRequests, unauthorized } from "#src/lib/errors.ts";
import { hit } from "#src/lib/rateLimit.ts";
import { validate } from "#src/lib/validate.ts";
import { isVisible, pageDocByUuid } from "./access.ts";
import { addFavorite, favoriteOf, listFavorites, removeFavorites } from "./favorites.ts";
import { createReport } from "./reports.ts";
import { myScore, rateDocument } from "./scores.ts";
import { isBot, recordView, visitorKey } from "./views.ts";

/** Member actions on a document: rating, favourites, reports, and the view beacon. */
export const readerApi = new Hono<AppEnv>();

const me = (c: AppContext) => {
  const u = c.get("user");
  if (!u) throw unauthorized();
  return u;
};

const docId = z.coerce.number({ error: "文档 ID 不正确" }).int("文档 ID 不正确").positive("文档 ID 不正确");
const idList = z.union([docId, z.array(docId).min(1).max(100)]);
const pageQuery = {
  page: z.coerce.number({ error: "页码不正确" }).int("页码不正确").min(1, "页码不正确").max(10_000, "页码不正确").default(1),
  size: z.coerce.number({ error: "每页数量不正确" }).int("每页数量不正确").min(1, "每页数量不正确").max(100, "每页最多 100 条").default(20),
};

const scoreBody = z.object({
  document_id: docId,
  score: z.number({ error: "请选择 1 到 5 分" }).int("请选择 1 到 5 分").min(1, "请选择 1 到 5 分").max(5, "请选择 1 到 5 分"),
});

readerApi.post("/api/v1/document/score", validate("json", scoreBody), (c) => {
  const u = me(c);
  const b = c.req.valid("json");
  return c.json({ message: "评分成功", ...rateDocument(u.id, b.document_id, b.score) });
});

readerApi.get("/api/v1/document/score", validate("query", z.object({ document_id: docId })), (c) =>
  c.json({ document_id: c.req.valid("query").document_id, score: myScore(me(c).id, c.req.valid("query").document_id) }));

const favoriteLimit = (userId: number) => {
  if (!hit(`favorite:${userId}`, 60, 3600_000)) throw tooManyRequests("收藏操作过于频繁，请稍后再试");
};

readerApi.post("/api/v1/favorite", validate("json", z.object({ document_id: docId })), (c) => {
  const u = me(c);
  favoriteLimit(u.id);
  return c.json({ message: "收藏成功", ...addFavorite(u.id, c.req.valid("json").document_id) });
});

// DELETE takes { id } (one or several favourite ids) or { document_id }, in the body or the query.
readerApi.delete("/api/v1/favorite", async (c) => {
  const u = me(c);
  let raw: Record<string, unknown> = { id: c.req.queries("id"), document_id: c.req.query("document_id") };
  if (!raw.id && !raw.document_id && c.req.header("content-type")?.includes("json")) raw = ((await c.req.json().catch(() => null)) ?? {}) as Record<string, unknown>;
  const ids = raw.id === undefined ? undefined : idList.safeParse(Array.isArray(raw.id) && raw.id.length === 1 ? raw.id[0] : raw.id);
  const document = raw.document_id === undefined ? undefined : docId.safeParse(raw.document_id);
  if (ids && !ids.success) throw badRequest("收藏 ID 不正确");
  if (document && !document.success) throw badRequest("文档 ID 不正确");
  if (!ids && !document) throw badRequest("请指定要取消的收藏");
  favoriteLimit(u.id);
  const list = ids?.data === undefined ? undefined : Array.isArray(ids.data) ? ids.data : [ids.data];
  const removed = removeFavorites(u.id, { ids: list, documentId: document?.data });
  if (!removed) throw notFound("收藏不存在");
  return c.json({ message: "已取消收藏", removed });
});

readerApi.get("/api/v1/favorite/list", validate("query", z.object(pageQuery)), (c) => {
  const q = c.req.valid("query");
  return c.json(listFavorites(me(c).id, q.page, q.size));
});

readerApi.get("/api/v1/favorite", validate("query", z.object({ document_id: docId })), (c) => {
  const f = favoriteOf(me(c).id, c.req.valid("query").document_id);
  return c.json({ favorited: !!f, id: f?.id ?? 0, document_id: c.req.valid("query").document_id, created_at: f?.created_at ?? 0 });
});

// A report names a document or an article (the article page posts here too).
const reportBody = z.object({
  document_id: docId.optional(),
  article_id: z.coerce.number({ error: "文章 ID 不正确" }).int("文章 ID 不正确").positive("文章 ID 不正确").optional(),
  reason: z.number({ error: "请选择举报原因" }).int("请选择举报原因").min(1, "请选择举报原因").max(6, "请选择举报原因"),
  remark: z.string({ error: "补充说明格式不正确" }).max(255, "补充说明不能超过 255 个字").default(""),
}).refine((b) => !!b.document_id !== !!b.article_id, { message: "请指定要举报的文档或文章" });

readerApi.post("/api/v1/report", validate("json", reportBody), (c) => {
  const u = me(c);
  if (!hit(`report:${u.id}`, 20, 3600_000)) throw tooManyRequests("举报过于频繁，请稍后再试");
  return c.json({ message: "举报成功，我们会尽快处理", ...createReport(u.id, c.req.valid("json")) });
});

// The reader's beacon: sendBeacon posts text/plain, so the body is parsed whatever its type.
readerApi.post("/api/v1/document/view", async (c) => {
  let uuid = "";
  try {
    uuid = String((JSON.parse(await c.req.text()) as { uuid?: unknown }).uuid ?? "");
  } catch {
    throw badRequest("请求格式不正确");
  }
  const d = pageDocByUuid(uuid);
  if (!d || !isVisible(d)) throw notFound("文档不存在或已被删除");
  const ua = c.req.header("user-agent");
  const prefetch = /prefetch|prerender/i.test(`${c.req.header("sec-purpose") ?? ""} ${c.req.header("purpose") ?? ""}`);
  const counted = !prefetch && !isBot(ua) && recordView(d.id, visitorKey(c.get("user")?.id, clientIp(c), ua ?? ""));
  return c.json({ counted });
});
