// 历史会话 (/chat/history): the user's topics of both kinds, each a link to /chat/{uuid}, with
// inline rename and delete after a confirm. Search (wd) and paging are plain links and forms.
import { useState, type KeyboardEvent } from "react";
import { timeAgo } from "#src/lib/format.ts";
import { api } from "../api.ts";
import { toast } from "../toast.ts";
import { useHydrated, useNow } from "./hooks.ts";

export interface HistoryTopic { id: number; uuid: string; category: number; title: string; message_count: number; created_at: number; updated_at: number }
export interface ChatHistoryProps { topics: HistoryTopic[]; now: number }

const KIND: Record<number, string> = { 1: "AI 对话", 2: "AI 搜索" };

function Row({ t, ready, now, onRenamed, onDeleted }: { t: HistoryTopic; ready: boolean; now: number; onRenamed: (title: string) => void; onDeleted: () => void }) {
  const [mode, setMode] = useState<"view" | "edit" | "confirm">("view");
  const [title, setTitle] = useState(t.title);
  const [busy, setBusy] = useState(false);

  const save = async () => {
    const clean = title.trim();
    if (!clean) return toast("请输入会话标题", "error");
    if (clean === t.title) return setMode("view");
    setBusy(true);
    const r = await api("PUT", "/chat/topic", { body: { id: t.id, title: clean } });
    setBusy(false);
    if (!r.ok) return toast(r.message || "重命名失败", "error");
    onRenamed(clean);
    setMode("view");
    toast("已重命名", "success");
  };
  const remove = async () => {
    setBusy(true);
    const r = await api("DELETE", "/chat/topic", { body: { id: [t.id] } });
    setBusy(false);
    if (!r.ok) return toast(r.message || "删除失败", "error");
    onDeleted();
    toast("已删除", "success");
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter" && !e.nativeEvent.isComposing) void save();
    if (e.key === "Escape") {
      setTitle(t.title);
      setMode("view");
    }
  };

  return (
    <li className="chat-history-item" data-topic={t.uuid}>
      <span className={`chat-kind chat-kind-${t.category}`}>{KIND[t.category] ?? "AI 对话"}</span>
      {mode === "edit" ? (
        <span className="chat-history-edit">
          <label htmlFor={`rename-${t.id}`} className="chat-sr-only">会话标题</label>
          <input id={`rename-${t.id}`} value={title} maxLength={100} autoFocus onChange={(e) => setTitle(e.target.value)} onKeyDown={onKey} />
          <button type="button" className="btn btn-sm btn-primary" disabled={busy} onClick={() => void save()}>保存</button>
          <button type="button" className="btn btn-sm" onClick={() => { setTitle(t.title); setMode("view"); }}>取消</button>
        </span>
      ) : (
        <a className="chat-history-title" href={`/chat/${t.uuid}`}>{t.title || "未命名会话"}</a>
      )}
      <span className="chat-history-meta">
        <span>{`${t.message_count} 条消息`}</span>
        <time dateTime={new Date(t.updated_at).toISOString()}>{timeAgo(t.updated_at, now)}</time>
      </span>
      {mode === "confirm" ? (
        <span className="chat-history-tools" role="group" aria-label="确认删除">
          <span className="chat-history-ask">删除后无法恢复，确定删除？</span>
          <button type="button" className="btn btn-sm chat-danger" disabled={busy} onClick={() => void remove()}>确定删除</button>
          <button type="button" className="btn btn-sm" onClick={() => setMode("view")}>取消</button>
        </span>
      ) : mode === "view" ? (
        <span className="chat-history-tools">
          <button type="button" className="chat-tool" disabled={!ready} onClick={() => setMode("edit")} aria-label={`重命名“${t.title || "未命名会话"}”`}>重命名</button>
          <button type="button" className="chat-tool" disabled={!ready} onClick={() => setMode("confirm")} aria-label={`删除“${t.title || "未命名会话"}”`}>删除</button>
        </span>
      ) : null}
    </li>
  );
}

export default function ChatHistory(p: ChatHistoryProps) {
  const [topics, setTopics] = useState(p.topics);
  const ready = useHydrated();
  const now = useNow(p.now);
  if (!topics.length) {
    return <p className="chat-history-empty">{p.topics.length ? "本页的会话都已删除。" : "还没有会话记录。"}</p>;
  }
  return (
    <ul className="chat-history-list">
      {topics.map((t) => (
        <Row key={t.id} t={t} ready={ready} now={now}
          onRenamed={(title) => setTopics((ts) => ts.map((x) => (x.id === t.id ? { ...x, title } : x)))}
          onDeleted={() => setTopics((ts) => ts.filter((x) => x.id !== t.id))} />
      ))}
    </ul>
  );
}
