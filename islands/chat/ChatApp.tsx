// AI 对话: one topic's conversation (/chat/{uuid}) or a new one (/chat/dialog). History comes
// rendered from the server; new answers stream in. A new dialog creates its topic on the first
// question and moves the address to /chat/{uuid}; /chat/{uuid}?q=… (from the start screen) asks
// q at once and drops it from the address, so a reload never asks again.
import { useEffect, useRef, useState } from "react";
import { api } from "../api.ts";
import { toast } from "../toast.ts";
import { Composer } from "./Composer.tsx";
import { useHydrated, useMath, useNow } from "./hooks.ts";
import { hasMath } from "./markdown.ts";
import { MessageItem } from "./MessageItem.tsx";
import type { ChatMsg, Quota, ScopeDoc } from "./stream.ts";
import { useChat } from "./useChat.ts";

export interface ChatAppProps {
  topic: { id: number; uuid: string; title: string } | null;
  messages: ChatMsg[];
  /** messages in the topic (the page carries the newest ones) */
  total: number;
  documents: ScopeDoc[];
  quota: Quota | null;
  enabled: boolean;
  maxLength: number;
  now: number;
}

const PAGE = 50;

export default function ChatApp(p: ChatAppProps) {
  const [topic, setTopic] = useState(p.topic);
  const [docs, setDocs] = useState(p.documents);
  const [total, setTotal] = useState(p.total);
  const [older, setOlder] = useState(false);
  const chat = useChat(p.messages, p.quota);
  const ready = useHydrated();
  const now = useNow(p.now);
  const math = useMath(chat.messages.some((m) => hasMath(m.answer)));
  const end = useRef<HTMLDivElement>(null);
  const follow = useRef(true);

  const ask = async (q: string): Promise<boolean> => {
    let t = topic;
    if (!t) {
      const r = await api<{ id: number; uuid: string }>("POST", "/chat/topic", { body: { category: 1, title: q.slice(0, 50), ...(docs.length ? { document_id: docs.map((d) => d.id) } : {}) } });
      if (!r.ok || !r.data) return toast(r.message || "创建会话失败", "error"), false;
      t = { id: r.data.id, uuid: r.data.uuid, title: q.slice(0, 50) };
      setTopic(t);
      history.replaceState(null, "", `/chat/${t.uuid}`);
    }
    follow.current = true;
    setTotal((n) => n + 1);
    const r = await chat.send(t.id, q);
    if (!r.ok) {
      if (!r.kept) setTotal((n) => n - 1);
      toast(r.message || "发送失败", "error");
    }
    return r.ok || !!r.kept;
  };

  const regenerate = async (m: ChatMsg) => {
    if (!topic) return;
    follow.current = true;
    const r = await chat.send(topic.id, m.question, m.id);
    if (!r.ok) toast(r.message || "发送失败", "error");
  };

  // The start screen's question arrives as ?q=…: ask it once, and take it out of the address first.
  useEffect(() => {
    const q = new URLSearchParams(location.search).get("q")?.trim();
    if (!q) return;
    history.replaceState(null, "", location.pathname);
    void ask(q);
  }, []);

  // Keep the newest text in view while it streams, unless the reader scrolled up to read.
  useEffect(() => {
    const onScroll = () => {
      follow.current = innerHeight + scrollY >= document.documentElement.scrollHeight - 160;
    };
    addEventListener("scroll", onScroll, { passive: true });
    return () => removeEventListener("scroll", onScroll);
  }, []);
  useEffect(() => {
    if (chat.busy && follow.current) end.current?.scrollIntoView({ block: "end" });
  }, [chat.messages, chat.busy]);

  const removeDoc = async (d: ScopeDoc) => {
    if (topic) {
      const r = await api("DELETE", "/chat/message/document", { body: { topic_id: topic.id, document_id: d.id } });
      if (!r.ok) return toast(r.message || "移除失败", "error");
    }
    setDocs((ds) => ds.filter((x) => x.id !== d.id));
    toast(docs.length > 1 ? `已移除《${d.title}》` : "已移除，将在整个文库中查找", "success");
  };

  const loadOlder = async () => {
    if (!topic) return;
    setOlder(true);
    const page = Math.floor(chat.messages.length / PAGE) + 1;
    const r = await api<{ total: number; message: ChatMsg[] }>("GET", "/chat/message/list", { query: { topic_id: topic.id, page, size: PAGE } });
    setOlder(false);
    if (!r.ok || !r.data) return toast(r.message || "加载失败", "error");
    const have = new Set(chat.messages.map((m) => m.id));
    chat.setMessages((ms) => [...r.data!.message.filter((m) => !have.has(m.id)), ...ms]);
    setTotal(r.data.total);
  };

  const actions = { ready, busy: chat.busy, onRegenerate: topic ? (m: ChatMsg) => void regenerate(m) : undefined, onStop: chat.stop };
  return (
    <div className="chat-room">
      <header className="chat-room-head">
        <h1 className="chat-room-title">{topic?.title || "新对话"}</h1>
        {docs.length ? (
          <div className="chat-scope">
            <span className="chat-scope-label">仅在这些文档中查找：</span>
            <ul>
              {docs.map((d) => (
                <li key={d.id} className="chat-scope-chip">
                  <a href={`/document/${d.uuid}`} title={d.title}>{d.title}</a>
                  <button type="button" aria-label={`移除《${d.title}》`} title="移出对话范围" disabled={!ready || chat.busy} onClick={() => void removeDoc(d)}>×</button>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </header>
      <section className="chat-thread" aria-label="对话内容">
        {total > chat.messages.length && topic ? (
          <button type="button" className="btn btn-sm chat-older" disabled={!ready || older} onClick={() => void loadOlder()}>{older ? "加载中…" : "加载更早的消息"}</button>
        ) : null}
        {chat.messages.length ? chat.messages.map((m) => <MessageItem key={m.client_key ?? m.id} m={m} math={math} now={now} actions={actions} />) : (
          <div className="chat-welcome">
            <p className="chat-welcome-title">有什么可以帮你？</p>
            <p>{docs.length ? "我会在上面这些文档中查找答案，并注明出自哪一页。" : "我会在文库的文档中查找答案，并注明出自哪篇文档的哪一页。"}</p>
          </div>
        )}
        <div ref={end} />
      </section>
      <div className="chat-dock">
        <Composer onSend={ask} onStop={chat.stop} busy={chat.busy} ready={ready} enabled={p.enabled} maxLength={p.maxLength} quota={chat.quota} />
      </div>
    </div>
  );
}
