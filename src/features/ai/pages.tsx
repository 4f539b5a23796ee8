import { Hono } from "hono";
import { documentByUuid, isVisible } from "#src/features/reader/access.ts";
import { searchDocuments } from "#src/features/search/service.ts";
import { getSettings, setting } from "#src/features/settings/service.ts";
import { renderNotFound } from "#src/features/site/errorPages.tsx";
import type { AppContext, AppEnv } from "#src/http/context.ts";
import type { SessionUser } from "#src/features/auth/sessions.ts";
import { unauthorized } from "#src/lib/errors.ts";
import { renderPage } from "#src/views/render.tsx";
import { listMessages } from "./messages.ts";
import { quotaOf } from "./quota.ts";
import { listTopics, topicByUuid, topicDocuments, type TopicRow } from "./topics.ts";
import { AiSearchView, ChatHomeView, ChatRoomView, HistoryView } from "./views/ChatViews.tsx";

/**
 * The AI chat pages (spec §2: /chat, /chat/{id}, /chat/dialog, /chat/history, /chat/search) in
 * the chat layout. Per user, so never page-cached (renderPage's `cache` stays off). siteGuards
 * already sends anonymous visitors to /login; a topic of someone else is a 404.
 */
export const chatPageRoutes = new Hono<AppEnv>();

const HISTORY_SIZE = 20;
const MESSAGES_SIZE = 50;

function viewer(c: AppContext): SessionUser {
  const u = c.get("user");
  if (!u) throw unauthorized();
  return u;
}

/** The topic when this user may see it (owner or root administrator). */
function visibleTopic(u: SessionUser, uuid: string | undefined): TopicRow | undefined {
  const t = uuid ? topicByUuid(uuid) : undefined;
  return t && (t.user_id === u.id || u.is_root) ? t : undefined;
}

function chatSettings(u: SessionUser) {
  return {
    enabled: !!setting<boolean>("llm", "enable"),
    maxLength: Math.floor(Number(setting("llm", "max_question_length")) || 2000),
    quota: quotaOf(u.id),
  };
}

const page = (c: AppContext, title: string, body: React.ReactElement) =>
  renderPage(c, body, { meta: { title, noindex: true }, bodyClass: "chat-body" });

chatPageRoutes.get("/chat", (c) => {
  const u = viewer(c);
  const suggestions = String(setting("llm", "suggestions") ?? "").split("\n").map((s) => s.trim()).filter(Boolean).slice(0, 6);
  const recent = listTopics(u.id, { page: 1, size: 5 }).topic;
  const sitename = String(getSettings().system?.sitename ?? "");
  return page(c, "AI 助手", <ChatHomeView start={{ ...chatSettings(u), suggestions }} recent={recent} sitename={sitename} now={Date.now()} />);
});

// A new, empty conversation; ?document={uuid} scopes it to that document (the reader's link).
chatPageRoutes.get("/chat/dialog", (c) => {
  const u = viewer(c);
  const doc = documentByUuid(String(c.req.query("document") ?? ""));
  const documents = doc && isVisible(doc) ? [{ id: doc.id, uuid: doc.uuid, title: doc.title, pages: doc.pages, ext: doc.ext }] : [];
  return page(c, "AI 对话", <ChatRoomView app={{ topic: null, messages: [], total: 0, documents, ...chatSettings(u), now: Date.now() }} />);
});

chatPageRoutes.get("/chat/search", (c) => {
  const u = viewer(c);
  const uuid = c.req.query("topic");
  const t = visibleTopic(u, uuid);
  if (uuid && !t) return renderNotFound(c);
  const last = t ? listMessages(t.id, { page: 1, size: 1 }).message : [];
  const query = last[0]?.question ?? "";
  const r = query ? searchDocuments({ wd: query.slice(0, 64), type: 0, page: 1, size: 10 }) : { total: 0, document: [] };
  const hits = r.document.map((h) => ({ uuid: h.uuid, title: h.title, snippet: h.snippet, page: h.page, ext: h.ext, pages: h.pages }));
  const props = { topic: t ? { id: t.id, uuid: t.uuid } : null, messages: last, query, hits, total: r.total, ...chatSettings(u), now: Date.now() };
  return page(c, query ? `${query} - AI 搜索` : "AI 搜索", <AiSearchView props={props} />);
});

chatPageRoutes.get("/chat/history", (c) => {
  const u = viewer(c);
  const wd = String(c.req.query("wd") ?? "").trim().slice(0, 64);
  const n = Math.max(1, Math.min(100_000, Math.floor(Number(c.req.query("page"))) || 1));
  const { total, topic } = listTopics(u.id, { page: n, size: HISTORY_SIZE, wd });
  const pages = Math.max(1, Math.ceil(total / HISTORY_SIZE));
  const topics = topic.map(({ id, uuid, category, title, message_count, created_at, updated_at }) => ({ id, uuid, category, title, message_count, created_at, updated_at }));
  return page(c, n > 1 ? `历史会话 - 第${n}页` : "历史会话", <HistoryView topics={topics} total={total} page={n} pages={pages} wd={wd} now={Date.now()} />);
});

chatPageRoutes.get("/chat/:uuid", (c) => {
  const u = viewer(c);
  const t = visibleTopic(u, c.req.param("uuid"));
  if (!t) return renderNotFound(c);
  const { total, message } = listMessages(t.id, { page: 1, size: MESSAGES_SIZE });
  const app = { topic: { id: t.id, uuid: t.uuid, title: t.title }, messages: message, total, documents: topicDocuments(t.id), ...chatSettings(u), now: Date.now() };
  return page(c, `${t.title || "新对话"} - AI 对话`, <ChatRoomView app={app} />);
});
