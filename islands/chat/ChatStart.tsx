// The /chat start screen: a big question box and suggested questions. Asking creates the topic
// (spec §4) and opens /chat/{uuid}?q=…, where the conversation island asks it and drops q.
import { useState } from "react";
import { api } from "../api.ts";
import { toast } from "../toast.ts";
import { Composer } from "./Composer.tsx";
import { useHydrated } from "./hooks.ts";
import type { Quota } from "./stream.ts";

export interface ChatStartProps {
  enabled: boolean;
  maxLength: number;
  quota: Quota | null;
  suggestions: string[];
}

export default function ChatStart(p: ChatStartProps) {
  const ready = useHydrated();
  const [busy, setBusy] = useState(false);

  const start = async (q: string): Promise<boolean> => {
    setBusy(true);
    const r = await api<{ id: number; uuid: string }>("POST", "/chat/topic", { body: { category: 1, title: q.slice(0, 50) } });
    if (!r.ok || !r.data) {
      setBusy(false);
      toast(r.message || "创建会话失败", "error");
      return false;
    }
    location.href = `/chat/${r.data.uuid}?q=${encodeURIComponent(q)}`;
    return true;
  };

  return (
    <div className="chat-start-box">
      <Composer onSend={start} busy={busy} ready={ready} enabled={p.enabled} maxLength={p.maxLength} quota={p.quota} big placeholder="问我任何关于文库文档的问题，Enter 发送，Shift+Enter 换行" />
      {p.suggestions.length ? (
        <div className="chat-suggest">
          <h2 className="chat-suggest-title">试试这样问</h2>
          <ul>
            {p.suggestions.map((s) => (
              <li key={s}>
                <button type="button" className="chat-suggest-item" disabled={!ready || !p.enabled || busy} onClick={() => void start(s)}>{s}</button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
