// Pieces of the AI 对话记录 screens (no default export: not an island itself). MessageView also
// renders on the server for the read-only topic page.
import { formatDateTime } from "#src/lib/format.ts";

export interface ChatRef { title: string; uuid: string; page: number; score: number }
export interface ChatRow {
  id: number; topic_id: number; topic_uuid: string; topic_title: string; user_id: number; username: string;
  question: string; answer: string; status: number; status_label: string; error: string;
  total_tokens: number; prompt_tokens: number; completion_tokens: number; usage_estimated: boolean;
  first_token_ms: number; duration_ms: number; ref_count: number; created_at: number;
}
export interface ChatDetail extends ChatRow { references: ChatRef[]; search_query: string; provider: string; model: string; topic_category: string }

const TONE: Record<number, string> = { 0: "adm-tag", 1: "adm-tag adm-tag-ok", 2: "adm-tag adm-tag-warn", 3: "adm-tag adm-tag-bad", 4: "adm-tag adm-tag-bad" };
export const StatusTag = ({ row }: { row: Pick<ChatRow, "status" | "status_label" | "error"> }) =>
  <span className={TONE[row.status] ?? "adm-tag"} title={row.error || undefined}>{row.status_label}</span>;

export const topicHref = (topicId: number) => `/admin/ai/chat/topic/${topicId}`;
export const userLink = (r: Pick<ChatRow, "user_id" | "username">) =>
  <a href={`/user/${r.user_id}`} target="_blank" rel="noopener noreferrer">{r.username || `#${r.user_id}`}</a>;
export const ms = (n: number) => (n ? `${n.toLocaleString("zh-CN")} ms` : "—");

/** Long text kept as typed: React escapes it; line breaks and spaces stay. */
const Text = ({ children }: { children: string }) => <div style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere", maxHeight: 480, overflow: "auto" }}>{children}</div>;

/** One question and its answer in full, with usage, references and the error. */
export function MessageView({ m, showTopic = true }: { m: ChatDetail; showTopic?: boolean }) {
  const tokens = `${m.total_tokens.toLocaleString("zh-CN")}（提问 ${m.prompt_tokens.toLocaleString("zh-CN")} + 回答 ${m.completion_tokens.toLocaleString("zh-CN")}）${m.usage_estimated ? " · 估算" : ""}`;
  return (
    <dl className="adm-kv">
      <div><dt>时间</dt><dd>{formatDateTime(m.created_at)}</dd></div>
      <div><dt>用户</dt><dd>{userLink(m)}</dd></div>
      {showTopic ? <div><dt>会话</dt><dd><a href={topicHref(m.topic_id)}>{m.topic_title || "未命名会话"}</a>{m.topic_category ? <span className="adm-muted">{` · ${m.topic_category}`}</span> : null}</dd></div> : null}
      <div><dt>状态</dt><dd><StatusTag row={m} /></dd></div>
      <div><dt>模型</dt><dd>{m.model ? `${m.model}${m.provider ? `（${m.provider}）` : ""}` : <span className="adm-muted">—</span>}</dd></div>
      <div><dt>Tokens</dt><dd>{tokens}</dd></div>
      <div><dt>耗时</dt><dd>{`首字 ${ms(m.first_token_ms)} · 总计 ${ms(m.duration_ms)}`}</dd></div>
      <div><dt>问题</dt><dd><Text>{m.question}</Text></dd></div>
      {m.search_query && m.search_query !== m.question ? <div><dt>检索词</dt><dd>{m.search_query}</dd></div> : null}
      <div><dt>回答</dt><dd>{m.answer ? <Text>{m.answer}</Text> : <span className="adm-muted">（无）</span>}</dd></div>
      <div>
        <dt>{`引用（${m.references.length}）`}</dt>
        <dd>
          {m.references.length ? (
            <ol style={{ margin: 0, padding: 0, listStyle: "none" }}>
              {m.references.map((r, i) => (
                <li key={i}><span className="adm-muted">{`[${i + 1}] `}</span><a href={`/document/${encodeURIComponent(r.uuid)}?page=${r.page}`} target="_blank" rel="noopener noreferrer">{r.title || r.uuid}</a><span className="adm-muted">{` · 第 ${r.page} 页 · 相关度 ${Number(r.score).toFixed(3)}`}</span></li>
              ))}
            </ol>
          ) : <span className="adm-muted">无</span>}
        </dd>
      </div>
      {m.error ? <div><dt>错误</dt><dd style={{ color: "var(--adm-danger)" }}>{m.error}</dd></div> : null}
    </dl>
  );
}

const DAY = 86_400_000;
/** Today in Asia/Shanghai as YYYY-MM-DD, minus `back` days. */
export const shanghaiDate = (back = 0) => new Date(Date.now() + 8 * 3_600_000 - back * DAY).toISOString().slice(0, 10);

/** Quick date ranges (spec §9): day, week, month, three months, half a year, a year. */
export const QUICK_RANGES = [
  { label: "今天", days: 1 }, { label: "近一周", days: 7 }, { label: "近一月", days: 30 },
  { label: "近三月", days: 90 }, { label: "近半年", days: 182 }, { label: "近一年", days: 365 },
];
