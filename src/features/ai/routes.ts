import { Hono } from "hono";
import type { Server } from "bun";
import { grantsOf } from "#src/features/permissions/service.ts";
import { adminApi } from "#src/http/adminOnly.ts";
import type { AppContext, AppEnv } from "#src/http/context.ts";
import { AppError, forbidden, notFound, unauthorized } from "#src/lib/errors.ts";
import { validate } from "#src/lib/validate.ts";
import { cancelAnswer, startAnswer, StopRequested, type AnswerEvent } from "./generate.ts";
import { listMessages, messageById } from "./messages.ts";
import { quotaOf, setUserQuota } from "./quota.ts";
import * as s from "./schema.ts";
import { MSG_STATUS } from "./status.ts";
import { createTopic, deleteTopics, listTopics, ownTopic, removeTopicDocument, renameTopic, topicDocuments } from "./topics.ts";

// AI chat API (spec §7 "Chat"), all for the signed-in owner of a topic (or the root administrator).
export const chatRoutes = new Hono<AppEnv>();

function me(c: AppContext) {
  const u = c.get("user");
  if (!u) throw unauthorized();
  return u;
}

chatRoutes.post("/api/v1/chat/topic", validate("json", s.topicCreate), (c) => c.json(createTopic(me(c).id, c.req.valid("json"))));

chatRoutes.put("/api/v1/chat/topic", validate("json", s.topicRename), (c) => {
  const b = c.req.valid("json");
  renameTopic(me(c), b.id, b.title);
  return c.json({});
});

chatRoutes.delete("/api/v1/chat/topic", validate("query", s.idsQuery), async (c) => {
  const u = me(c);
  let ids = c.req.valid("query").id ?? [];
  if (!ids.length) {
    const body = s.idsBody.safeParse(await c.req.json().catch(() => null));
    if (!body.success) throw new AppError(400, "bad_request", "请选择要删除的会话");
    ids = body.data.id;
  }
  const n = deleteTopics(u, ids);
  if (!n) throw notFound("会话不存在或已被删除");
  return c.json({ deleted: n });
});

chatRoutes.get("/api/v1/chat/topic", validate("query", s.topicGet), (c) => {
  const t = ownTopic(me(c), c.req.valid("query"));
  return c.json({ ...t, document: topicDocuments(t.id) });
});

chatRoutes.get("/api/v1/chat/topic/list", validate("query", s.topicList), (c) => c.json(listTopics(me(c).id, c.req.valid("query"))));

chatRoutes.get("/api/v1/chat/topic/document", validate("query", s.topicRef), (c) => {
  const t = ownTopic(me(c), { id: c.req.valid("query").topic_id });
  return c.json({ document: topicDocuments(t.id) });
});

chatRoutes.delete("/api/v1/chat/message/document", validate("json", s.scopeRemove), (c) => {
  const b = c.req.valid("json");
  removeTopicDocument(me(c), b.topic_id, b.document_id);
  return c.json({});
});

chatRoutes.get("/api/v1/chat/message/list", validate("query", s.messageList), (c) => {
  const q = c.req.valid("query");
  const t = ownTopic(me(c), { id: q.topic_id });
  return c.json(listMessages(t.id, q));
});

chatRoutes.put("/api/v1/chat/message/cancel", validate("json", s.cancelBody), (c) => {
  const u = me(c);
  const id = c.req.valid("json").id;
  const m = messageById(id);
  if (!m || (m.user_id !== u.id && !u.is_root)) throw notFound("消息不存在");
  // Already finished: nothing to stop, and saying so is not an error.
  return c.json({ stopped: cancelAnswer(id, u.id, u.is_root), status: messageById(id)?.status ?? m.status });
});

/** One JSON answer: the same generation as the stream, collected. A failed answer is a 502. */
chatRoutes.post("/api/v1/chat/message", validate("json", s.ask), async (c) => {
  const u = me(c);
  const b = c.req.valid("json");
  const topic = ownTopic(u, { id: b.topic_id });
  const a = await startAnswer({ topic, userId: u.id, content: b.content, replaceId: b.replace_id }, c.req.raw.signal);
  await a.run(() => {});
  const m = messageById(a.messageId)!;
  if (m.status === MSG_STATUS.failed) throw new AppError(503, "llm_error", m.error || "发送失败");
  const { user_id: _u, ...view } = m;
  return c.json(view);
});

const encoder = new TextEncoder();

/**
 * The streamed answer: NDJSON (reference, delta…, done | error). The client going away cancels
 * the body stream and aborts the request signal; either stops the answer and the upstream call.
 */
chatRoutes.post("/api/v1/chat/stream", validate("json", s.ask), async (c) => {
  const u = me(c);
  const b = c.req.valid("json");
  const topic = ownTopic(u, { id: b.topic_id });
  const stop = new AbortController();
  const onGone = () => stop.abort(new StopRequested());
  c.req.raw.signal.addEventListener("abort", onGone, { once: true });
  let a: Awaited<ReturnType<typeof startAnswer>>;
  try {
    a = await startAnswer({ topic, userId: u.id, content: b.content, replaceId: b.replace_id }, stop.signal);
  } catch (err) {
    c.req.raw.signal.removeEventListener("abort", onGone);
    throw err;
  }
  // Bun closes connections idle for 10 s by default; a model may think longer than that.
  (c.env as Server<unknown> | undefined)?.timeout?.(c.req.raw, 0);
  const body = new ReadableStream<Uint8Array>({
    start(ctrl) {
      const emit = (e: AnswerEvent) => {
        try {
          ctrl.enqueue(encoder.encode(`${JSON.stringify(e)}\n`));
        } catch {
          // the reader is gone; the abort above stops the answer
        }
      };
      void a.run(emit).finally(() => {
        c.req.raw.signal.removeEventListener("abort", onGone);
        try {
          ctrl.close();
        } catch {}
      });
    },
    cancel: onGone,
  });
  return new Response(body, {
    headers: { "Content-Type": "application/x-ndjson; charset=utf-8", "Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no", "X-Message-Id": String(a.messageId) },
  });
});

// Quotas (GET own; an administrator who may set quotas may also read anyone's).
chatRoutes.get("/api/v1/user/ai/quota", validate("query", s.quotaGet), (c) => {
  const u = me(c);
  const target = c.req.valid("query").user_id ?? u.id;
  if (target !== u.id && !u.is_root && !grantsOf(u.id).keys.has("POST /api/v1/user/ai/quota")) throw forbidden();
  return c.json(quotaOf(target));
});

chatRoutes.post("/api/v1/user/ai/quota", adminApi, validate("json", s.quotaSet), (c) => {
  const b = c.req.valid("json");
  return c.json(setUserQuota(b.user_id, b));
});
