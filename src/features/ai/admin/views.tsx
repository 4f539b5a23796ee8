import type { ReactNode } from "react";
import { getSqlite } from "#db/client.ts";
import { listConfig } from "#src/features/settings/service.ts";
import { ensureSearchTables, PAGE_BITS, rebuildStatus } from "#src/features/search/indexer.ts";
import type { AppContext } from "#src/http/context.ts";
import { formatDateTime } from "#src/lib/format.ts";
import { Island } from "#src/views/Island.tsx";
import AdminLlmSettings from "#islands/ai/AdminLlmSettings.tsx";
import AdminChatTopicActions from "#islands/ai/AdminChatTopicActions.tsx";
import { MessageView } from "#islands/ai/AdminChatParts.tsx";
import { embeddingActive } from "#src/features/embedding/vectors.ts";
import { LLM_PROVIDERS } from "../llm/presets.ts";
import { may, ROUTES } from "./access.ts";
import type { MessageDetail, TopicHead } from "./chatAdmin.ts";

/** What a public AI page shows to an admin who lacks the API behind it. */
export const NoAccess = ({ what }: { what: string }) => (
  <section className="adm-card"><p className="adm-muted">{`你没有${what}的权限，请联系超级管理员在「用户组 - 权限」中分配。`}</p></section>
);

/** The 大模型设置 screen body (also /admin/config/llm): settings form with provider presets + 测试连接. */
export function llmSettingsPanel(c: AppContext): ReactNode {
  const canEdit = may(c, ROUTES.configList) && may(c, ROUTES.configSave);
  const canTest = may(c, ROUTES.llmTest);
  if (!canEdit && !canTest) return <NoAccess what="查看大模型设置" />;
  return <Island name="AdminLlmSettings" component={AdminLlmSettings} props={{ items: canEdit ? listConfig(["llm"]) : [], providers: LLM_PROVIDERS, canTest }} />;
}

const MASK = 2 ** PAGE_BITS - 1;

/** Counts of the full-text index the AI retrieves from (fused with vectors when embeddings are on). */
export function indexCounts() {
  ensureSearchTables();
  const db = getSqlite();
  const n = (sql: string) => (db.query(sql).get() as { n: number }).n;
  return {
    indexed_documents: n(`SELECT count(*) AS n FROM search_fts WHERE (rowid & ${MASK}) = 0`),
    indexed_pages: n(`SELECT count(*) AS n FROM search_fts WHERE (rowid & ${MASK}) > 0`),
    text_pages: n("SELECT count(*) AS n FROM document_page"),
    text_documents: n("SELECT count(DISTINCT document_id) AS n FROM document_page"),
  };
}

const num = (v: number) => v.toLocaleString("zh-CN");

export function EmbeddingView() {
  const c = indexCounts();
  const vectors = embeddingActive();
  const rebuilt = rebuildStatus().rebuilt_at;
  return (
    <>
      <section className="adm-card">
        <h2 className="adm-card-title">当前检索方式</h2>
        <dl className="adm-kv">
          <div><dt>检索方式</dt><dd><strong>{vectors ? "混合检索（BM25 全文索引 + 向量语义检索，倒数排名融合）" : "关键词检索（BM25 全文索引，按页）"}</strong></dd></div>
          <div><dt>向量模型</dt><dd>{vectors ? "已启用" : "未启用"}</dd></div>
          <div><dt>说明</dt><dd>AI 对话按页检索文档，回答中的引用指向文档的具体页码。启用向量模型后，问题与页面片段的语义相似度和关键词检索的结果融合排序；未启用或向量索引尚未建好时只用关键词检索，照常工作。</dd></div>
        </dl>
      </section>
      <section className="adm-card">
        <h2 className="adm-card-title">全文索引</h2>
        <ul className="adm-stats">
          <li><div><span className="adm-stat-label">已索引文档</span><strong className="adm-stat-value">{num(c.indexed_documents)}</strong></div></li>
          <li><div><span className="adm-stat-label">已索引页面</span><strong className="adm-stat-value">{num(c.indexed_pages)}</strong></div></li>
          <li><div><span className="adm-stat-label">有文本的文档</span><strong className="adm-stat-value">{num(c.text_documents)}</strong></div></li>
          <li><div><span className="adm-stat-label">有文本的页面</span><strong className="adm-stat-value">{num(c.text_pages)}</strong></div></li>
        </ul>
        <p className="adm-help">
          {rebuilt ? `索引上次重建于 ${formatDateTime(rebuilt)}。` : "索引随文档转换自动更新。"}
          页面数少于有文本的页面数时（例如更换了分词词典），可以在 <a href="/admin/config/search">系统设置 - 搜索设置</a> 中重建搜索索引。
        </p>
      </section>
    </>
  );
}

/** The read-only view of one topic: every message in full, oldest first. */
export function TopicView({ topic, messages }: { topic: TopicHead; messages: MessageDetail[] }) {
  return (
    <>
      <section className="adm-card">
        <h2 className="adm-card-title">{topic.title || "未命名会话"}</h2>
        <dl className="adm-kv">
          <div><dt>用户</dt><dd><a href={`/user/${topic.user_id}`} target="_blank" rel="noopener noreferrer">{topic.username || `#${topic.user_id}`}</a></dd></div>
          <div><dt>类型</dt><dd>{topic.category || "—"}</dd></div>
          <div><dt>消息数</dt><dd>{topic.message_count}</dd></div>
          <div><dt>创建时间</dt><dd>{formatDateTime(topic.created_at)}</dd></div>
          <div><dt>最后更新</dt><dd>{formatDateTime(topic.updated_at)}</dd></div>
        </dl>
        <div className="adm-form-actions adm-form-actions-left"><Island name="AdminChatTopicActions" component={AdminChatTopicActions} props={{ id: topic.id, title: topic.title }} /></div>
      </section>
      {messages.length ? messages.map((m, i) => (
        <section key={m.id} className="adm-card" aria-label={`第 ${i + 1} 轮`}>
          <h2 className="adm-card-title">{`第 ${i + 1} 轮`}</h2>
          <MessageView m={m} showTopic={false} />
        </section>
      )) : <section className="adm-card"><p className="adm-empty">该会话还没有对话</p></section>}
    </>
  );
}
