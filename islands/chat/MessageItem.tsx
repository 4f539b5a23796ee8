// One turn of a conversation: the question, the answer as sanitised markdown with [n] citation
// links, the cited pages, and the answer's tools (copy, regenerate, stop, export) and figures.
import { useMemo } from "react";
import { timeAgo } from "#src/lib/format.ts";
import { toast } from "../toast.ts";
import { refHref, refLabel, renderMarkdown, type MathRenderer } from "./markdown.ts";
import { exportAnswer, type ChatMsg } from "./stream.ts";

// Same labels as src/features/ai/status.ts (not imported: islands stay free of server modules).
const STATUS_LABEL: Record<number, string> = { 0: "生成中", 1: "已完成", 2: "已停止", 3: "失败", 4: "超出额度" };

export interface MessageActions {
  /** hydrated: until then every tool is disabled */
  ready: boolean;
  busy: boolean;
  onRegenerate?: (m: ChatMsg) => void;
  onStop?: () => void;
}

async function copy(text: string) {
  try {
    await navigator.clipboard.writeText(text);
    toast("已复制", "success");
  } catch {
    toast("复制失败，请手动选择文字复制", "error");
  }
}

export function References({ refs }: { refs: ChatMsg["references"] }) {
  if (!refs.length) return null;
  return (
    <div className="chat-refs">
      <h3 className="chat-refs-title">参考文档</h3>
      <ol>
        {refs.map((r, i) => (
          <li key={`${r.uuid}-${r.page}-${i}`}>
            <a href={refHref(r)} title={refLabel(r)}>
              <span className="chat-ref-no">{i + 1}</span>
              <span className="chat-ref-title">{`《${r.title}》`}</span>
              <span className="chat-ref-page">{`第 ${r.page} 页`}</span>
            </a>
          </li>
        ))}
      </ol>
    </div>
  );
}

export function MessageItem({ m, math, now, actions }: { m: ChatMsg; math?: MathRenderer; now: number; actions: MessageActions }) {
  const html = useMemo(() => renderMarkdown(m.answer, m.references, math), [m.answer, m.references, math]);
  const generating = m.status === 0;
  const saved = m.id > 0 && !generating;
  const canExport = actions.ready && saved && !!m.answer && (m.status === 1 || m.status === 2);
  return (
    <article className="chat-turn" data-message-id={m.id > 0 ? m.id : undefined} data-status={m.status}>
      <div className="chat-q">
        <p className="chat-q-text">{m.question}</p>
      </div>
      <div className="chat-a">
        <span className="chat-a-avatar" aria-hidden="true">AI</span>
        <div className="chat-a-body">
          <div className="chat-md" aria-live="polite" aria-busy={generating} dangerouslySetInnerHTML={{ __html: html }} />
          {generating && !m.answer ? <p className="chat-thinking">正在检索文档并组织回答…</p> : null}
          {m.status >= 2 ? (
            <p className={`chat-status chat-status-${m.status}`} role={m.status === 3 ? "alert" : undefined}>
              <span className="chat-status-label">{STATUS_LABEL[m.status]}</span>
              {m.status !== 2 && m.error ? <span className="chat-status-error">{m.error}</span> : null}
            </p>
          ) : null}
          <References refs={m.references} />
          <div className="chat-a-foot">
            <span className="chat-meta">
              <time dateTime={new Date(m.created_at).toISOString()}>{timeAgo(m.created_at, now)}</time>
              {m.total_tokens > 0 ? <span title="提示 tokens / 回答 tokens / 合计 tokens">{`${m.prompt_tokens} / ${m.completion_tokens} / ${m.total_tokens} tokens`}</span> : null}
              {m.first_token_ms > 0 ? <span title="首字用时 / 总用时">{`${(m.first_token_ms / 1000).toFixed(1)}s / ${(m.duration_ms / 1000).toFixed(1)}s`}</span> : null}
            </span>
            <span className="chat-tools">
              {generating ? (
                <button type="button" className="chat-tool chat-tool-stop" onClick={actions.onStop} disabled={!actions.ready || !actions.onStop}>停止</button>
              ) : (
                <>
                  <button type="button" className="chat-tool" onClick={() => void copy(m.answer)} disabled={!actions.ready || !m.answer}>复制</button>
                  {actions.onRegenerate ? (
                    <button type="button" className="chat-tool" onClick={() => actions.onRegenerate!(m)} disabled={!actions.ready || actions.busy || !saved}>重新生成</button>
                  ) : null}
                  <button type="button" className="chat-tool" onClick={() => void exportAnswer("docx", m.id)} disabled={!canExport}>导出 Word</button>
                  <button type="button" className="chat-tool" onClick={() => void exportAnswer("image", m.id)} disabled={!canExport}>导出图片</button>
                </>
              )}
            </span>
          </div>
        </div>
      </div>
    </article>
  );
}
