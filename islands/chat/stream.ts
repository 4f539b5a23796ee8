// The chat's wire: the NDJSON answer stream (fetch + reader, split on "\n"; not EventSource, which
// cannot POST), stop, quota and the answer exports. Shapes follow src/features/ai (MessageView).
import { api } from "../api.ts";
import { toast } from "../toast.ts";
import type { CiteRef } from "./markdown.ts";

export interface ChatMsg {
  id: number; topic_id: number; question: string; answer: string; references: CiteRef[]; status: number; error: string;
  prompt_tokens: number; completion_tokens: number; total_tokens: number; first_token_ms: number; duration_ms: number;
  created_at: number; updated_at: number;
  /** browser only: a stable React key for a message that gets its id while streaming */
  client_key?: number;
}

export interface Quota {
  questions_per_day: number; tokens_per_month: number; questions_used: number; tokens_used: number;
  questions_remaining: number; tokens_remaining: number;
}

export interface ScopeDoc { id: number; uuid: string; title: string; pages: number; ext: string }

export type StreamEvent =
  | { type: "reference"; message_id: number; document: CiteRef[] }
  | { type: "delta"; content: string }
  | { type: "done"; message_id: number; status: number; usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number }; first_token_ms?: number; duration_ms?: number }
  | { type: "error"; message: string; message_id?: number };

/** How a stream call ended: refused before it began (HTTP error), aborted by the user, or read to the end. */
export type StreamEnd = { kind: "refused"; status: number; message: string } | { kind: "aborted" } | { kind: "ended" };

export async function streamChat(body: { topic_id: number; content: string; replace_id?: number }, onEvent: (e: StreamEvent) => void, signal: AbortSignal): Promise<StreamEnd> {
  let res: Response;
  try {
    res = await fetch("/api/v1/chat/stream", {
      method: "POST", credentials: "same-origin", signal,
      headers: { "Content-Type": "application/json", Accept: "application/x-ndjson" },
      body: JSON.stringify(body),
    });
  } catch (err) {
    if ((err as Error).name === "AbortError") return { kind: "aborted" };
    return { kind: "refused", status: 0, message: "网络错误，请检查网络连接" };
  }
  if (!res.ok) {
    const text = await res.text().catch(() => "");
    let message = "";
    try {
      message = JSON.parse(text).message ?? "";
    } catch {}
    return { kind: "refused", status: res.status, message: message || [res.status, res.statusText, text].filter(Boolean).join(" ") || "发送失败" };
  }
  if (!res.body) return { kind: "refused", status: res.status, message: "没有收到回答内容，请检查接口地址是否正确" };
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buf = "";
  const emit = (line: string) => {
    if (!line.trim()) return;
    try {
      onEvent(JSON.parse(line) as StreamEvent);
    } catch {}
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buf += decoder.decode(value, { stream: true });
      let nl: number;
      while ((nl = buf.indexOf("\n")) >= 0) {
        emit(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
      }
    }
    emit(buf + decoder.decode());
    return { kind: "ended" };
  } catch (err) {
    if (signal.aborted || (err as Error).name === "AbortError") return { kind: "aborted" };
    return { kind: "ended" };
  }
}

/** The server keeps the partial answer with status 已停止. */
export const cancelMessage = (id: number) => api("PUT", "/chat/message/cancel", { body: { id } });

export async function fetchQuota(): Promise<Quota | null> {
  const r = await api<Quota>("GET", "/user/ai/quota");
  return r.ok && r.data ? r.data : null;
}

/** "今日剩余 N 次" (-1 = unlimited). */
export function quotaText(q: Quota | null): string {
  if (!q) return "";
  const n = q.questions_remaining;
  return n < 0 ? "今日提问不限次数" : `今日剩余 ${Math.max(0, n)} 次`;
}

function fileName(res: Response, fallback: string): string {
  const cd = res.headers.get("content-disposition") ?? "";
  const star = /filename\*=UTF-8''([^;]+)/i.exec(cd);
  if (star) {
    try {
      return decodeURIComponent(star[1]!.trim());
    } catch {}
  }
  return /filename="?([^";]+)"?/i.exec(cd)?.[1] ?? fallback;
}

/** POST /markdown2docx or /markdown2image → a download; toasts as spec §8 says. */
export async function exportAnswer(kind: "docx" | "image", messageId: number): Promise<void> {
  const failed = kind === "docx" ? "导出失败" : "导出图片失败";
  try {
    const res = await fetch(`/api/v1/${kind === "docx" ? "markdown2docx" : "markdown2image"}`, {
      method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ message_id: messageId }),
    });
    if (!res.ok) {
      const data = await res.json().catch(() => null) as { message?: string } | null;
      return toast(data?.message || failed, "error");
    }
    const blob = await res.blob();
    const url = URL.createObjectURL(blob);
    const a = document.createElement("a");
    a.href = url;
    a.download = fileName(res, `AI回答-${messageId}.${kind === "docx" ? "docx" : "png"}`);
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    toast("导出成功", "success");
  } catch {
    toast(failed, "error");
  }
}
