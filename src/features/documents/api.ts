import { Hono, type Context } from "hono";
import { z } from "zod";
import { idsFrom } from "#src/features/admin/crud/routes.ts";
import { adminApi } from "#src/http/adminOnly.ts";
import { clientIp, type AppEnv } from "#src/http/context.ts";
import { badRequest, unauthorized } from "#src/lib/errors.ts";
import { validate } from "#src/lib/validate.ts";
import { createDocuments } from "./create.ts";
import { findReadable, isDocumentAdmin, type Actor } from "./policy.ts";
import { listRecycle, purgeDocuments, restoreDocuments } from "./recycle.ts";
import { reconvertDocuments } from "./reconvert.ts";
import { checkDocuments, recommendDocuments } from "./review.ts";
import { checkBody, createBody, getQuery, listQuery, reconvertBody, recommendBody, recycleListQuery, restoreBody, updateBody } from "./schema.ts";
import { documentDetail, documentView, listDocuments, softDeleteDocuments, updateDocument } from "./service.ts";

// The document API (spec §7 and MOREDOC's DocumentAPI/RecycleAPI). GET/PUT/DELETE /document and
// the list serve owners (and visitors where visible); document administrators act on everyone's.
export const documentApi = new Hono<AppEnv>();

const actor = (c: Context<AppEnv>): Actor => {
  const u = c.get("user");
  if (!u) throw unauthorized();
  return u;
};

documentApi.post("/api/v1/document", validate("json", createBody), (c) => {
  const docs = createDocuments(actor(c), c.req.valid("json"), clientIp(c));
  return c.json({ message: "上传成功", document: docs.map((d) => documentView(d, true)) });
});

documentApi.put("/api/v1/document", validate("json", updateBody), (c) => {
  const me = actor(c);
  const d = updateDocument(me, isDocumentAdmin(me), c.req.valid("json"));
  return c.json({ message: "保存成功", ...documentView(d, true) });
});

documentApi.delete("/api/v1/document", async (c) => {
  const me = actor(c);
  const deleted = softDeleteDocuments(me, isDocumentAdmin(me), await idsFrom(c));
  return c.json({ message: "已移入回收站", deleted });
});

documentApi.get("/api/v1/document", validate("query", getQuery), (c) => {
  const me = c.get("user");
  const admin = isDocumentAdmin(me);
  const d = findReadable(c.req.valid("query"), me, admin);
  return c.json(documentDetail(d, admin || d.user_id === me?.id));
});

/**
 * Document administrators list and filter everything; others list one user's documents:
 * all statuses for their own (the personal centre), converted ones for anybody else's.
 */
documentApi.get("/api/v1/document/list", validate("query", listQuery), (c) => {
  const q = c.req.valid("query");
  if (isDocumentAdmin(c.get("user"))) return c.json(listDocuments(q, "admin"));
  if (!q.user_id) throw badRequest("请指定用户");
  const mine = c.get("user")?.id === q.user_id;
  return c.json(listDocuments(q, mine ? "owner" : "public"));
});

documentApi.put("/api/v1/document/recommend", adminApi, validate("json", recommendBody), (c) => {
  const { id, type } = c.req.valid("json");
  return c.json({ message: type === 0 ? "已取消推荐" : "推荐成功", updated: recommendDocuments(id, type) });
});

documentApi.put("/api/v1/document/check", adminApi, validate("json", checkBody), (c) => {
  const { id, status } = c.req.valid("json");
  const updated = checkDocuments(id, status);
  return c.json({ message: updated ? "操作成功" : "所选文档的状态不适用此操作", updated });
});

documentApi.put("/api/v1/document/reconvert", adminApi, validate("json", reconvertBody), (c) => {
  const queued = reconvertDocuments(c.req.valid("json"));
  return c.json({ message: queued ? `已加入转换队列：${queued} 篇` : "没有需要重新转换的文档", queued });
});

documentApi.get("/api/v1/document/recycle/list", adminApi, validate("query", recycleListQuery), (c) => c.json(listRecycle(c.req.valid("query"))));

documentApi.put("/api/v1/document/recycle/restore", adminApi, validate("json", restoreBody), (c) =>
  c.json({ message: "恢复成功", restored: restoreDocuments(c.req.valid("json").id) }));

const banFlag = z.union([z.boolean(), z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1")]).optional();

/** `?id=1&id=2&ban_hash=1` or a JSON body `{ id: [1, 2], ban_hash: true }`. */
documentApi.delete("/api/v1/document/recycle", adminApi, async (c) => {
  // Hono caches the parsed body, so idsFrom below reads the same JSON again.
  const body = c.req.header("content-type")?.includes("json") ? ((await c.req.json().catch(() => null)) as { ban_hash?: unknown } | null) : null;
  const ban = banFlag.safeParse(body?.ban_hash ?? c.req.query("ban_hash"));
  if (!ban.success) throw badRequest("ban_hash 只能是 true 或 false");
  const r = purgeDocuments(await idsFrom(c), { ban: !!ban.data });
  return c.json({ message: "已彻底删除", ...r });
});
