// Server views of the AI chat pages. The interactive parts are islands (islands/chat/*), rendered
// here to HTML first: history, citations and math are readable before any script runs.
import type { ReactNode } from "react";
import AiSearch, { type AiSearchProps } from "#islands/chat/AiSearch.tsx";
import ChatApp, { type ChatAppProps } from "#islands/chat/ChatApp.tsx";
import ChatHistory, { type HistoryTopic } from "#islands/chat/ChatHistory.tsx";
import ChatStart, { type ChatStartProps } from "#islands/chat/ChatStart.tsx";
import { MathContext } from "#islands/chat/hooks.ts";
import { PageNav, hrefWith } from "#src/features/categories/views/parts.tsx";
import { timeAgo } from "#src/lib/format.ts";
import { Island } from "#src/views/Island.tsx";
import { ChatLayout } from "#src/views/layouts/ChatLayout.tsx";
import { TOPIC_CATEGORY_LABEL } from "../status.ts";
import { serverMath } from "./math.ts";

export const DISABLED_NOTICE = "AI 助手尚未开启，请联系管理员";

function Notice({ enabled }: { enabled: boolean }) {
  return enabled ? null : <p className="chat-notice" role="status">{DISABLED_NOTICE}</p>;
}

export function ChatPage({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <ChatLayout>
      <div className={className ? `chat-page ${className}` : "chat-page"}>{children}</div>
    </ChatLayout>
  );
}

export interface RecentTopic { uuid: string; title: string; category: number; updated_at: number }

export function ChatHomeView({ start, recent, sitename, now }: { start: ChatStartProps; recent: RecentTopic[]; sitename: string; now: number }) {
  return (
    <ChatPage className="chat-home">
      <header className="chat-hero">
        <h1>AI 助手</h1>
        <p>{`基于${sitename}的文档回答你的问题，每个回答都注明出自哪篇文档的哪一页。`}</p>
      </header>
      <Notice enabled={start.enabled} />
      <Island name="ChatStart" component={ChatStart} props={start} />
      <section className="chat-recent" aria-labelledby="chat-recent-title">
        <div className="chat-recent-head">
          <h2 id="chat-recent-title">最近会话</h2>
          <a href="/chat/history">全部历史会话</a>
        </div>
        {recent.length ? (
          <ul>
            {recent.map((t) => (
              <li key={t.uuid}>
                <a href={`/chat/${t.uuid}`}>
                  <span className={`chat-kind chat-kind-${t.category}`}>{TOPIC_CATEGORY_LABEL[t.category] ?? "AI 对话"}</span>
                  <span className="chat-recent-title">{t.title || "未命名会话"}</span>
                  <time dateTime={new Date(t.updated_at).toISOString()}>{timeAgo(t.updated_at, now)}</time>
                </a>
              </li>
            ))}
          </ul>
        ) : <p className="chat-recent-empty">还没有会话，问第一个问题吧。</p>}
      </section>
    </ChatPage>
  );
}

/** A conversation (/chat/{uuid}) or a new one (/chat/dialog). */
export function ChatRoomView({ app }: { app: ChatAppProps }) {
  return (
    <ChatPage className="chat-room-page">
      <Notice enabled={app.enabled} />
      <MathContext.Provider value={serverMath}>
        <Island name="ChatApp" component={ChatApp} props={app} />
      </MathContext.Provider>
    </ChatPage>
  );
}

export function AiSearchView({ props }: { props: AiSearchProps }) {
  return (
    <ChatPage className="ai-search-page">
      <header className="chat-page-head">
        <h1>AI 搜索</h1>
        <a href="/chat/search" className="chat-new-link">新的搜索</a>
      </header>
      <Notice enabled={props.enabled} />
      <MathContext.Provider value={serverMath}>
        <Island name="AiSearch" component={AiSearch} props={props} />
      </MathContext.Provider>
    </ChatPage>
  );
}

export function HistoryView({ topics, total, page, pages, wd, now }: { topics: HistoryTopic[]; total: number; page: number; pages: number; wd: string; now: number }) {
  return (
    <ChatPage className="chat-history-page">
      <header className="chat-page-head">
        <h1>历史会话</h1>
        <a href="/chat/dialog" className="btn btn-primary btn-sm chat-new-btn">新建对话</a>
      </header>
      <form className="chat-history-search" method="get" action="/chat/history" role="search">
        <label htmlFor="chat-history-wd" className="chat-sr-only">按标题搜索会话</label>
        <input id="chat-history-wd" name="wd" type="search" defaultValue={wd} maxLength={64} placeholder="按标题搜索会话" />
        <button type="submit" className="btn">搜索</button>
      </form>
      <p className="chat-history-count">{wd ? `找到 ${total} 个标题含“${wd}”的会话` : `共 ${total} 个会话`}</p>
      {topics.length ? <Island name="ChatHistory" component={ChatHistory} props={{ topics, now }} /> : (
        <p className="chat-history-empty">{wd ? "没有找到匹配的会话，换个关键词试试。" : "还没有会话记录，去问 AI 第一个问题吧。"}</p>
      )}
      <PageNav page={page} pages={pages} href={(n) => hrefWith("/chat/history", { wd: wd || undefined, page: n > 1 ? n : undefined })} />
    </ChatPage>
  );
}
