import { getSqlite } from "#db/client.ts";
import { notFound } from "#src/lib/errors.ts";
import { parseReferences } from "../messages.ts";
import { MSG_STATUS, MSG_STATUS_LABEL, TOPIC_CATEGORY_LABEL, type Reference } from "../status.ts";

// The AI 对话记录 back office: every user's messages with filters, deletion and daily usage.

const DAY = 86_400_000;
const SHANGHAI = 8 * 3_600_000; // UTC+8 all year
/** Characters of question and answer in list rows; the detail answers the full text. */
export const CUT = 80;

export interface MessageFilter {
  page: number;
  size: number;
  /** a username, or a user id when all digits */
  user?: string;
  status?: number;
  /** ms bounds, inclusive */
  start?: number;
  end?: number;
  min_tokens?: number;
  /** words in the question */
  wd?: string;
  topic_id?: number;
}

export interface AdminMessageRow {
  id: number; topic_id: number; topic_uuid: string; topic_title: string; user_id: number; username: string;
  question: string; answer: string; status: number; status_label: string; error: string;
  total_tokens: number; prompt_tokens: number; completion_tokens: number; usage_estimated: boolean;
  first_token_ms: number; duration_ms: number; ref_count: number; created_at: number;
}

const like = (s: string) => `%${s.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

function whereOf(f: Omit<MessageFilter, "page" | "size">): { sql: string; args: (string | number)[] } {
  const where: string[] = [];
  const args: (string | number)[] = [];
  const user = f.user?.trim();
  if (user) {
    if (/^\d+$/.test(user)) where.push("(m.user_id = ? OR u.username = ? COLLATE NOCASE)"), args.push(Number(user), user);
    else where.push("u.username = ? COLLATE NOCASE"), args.push(user);
  }
  if (f.status !== undefined) where.push("m.status = ?"), args.push(f.status);
  if (f.start !== undefined) where.push("m.created_at >= ?"), args.push(f.start);
  if (f.end !== undefined) where.push("m.created_at <= ?"), args.push(f.end);
  if (f.min_tokens) where.push("m.total_tokens >= ?"), args.push(f.min_tokens);
  if (f.topic_id) where.push("m.topic_id = ?"), args.push(f.topic_id);
  for (const w of (f.wd ?? "").trim().split(/\s+/).filter(Boolean).slice(0, 5)) where.push("m.question LIKE ? ESCAPE '\\'"), args.push(like(w));
  return { sql: where.length ? `WHERE ${where.join(" AND ")}` : "", args };
}

const FROM = "FROM chat_message m LEFT JOIN \"user\" u ON u.id = m.user_id LEFT JOIN chat_topic t ON t.id = m.topic_id";

type RawRow = Omit<AdminMessageRow, "status_label" | "usage_estimated"> & { usage_estimated: number };
const row = (r: RawRow): AdminMessageRow => ({ ...r, usage_estimated: !!r.usage_estimated, status_label: MSG_STATUS_LABEL[r.status] ?? String(r.status) });

/** GET /chat/message/all: newest first, question and answer cut to CUT characters, with the totals of every match. */
export function listAllMessages(f: MessageFilter): { total: number; message: AdminMessageRow[]; totals: { questions: number; tokens: number } } {
  const db = getSqlite();
  const w = whereOf(f);
  const agg = db.query<{ n: number; tokens: number | null }, (string | number)[]>(`SELECT count(*) AS n, sum(m.total_tokens) AS tokens ${FROM} ${w.sql}`).get(...w.args)!;
  const rows = db.query<RawRow, (string | number)[]>(
    `SELECT m.id, m.topic_id, coalesce(t.uuid, '') AS topic_uuid, coalesce(t.title, '') AS topic_title, m.user_id, coalesce(u.username, '') AS username,
      substr(m.question, 1, ${CUT}) AS question, substr(m.answer, 1, ${CUT}) AS answer, m.status, substr(m.error, 1, 200) AS error,
      m.total_tokens, m.prompt_tokens, m.completion_tokens, m.usage_estimated, m.first_token_ms, m.duration_ms,
      CASE WHEN json_valid(m."references") THEN json_array_length(m."references") ELSE 0 END AS ref_count, m.created_at
    ${FROM} ${w.sql} ORDER BY m.id DESC LIMIT ? OFFSET ?`,
  ).all(...w.args, f.size, (f.page - 1) * f.size);
  return { total: agg.n, message: rows.map(row), totals: { questions: agg.n, tokens: agg.tokens ?? 0 } };
}

export interface MessageDetail extends AdminMessageRow {
  references: Reference[]; search_query: string; provider: string; model: string; topic_category: string;
}

type DetailRaw = Omit<RawRow, "ref_count"> & { references: string; search_query: string; provider: string; model: string; topic_category: number };

function details(where: string, arg: number): MessageDetail[] {
  const rows = getSqlite().query<DetailRaw, [number]>(
    `SELECT m.id, m.topic_id, coalesce(t.uuid, '') AS topic_uuid, coalesce(t.title, '') AS topic_title, coalesce(t.category, 0) AS topic_category,
      m.user_id, coalesce(u.username, '') AS username, m.question, m.answer, m.status, m.error, m.total_tokens, m.prompt_tokens, m.completion_tokens,
      m.usage_estimated, m.first_token_ms, m.duration_ms, m."references", m.search_query, m.provider, m.model, m.created_at
    ${FROM} WHERE ${where}`,
  ).all(arg);
  return rows.map(({ references, topic_category, ...r }) => {
    const refs = parseReferences(references);
    return { ...row({ ...r, ref_count: refs.length }), search_query: r.search_query, provider: r.provider, model: r.model, references: refs, topic_category: TOPIC_CATEGORY_LABEL[topic_category] ?? "" };
  });
}

/** One message in full (the drawer of the 对话记录 screen). */
export function messageDetail(id: number): MessageDetail {
  const r = details("m.id = ?", id)[0];
  if (!r) throw notFound("对话记录不存在或已被删除");
  return r;
}

/** Deletes messages and keeps each topic's message_count true, in one transaction; answers how many went. */
export function deleteMessages(ids: number[]): number {
  if (!ids.length) return 0;
  const db = getSqlite();
  const marks = ids.map(() => "?").join(",");
  return db.transaction(() => {
    const topics = db.query<{ topic_id: number }, number[]>(`SELECT DISTINCT topic_id FROM chat_message WHERE id IN (${marks})`).all(...ids).map((r) => r.topic_id);
    const n = db.query(`DELETE FROM chat_message WHERE id IN (${marks})`).run(...ids).changes;
    const recount = db.query("UPDATE chat_topic SET message_count = (SELECT count(*) FROM chat_message WHERE topic_id = chat_topic.id) WHERE id = ?");
    for (const t of topics) recount.run(t);
    return n;
  }).immediate();
}

/** Deletes whole topics of any user (messages and document scope go by cascade); answers how many. */
export function deleteTopicsAdmin(ids: number[]): number {
  if (!ids.length) return 0;
  return getSqlite().query(`DELETE FROM chat_topic WHERE id IN (${ids.map(() => "?").join(",")})`).run(...ids).changes;
}

export interface TopicHead { id: number; uuid: string; title: string; category: string; user_id: number; username: string; message_count: number; created_at: number; updated_at: number }

export function topicHead(id: number): TopicHead {
  const t = getSqlite().query<Omit<TopicHead, "category"> & { category: number }, [number]>(
    `SELECT t.id, t.uuid, t.title, t.category, t.user_id, coalesce(u.username, '') AS username, t.message_count, t.created_at, t.updated_at
    FROM chat_topic t LEFT JOIN "user" u ON u.id = t.user_id WHERE t.id = ?`,
  ).get(id);
  if (!t) throw notFound("会话不存在或已被删除");
  return { ...t, category: TOPIC_CATEGORY_LABEL[t.category] ?? "" };
}

/** A topic's messages in full, oldest first (the read-only topic view; the first 500). */
export const topicMessages = (id: number): MessageDetail[] => details("m.topic_id = ? ORDER BY m.id LIMIT 500", id);

export interface UsageDay { day: string; questions: number; tokens: number; users: number }

/**
 * Per Asia/Shanghai day for the last `days` days (today included): questions asked (refused ones
 * excluded: they never reached the model), tokens used and distinct users.
 */
export function chatStats(days = 14, now = Date.now()): UsageDay[] {
  const today = Math.floor((now + SHANGHAI) / DAY);
  const first = today - days + 1;
  const rows = getSqlite().query<{ d: number; q: number; tk: number | null; u: number }, [number, number, number]>(
    `SELECT CAST((created_at + ?1) / ?2 AS INTEGER) AS d, count(*) AS q, sum(total_tokens) AS tk, count(DISTINCT user_id) AS u
    FROM chat_message WHERE created_at >= ?3 AND status <> ${MSG_STATUS.refused} GROUP BY d`,
  ).all(SHANGHAI, DAY, first * DAY - SHANGHAI);
  const by = new Map(rows.map((r) => [r.d, r]));
  return Array.from({ length: days }, (_, i) => {
    const d = first + i;
    const r = by.get(d);
    return { day: new Date(d * DAY).toISOString().slice(0, 10), questions: r?.q ?? 0, tokens: r?.tk ?? 0, users: r?.u ?? 0 };
  });
}

/** "2024-05-01" as the first (or last) millisecond of that Asia/Shanghai day; null if no such date. */
export function shanghaiDay(v: string, endOfDay: boolean): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  const t = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) - SHANGHAI : NaN;
  if (!Number.isFinite(t) || new Date(t + SHANGHAI).toISOString().slice(0, 10) !== v) return null;
  return endOfDay ? t + DAY - 1 : t;
}
