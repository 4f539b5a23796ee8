// Conversation state shared by the dialog and AI search islands: send (or regenerate) a question,
// stream its answer into the list, stop it, and keep the quota line fresh.
import { useCallback, useEffect, useRef, useState } from "react";
import { cancelMessage, fetchQuota, streamChat, type ChatMsg, type Quota } from "./stream.ts";

const blank = (id: number, topicId: number, question: string): ChatMsg => ({
  id, client_key: id, topic_id: topicId, question, answer: "", references: [], status: 0, error: "",
  prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, first_token_ms: 0, duration_ms: 0, created_at: Date.now(), updated_at: Date.now(),
});

export interface SendResult { ok: boolean; message?: string; /** refused, but the question stays in the list */ kept?: boolean }

export function useChat(initial: ChatMsg[], initialQuota: Quota | null) {
  const [messages, setMessages] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [quota, setQuota] = useState(initialQuota);
  const ctrl = useRef<AbortController | null>(null);
  const streaming = useRef(0);
  const latest = useRef(messages);
  latest.current = messages;

  // Leaving the page mid-answer: the browser drops the fetch; the server saves what it has as 已停止.
  useEffect(() => () => ctrl.current?.abort(), []);

  const send = useCallback(async (topicId: number, content: string, replaceId?: number): Promise<SendResult> => {
    if (ctrl.current) return { ok: false, message: "上一个回答还在生成中" };
    const c = new AbortController();
    ctrl.current = c;
    streaming.current = 0;
    let key = -Date.now();
    const before = latest.current;
    setMessages((ms) => [...ms.filter((m) => m.id !== replaceId), blank(key, topicId, content)]);
    setBusy(true);
    const patch = (f: (m: ChatMsg) => ChatMsg) => {
      const k = key;
      setMessages((ms) => ms.map((m) => (m.id === k ? f(m) : m)));
    };
    let finished = false;
    const end = await streamChat({ topic_id: topicId, content, ...(replaceId ? { replace_id: replaceId } : {}) }, (e) => {
      if (e.type === "reference") {
        patch((m) => ({ ...m, id: e.message_id, references: e.document ?? [] }));
        key = e.message_id;
        streaming.current = e.message_id;
      } else if (e.type === "delta") {
        patch((m) => ({ ...m, answer: m.answer + e.content }));
      } else if (e.type === "done") {
        finished = true;
        const u = e.usage;
        patch((m) => ({ ...m, id: e.message_id || m.id, status: e.status, prompt_tokens: u?.prompt_tokens ?? 0, completion_tokens: u?.completion_tokens ?? 0, total_tokens: u?.total_tokens ?? 0, first_token_ms: e.first_token_ms ?? 0, duration_ms: e.duration_ms ?? 0, updated_at: Date.now() }));
      } else if (e.type === "error") {
        finished = true;
        patch((m) => ({ ...m, id: e.message_id || m.id, status: 3, error: e.message, updated_at: Date.now() }));
      }
    }, c.signal);
    ctrl.current = null;
    streaming.current = 0;
    setBusy(false);
    if (end.kind === "refused" && end.status === 429) {
      // Quota spent: the server keeps the question as 超出额度, and so does the list.
      patch((m) => ({ ...m, status: 4, error: end.message, updated_at: Date.now() }));
      return { ok: false, kept: true, message: end.message };
    }
    if (end.kind === "refused") {
      // Nothing was asked: the list goes back to what it was (a regenerated answer stays).
      setMessages(before);
      return { ok: false, message: end.message };
    }
    if (end.kind === "aborted") patch((m) => (m.status === 0 ? { ...m, status: 2, updated_at: Date.now() } : m));
    else if (!finished) patch((m) => ({ ...m, status: 3, error: m.error || "连接中断，回答未完成", updated_at: Date.now() }));
    void fetchQuota().then((q) => q && setQuota(q));
    return { ok: true };
  }, []);

  /** Stop: drop our reading of the stream and tell the server, which keeps the partial answer. */
  const stop = useCallback(() => {
    const id = streaming.current;
    ctrl.current?.abort();
    if (id > 0) void cancelMessage(id);
  }, []);

  return { messages, setMessages, busy, quota, send, stop };
}
