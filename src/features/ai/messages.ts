import { getSqlite } from "#db/client.ts";
import { MSG_STATUS, type Reference } from "./status.ts";

// Chat messages as the API and pages show them: one question and its answer per row.

export interface MessageView {
  id: number; topic_id: number; question: string; answer: string; references: Reference[]; status: number; error: string;
  prompt_tokens: number; completion_tokens: number; total_tokens: number; first_token_ms: number; duration_ms: number;
  created_at: number; updated_at: number;
}

const COLS = `id, topic_id, question, answer, "references", status, error, prompt_tokens, completion_tokens, total_tokens, first_token_ms, duration_ms, created_at, updated_at`;
type Row = Omit<MessageView, "references"> & { references: string };

export function parseReferences(raw: string): Reference[] {
  try {
    const v = JSON.parse(raw);
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

const view = (r: Row): MessageView => ({ ...r, references: parseReferences(r.references) });

/** A topic's messages, oldest first; `page` counts from the newest (page 1 = the latest `size`). */
export function listMessages(topicId: number, opts: { page?: number; size?: number } = {}): { total: number; message: MessageView[] } {
  const db = getSqlite();
  const size = Math.min(200, Math.max(1, opts.size ?? 50));
  const page = Math.max(1, opts.page ?? 1);
  const total = db.query<{ n: number }, [number]>("SELECT count(*) AS n FROM chat_message WHERE topic_id = ?").get(topicId)!.n;
  const rows = db.query<Row, [number, number, number]>(`SELECT ${COLS} FROM chat_message WHERE topic_id = ? ORDER BY id DESC LIMIT ? OFFSET ?`)
    .all(topicId, size, (page - 1) * size);
  return { total, message: rows.reverse().map(view) };
}

export const messageById = (id: number) => {
  const r = getSqlite().query<Row & { user_id: number }, [number]>(`SELECT ${COLS}, user_id FROM chat_message WHERE id = ?`).get(id);
  return r ? { ...view(r), user_id: r.user_id } : undefined;
};

/** Earlier finished turns of a topic (newest last), for follow-up questions and the prompt's history. */
export function recentTurns(topicId: number, limit: number): { question: string; answer: string; search_query: string }[] {
  if (limit <= 0) return [];
  return getSqlite().query<{ question: string; answer: string; search_query: string }, [number, number]>(
    `SELECT question, answer, search_query FROM chat_message WHERE topic_id = ? AND status IN (${MSG_STATUS.done}, ${MSG_STATUS.stopped}) ORDER BY id DESC LIMIT ?`,
  ).all(topicId, limit).reverse();
}
