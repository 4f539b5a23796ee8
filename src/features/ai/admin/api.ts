import { Hono } from "hono";
import { idsFrom } from "#src/features/admin/crud/routes.ts";
import { idQuery } from "#src/features/admin/crud/schema.ts";
import { adminApi } from "#src/http/adminOnly.ts";
import type { AppEnv } from "#src/http/context.ts";
import { badRequest, notFound } from "#src/lib/errors.ts";
import { validate } from "#src/lib/validate.ts";
import { LlmError } from "../llm/client.ts";
import { chatStats, deleteMessages, deleteTopicsAdmin, listAllMessages, messageDetail, shanghaiDay } from "./chatAdmin.ts";
import { runLlmTest } from "./llmTest.ts";
import { llmTestBody, messageListQuery, statsQuery } from "./schema.ts";

// The AI back-office APIs; each is a permission (category "llm" or "chat", spec §6).
export const aiAdminApi = new Hono<AppEnv>();

aiAdminApi.post("/api/v1/llm/test", adminApi, validate("json", llmTestBody), async (c) => {
  try {
    return c.json(await runLlmTest(c.req.valid("json")));
  } catch (err) {
    if (err instanceof LlmError) return c.json({ code: err.code, message: err.message }, err.status);
    throw err;
  }
});

aiAdminApi.get("/api/v1/chat/message/all", adminApi, validate("query", messageListQuery), (c) => {
  const { start, end, ...q } = c.req.valid("query");
  const from = start ? shanghaiDay(start, false) : undefined;
  const to = end ? shanghaiDay(end, true) : undefined;
  if (from === null) throw badRequest("开始日期不存在");
  if (to === null) throw badRequest("结束日期不存在");
  if (from !== undefined && to !== undefined && from > to) throw badRequest("开始日期不能晚于结束日期");
  return c.json(listAllMessages({ ...q, start: from, end: to }));
});

aiAdminApi.get("/api/v1/chat/message/detail", adminApi, validate("query", idQuery), (c) => c.json(messageDetail(c.req.valid("query").id)));

// Body { id: [1, 2] } (or ?id=1&id=2); topic message counts are recounted in the same transaction.
aiAdminApi.delete("/api/v1/chat/message", adminApi, async (c) => {
  const deleted = deleteMessages(await idsFrom(c));
  if (!deleted) throw notFound("对话记录不存在或已被删除");
  return c.json({ message: "删除成功", deleted });
});

// Whole topics of any user, with their messages.
aiAdminApi.delete("/api/v1/chat/topic/all", adminApi, async (c) => {
  const deleted = deleteTopicsAdmin(await idsFrom(c));
  if (!deleted) throw notFound("会话不存在或已被删除");
  return c.json({ message: "删除成功", deleted });
});

aiAdminApi.get("/api/v1/chat/stats", adminApi, validate("query", statsQuery), (c) => {
  const stats = chatStats(c.req.valid("query").days);
  return c.json({ stats, totals: stats.reduce((t, d) => ({ questions: t.questions + d.questions, tokens: t.tokens + d.tokens }), { questions: 0, tokens: 0 }) });
});
