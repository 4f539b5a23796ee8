// AI 搜索 (/chat/search): one query runs the library search and a synthesised, cited answer at
// the same time, side by side. The first query creates a category-2 topic and moves the address
// to /chat/search?topic={uuid}; a reload shows the last query again and never asks it twice.
import { useState, type FormEvent } from "react";
import { api } from "../api.ts";
import { toast } from "../toast.ts";
import { useHydrated, useMath, useNow } from "./hooks.ts";
import { hasMath } from "./markdown.ts";
import { MessageItem } from "./MessageItem.tsx";
import { quotaText, type ChatMsg, type Quota } from "./stream.ts";
import { useChat } from "./useChat.ts";

export interface SearchHitView { uuid: string; title: string; snippet: string; page: number; ext: string; pages: number }

export interface AiSearchProps {
  topic: { id: number; uuid: string } | null;
  /** the topic's latest question and answer, if any */
  messages: ChatMsg[];
  query: string;
  hits: SearchHitView[];
  total: number;
  quota: Quota | null;
  enabled: boolean;
  maxLength: number;
  now: number;
}

// Titles and snippets come from the search service as escaped HTML with <mark> only.
function Hits({ hits, total, query, loading }: { hits: SearchHitView[]; total: number; query: string; loading: boolean }) {
  if (loading) return <p className="ai-search-note">正在搜索文库…</p>;
  if (!hits.length) return <p className="ai-search-note">{`文库中没有找到与“${query}”直接相关的文档。`}</p>;
  return (
    <>
      <ol className="ai-hits">
        {hits.map((h) => (
          <li key={h.uuid} className="ai-hit">
            <a className="ai-hit-title" href={`/document/${h.uuid}?page=${h.page || 1}`} dangerouslySetInnerHTML={{ __html: h.title }} />
            {h.snippet ? <p className="ai-hit-snippet"><span className="ai-hit-page">{`第 ${h.page} 页`}</span><span dangerouslySetInnerHTML={{ __html: h.snippet }} /></p> : null}
            <p className="ai-hit-meta">{`${h.ext.replace(/^\./, "").toUpperCase()} · ${h.pages} 页`}</p>
          </li>
        ))}
      </ol>
      <a className="ai-hits-more" href={`/search?wd=${encodeURIComponent(query)}`}>{`查看全部 ${total} 篇结果`}</a>
    </>
  );
}

export default function AiSearch(p: AiSearchProps) {
  const [topic, setTopic] = useState(p.topic);
  const [text, setText] = useState("");
  const [query, setQuery] = useState(p.query);
  const [hits, setHits] = useState({ list: p.hits, total: p.total, loading: false });
  const chat = useChat(p.messages, p.quota);
  const ready = useHydrated();
  const now = useNow(p.now);
  const last = chat.messages.at(-1);
  const math = useMath(!!last && hasMath(last.answer));
  const len = [...text].length;

  const loadHits = async (q: string) => {
    setHits((h) => ({ ...h, loading: true }));
    const r = await api<{ total: number; document: SearchHitView[] }>("GET", "/search", { query: { wd: q.slice(0, 64), page: 1, size: 10 } });
    setHits({ list: r.data?.document ?? [], total: r.data?.total ?? 0, loading: false });
    if (!r.ok) toast(r.message || "搜索失败", "error");
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const q = text.trim();
    if (!q || chat.busy || !ready) return;
    if (len > p.maxLength) return toast(`问题最多 ${p.maxLength} 字`, "error");
    let t = topic;
    if (!t) {
      const r = await api<{ id: number; uuid: string }>("POST", "/chat/topic", { body: { category: 2, title: q.slice(0, 50) } });
      if (!r.ok || !r.data) return toast(r.message || "创建会话失败", "error");
      t = r.data;
      setTopic(t);
      history.replaceState(null, "", `/chat/search?topic=${t.uuid}`);
    }
    setQuery(q);
    setText("");
    void loadHits(q);
    const r = await chat.send(t.id, q);
    if (!r.ok) toast(r.message || "发送失败", "error");
  };

  return (
    <div className="ai-search">
      <form className="ai-search-form" role="search" onSubmit={(e) => void submit(e)}>
        <label htmlFor="ai-search-q" className="chat-sr-only">搜索问题</label>
        <input id="ai-search-q" name="wd" type="search" value={text} onChange={(e) => setText(e.target.value)} disabled={!p.enabled || chat.busy} autoComplete="off"
          placeholder={p.enabled ? "输入问题，同时搜索文库并生成 AI 总结" : "AI 助手尚未开启"} />
        {chat.busy ? <button type="button" className="btn chat-stop" onClick={chat.stop}>停止生成</button>
          : <button type="submit" className="btn btn-primary" disabled={!ready || !p.enabled || !text.trim()}>AI 搜索</button>}
      </form>
      <p className="ai-search-quota">{quotaText(chat.quota)}{len > p.maxLength ? `（已超出 ${len - p.maxLength} 字）` : ""}</p>
      {query ? (
        <div className="ai-search-grid">
          <section className="ai-search-answer" aria-labelledby="ai-answer-title">
            <h2 id="ai-answer-title" className="ai-search-h">{`AI 总结：${query}`}</h2>
            {last ? <MessageItem m={last} math={math} now={now} actions={{ ready, busy: chat.busy, onStop: chat.stop, onRegenerate: topic ? (m) => void chat.send(topic.id, m.question, m.id).then((r) => r.ok || toast(r.message || "发送失败", "error")) : undefined }} /> : null}
          </section>
          <section className="ai-search-hits" aria-labelledby="ai-hits-title">
            <h2 id="ai-hits-title" className="ai-search-h">文库文档</h2>
            <Hits hits={hits.list} total={hits.total} query={query} loading={hits.loading} />
          </section>
        </div>
      ) : (
        <div className="chat-welcome">
          <p className="chat-welcome-title">AI 搜索</p>
          <p>一次提问，同时得到文库中的相关文档和一段带出处的 AI 总结。</p>
        </div>
      )}
    </div>
  );
}
