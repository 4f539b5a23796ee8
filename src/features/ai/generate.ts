import { getSqlite } from "#db/client.ts";
import { setting } from "#src/features/settings/service.ts";
import { log } from "#src/http/requestLog.ts";
import { AppError, badRequest, conflict, tooManyRequests } from "#src/lib/errors.ts";
import { isAbort, llmConfig, LlmError, streamChat, type Usage } from "./llm/client.ts";
import { recentTurns } from "./messages.ts";
import { buildPrompt } from "./prompt.ts";
import { quotaOf, quotaRefusal } from "./quota.ts";
import { standaloneQuery } from "./query.ts";
import { retrieve } from "./retrieve.ts";
import { MSG_STATUS, type Reference } from "./status.ts";
import { estimateTokens } from "./tokens.ts";
import { topicScopeIds, type TopicRow } from "./topics.ts";

// One answer: checks before any model call (enabled, question, one at a time, quota), the
// message row, retrieval, the prompt, the upstream stream, and the row's final state. The caller
// (NDJSON stream or plain JSON) only forwards events. A stop from anywhere (the browser going
// away, PUT /chat/message/cancel) aborts the same controller, which aborts the upstream fetch.

export type AnswerEvent =
  | { type: "reference"; message_id: number; document: Reference[] }
  | { type: "delta"; content: string }
  | { type: "done"; message_id: number; status: number; usage: Usage & { estimated: boolean }; first_token_ms: number; duration_ms: number }
  | { type: "error"; message_id: number; status: number; message: string };

interface Running { userId: number; ctrl: AbortController }
/** Answers being written, by message id; at most one per user. */
const running = new Map<number, Running>();
const busyUsers = new Map<number, number>();

export class StopRequested extends Error {
  constructor() {
    super("stopped");
    this.name = "AbortError";
  }
}

/** Stops an answer being written; false when it is not running (already finished, or not the user's). */
export function cancelAnswer(messageId: number, userId: number, isRoot = false): boolean {
  const r = running.get(messageId);
  if (!r || (r.userId !== userId && !isRoot)) return false;
  r.ctrl.abort(new StopRequested());
  return true;
}

export const llmEnabled = () => !!setting<boolean>("llm", "enable");

export interface Asked { topic: TopicRow; userId: number; content: string; replaceId?: number }

/**
 * Everything that can refuse a question, before the stream starts (plain HTTP errors): then the
 * message row exists with status generating and the references are known. Resolves to a function
 * that writes the answer, calling `emit` for each event, and resolves when the row is final.
 */
export async function startAnswer(a: Asked, signal: AbortSignal): Promise<{ messageId: number; run: (emit: (e: AnswerEvent) => void) => Promise<void> }> {
  if (!llmEnabled()) throw new AppError(503, "llm_disabled", "AI 助手尚未开启，请联系管理员");
  const content = a.content.trim();
  const max = Math.floor(Number(setting("llm", "max_question_length")) || 2000);
  if (!content) throw badRequest("请输入问题");
  if ([...content].length > max) throw badRequest(`问题太长了，最多 ${max} 字`);
  if (busyUsers.has(a.userId)) throw conflict("上一个回答还在生成中，请等它完成或先停止");
  const db = getSqlite();
  if (a.replaceId) {
    const old = db.query<{ status: number }, [number, number]>("SELECT status FROM chat_message WHERE id = ? AND topic_id = ?").get(a.replaceId, a.topic.id);
    if (!old) throw badRequest("要重新生成的回答不存在");
  }
  const quota = quotaOf(a.userId);
  const refusal = quotaRefusal(quota);
  if (refusal) {
    // Kept for the admin's records (status refused); it counts against nothing.
    db.query("INSERT INTO chat_message (topic_id, user_id, question, status, error) VALUES (?, ?, ?, ?, ?)").run(a.topic.id, a.userId, content, MSG_STATUS.refused, refusal);
    throw tooManyRequests(refusal);
  }
  const started = performance.now();
  const cfg = llmConfig();
  const history = recentTurns(a.topic.id, Math.floor(Number(setting("llm", "history_turns")) || 0));
  const query = standaloneQuery(content, history.map((h) => h.question));
  const scope = topicScopeIds(a.topic.id);
  // Retrieval may wait on an embedding provider: the user counts as busy from here, so a second
  // question sent meanwhile is refused like one sent while the answer streams.
  busyUsers.set(a.userId, 0);
  let prompt: ReturnType<typeof buildPrompt>;
  let references: Reference[];
  let messageId: number;
  try {
    const pages = await retrieve(query, { userId: a.userId, documentIds: scope, limit: Math.floor(Number(setting("llm", "top_k")) || 6), signal });
    prompt = buildPrompt({
      systemPrompt: String(setting("llm", "system_prompt") || ""), sitename: String(setting("system", "sitename") || ""),
      question: content, pages, history, budget: Math.floor(Number(setting("llm", "context_tokens")) || 6000), words: query.split(/\s+/),
    });
    references = prompt.used.map((p) => ({ title: p.title, uuid: p.uuid, page: p.page, score: p.score }));
    messageId = db.transaction(() => {
      if (a.replaceId) db.query("DELETE FROM chat_message WHERE id = ?").run(a.replaceId);
      const row = db.query<{ id: number }, [number, number, string, string, string, string, string]>(
        `INSERT INTO chat_message (topic_id, user_id, question, search_query, "references", provider, model) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      ).get(a.topic.id, a.userId, content, query, JSON.stringify(references), cfg.provider, cfg.model)!;
      db.query("INSERT INTO ai_usage (user_id, message_id) VALUES (?, ?)").run(a.userId, row.id);
      db.query(`UPDATE chat_topic SET message_count = (SELECT count(*) FROM chat_message WHERE topic_id = ?1), updated_at = ?2,
        title = CASE WHEN title = '' THEN ?3 ELSE title END WHERE id = ?1`).run(a.topic.id, Date.now(), [...content].slice(0, 30).join(""));
      return row.id;
    }).immediate();
  } catch (err) {
    busyUsers.delete(a.userId);
    throw err;
  }
  const ctrl = new AbortController();
  const onAbort = () => ctrl.abort(signal.reason ?? new StopRequested());
  signal.addEventListener("abort", onAbort, { once: true });
  // Gone while retrieval was waiting: the listener above will never fire, so stop now.
  if (signal.aborted) onAbort();
  running.set(messageId, { userId: a.userId, ctrl });
  busyUsers.set(a.userId, messageId);

  async function run(emit: (e: AnswerEvent) => void) {
    let answer = "";
    let first = 0;
    let status: number = MSG_STATUS.done;
    let error = "";
    let usage: Usage | null = null;
    try {
      emit({ type: "reference", message_id: messageId, document: references });
      usage = await streamChat(cfg, prompt.messages, {
        onDelta(text) {
          if (!first) first = performance.now();
          answer += text;
          emit({ type: "delta", content: text });
        },
      }, ctrl.signal);
    } catch (err) {
      if (ctrl.signal.aborted || isAbort(err)) status = MSG_STATUS.stopped;
      else {
        status = MSG_STATUS.failed;
        error = err instanceof LlmError ? err.message : "生成回答时出错，请稍后再试";
        if (!(err instanceof LlmError)) log("error", "chat answer failed", { message_id: messageId, error: String((err as Error)?.stack ?? err) });
      }
    } finally {
      signal.removeEventListener("abort", onAbort);
      running.delete(messageId);
      busyUsers.delete(a.userId);
    }
    const estimated = !usage;
    const u = usage ?? {
      prompt_tokens: estimateTokens(prompt.messages.map((m) => m.content).join("\n")),
      completion_tokens: estimateTokens(answer),
      total_tokens: 0,
    };
    if (!u.total_tokens) u.total_tokens = u.prompt_tokens + u.completion_tokens;
    const end = performance.now();
    const firstMs = first ? Math.round(first - started) : 0;
    const durationMs = Math.round(end - started);
    db.transaction(() => {
      db.query(`UPDATE chat_message SET answer = ?, status = ?, error = ?, prompt_tokens = ?, completion_tokens = ?, total_tokens = ?, usage_estimated = ?,
        first_token_ms = ?, duration_ms = ?, updated_at = ? WHERE id = ?`)
        .run(answer, status, error, u.prompt_tokens, u.completion_tokens, u.total_tokens, estimated ? 1 : 0, firstMs, durationMs, Date.now(), messageId);
      db.query("UPDATE ai_usage SET tokens = ?, updated_at = ? WHERE message_id = ?").run(u.total_tokens, Date.now(), messageId);
    })();
    if (status === MSG_STATUS.failed) emit({ type: "error", message_id: messageId, status, message: error });
    else emit({ type: "done", message_id: messageId, status, usage: { ...u, estimated }, first_token_ms: firstMs, duration_ms: durationMs });
  }
  return { messageId, run };
}

/** Answers left "generating" by a process that died are failed at start-up (their text is lost). */
export function failInterruptedAnswers(): number {
  return getSqlite().query("UPDATE chat_message SET status = ?, error = ?, updated_at = ? WHERE status = ?")
    .run(MSG_STATUS.failed, "服务重启，回答中断", Date.now(), MSG_STATUS.generating).changes;
}
