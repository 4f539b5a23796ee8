// The question box: Enter sends, Shift+Enter starts a new line (not while an IME is composing),
// a counter against the length limit, the quota line, and 停止生成 while an answer streams.
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { quotaText, type Quota } from "./stream.ts";

export interface ComposerProps {
  /** returns false when the question was not taken (the text then stays in the box) */
  onSend: (text: string) => Promise<boolean> | boolean;
  onStop?: () => void;
  busy: boolean;
  ready: boolean;
  enabled: boolean;
  maxLength: number;
  quota: Quota | null;
  placeholder?: string;
  big?: boolean;
  initial?: string;
}

export function Composer({ onSend, onStop, busy, ready, enabled, maxLength, quota, placeholder, big, initial = "" }: ComposerProps) {
  const [text, setText] = useState(initial);
  const [sending, setSending] = useState(false);
  const id = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  // The box is disabled while an answer streams; give the focus back when it is done.
  const wasBusy = useRef(busy);
  useEffect(() => {
    if (wasBusy.current && !busy && enabled && document.activeElement === document.body) box.current?.focus();
    wasBusy.current = busy;
  }, [busy, enabled]);
  const len = [...text].length;
  const over = len > maxLength;
  const canSend = ready && enabled && !busy && !sending && !!text.trim() && !over;

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (!canSend) return;
    setSending(true);
    const q = text.trim();
    setText("");
    const ok = await onSend(q);
    setSending(false);
    if (ok === false) setText(q);
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing && e.keyCode !== 229) {
      e.preventDefault();
      void submit();
    }
  };
  return (
    <form className={big ? "chat-composer chat-composer-big" : "chat-composer"} onSubmit={(e) => void submit(e)} method="get">
      <label htmlFor={id} className="chat-sr-only">输入你的问题</label>
      <textarea
        ref={box} id={id} name="q" value={text} rows={big ? 4 : 2} disabled={!enabled || busy}
        placeholder={enabled ? placeholder ?? "输入你的问题，Enter 发送，Shift+Enter 换行" : "AI 助手尚未开启"}
        onChange={(e) => setText(e.target.value)} onKeyDown={onKey} aria-invalid={over || undefined} aria-describedby={`${id}-count`}
      />
      <div className="chat-composer-bar">
        <span className="chat-quota">{quotaText(quota)}</span>
        <span id={`${id}-count`} className={over ? "chat-count over" : "chat-count"}>
          {over ? `已超出 ${len - maxLength} 字（最多 ${maxLength} 字）` : `${len} / ${maxLength}`}
        </span>
        {busy && onStop ? (
          <button type="button" className="btn chat-send chat-stop" onClick={onStop} disabled={!ready}>停止生成</button>
        ) : (
          <button type="submit" className="btn btn-primary chat-send" disabled={!canSend}>{sending || busy ? "发送中…" : "发送"}</button>
        )}
      </div>
    </form>
  );
}
