import { Hono } from "hono";
import { renderAdmin } from "#src/features/admin/page.tsx";
import { adminPage } from "#src/http/adminOnly.ts";
import type { AppEnv } from "#src/http/context.ts";
import { Island } from "#src/views/Island.tsx";
import AdminChatList from "#islands/ai/AdminChatList.tsx";
import { MSG_STATUS_LABEL } from "../status.ts";
import { may, ROUTES } from "./access.ts";
import { listAllMessages, topicHead, topicMessages } from "./chatAdmin.ts";
import { embeddingPanel } from "#src/features/embedding/adminPanel.tsx";
import { EmbeddingView, llmSettingsPanel, NoAccess, TopicView } from "./views.tsx";

// The AI 管理 screens (spec §2 /admin/ai: llm, embedding, chat); public to every admin (spec §6).
export const aiAdminPages = new Hono<AppEnv>();

aiAdminPages.get("/admin/ai", adminPage, (c) => c.redirect("/admin/ai/llm", 302));

aiAdminPages.get("/admin/ai/llm", adminPage, (c) => renderAdmin(c, { title: "大模型设置", active: "ai/llm", children: llmSettingsPanel(c) }));

aiAdminPages.get("/admin/ai/embedding", adminPage, (c) => renderAdmin(c, { title: "向量模型", active: "ai/embedding", children: <><EmbeddingView />{embeddingPanel(c)}</> }));

const PAGE_SIZE = 20;
const STATUSES = Object.entries(MSG_STATUS_LABEL).map(([value, label]) => ({ value: Number(value), label }));

aiAdminPages.get("/admin/ai/chat", adminPage, (c) => {
  const children = may(c, ROUTES.messages)
    ? (
      <section className="adm-card">
        <div className="adm-intro"><p>所有用户的 AI 对话：每行是一次提问及其回答。点会话标题查看整个会话；删除后不可恢复；已用的额度不会因删除而返还。</p></div>
        <Island name="AdminChatList" component={AdminChatList} props={{ initial: listAllMessages({ page: 1, size: PAGE_SIZE }), pageSize: PAGE_SIZE, statuses: STATUSES }} />
      </section>
    )
    : <NoAccess what="查看对话记录" />;
  return renderAdmin(c, { title: "对话记录", active: "ai/chat", children });
});

aiAdminPages.get("/admin/ai/chat/topic/:id{[0-9]+}", adminPage, (c) => {
  if (!may(c, ROUTES.messages)) return renderAdmin(c, { title: "会话详情", active: "ai/chat", children: <NoAccess what="查看对话记录" /> });
  const id = Number(c.req.param("id"));
  const topic = topicHead(id);
  return renderAdmin(c, { title: "会话详情", active: "ai/chat", children: <TopicView topic={topic} messages={topicMessages(id)} /> });
});
