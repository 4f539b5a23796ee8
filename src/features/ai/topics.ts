import { getSqlite } from "#db/client.ts";
import { DOC_STATUS } from "#src/features/documents/status.ts";
import { badRequest, notFound } from "#src/lib/errors.ts";
import { TOPIC_CATEGORY } from "./status.ts";

// Chat topics: a user's conversations (AI 对话 or AI 搜索), each optionally scoped to documents.

export interface TopicRow {
  id: number; uuid: string; user_id: number; category: number; title: string; message_count: number; created_at: number; updated_at: number;
}
export type TopicView = Omit<TopicRow, "user_id"> & { user_id: number };
export interface Viewer { id: number; is_root: boolean }

/** At most this many documents in one topic's scope. */
export const MAX_SCOPE = 20;
const COLS = "id, uuid, user_id, category, title, message_count, created_at, updated_at";

export const topicById = (id: number) => getSqlite().query<TopicRow, [number]>(`SELECT ${COLS} FROM chat_topic WHERE id = ?`).get(id) ?? undefined;
export const topicByUuid = (uuid: string) =>
  /^[0-9a-f]{32}$/.test(uuid) ? getSqlite().query<TopicRow, [string]>(`SELECT ${COLS} FROM chat_topic WHERE uuid = ?`).get(uuid) ?? undefined : undefined;

/** The topic when the viewer owns it (or is the root administrator); 404 otherwise, so ids of others' topics reveal nothing. */
export function ownTopic(viewer: Viewer, ref: { id?: number; uuid?: string }): TopicRow {
  const t = ref.id ? topicById(ref.id) : ref.uuid ? topicByUuid(ref.uuid) : undefined;
  if (!t || (t.user_id !== viewer.id && !viewer.is_root)) throw notFound("会话不存在或已被删除");
  return t;
}

/** Documents visible to visitors among these ids (converted, not deleted), in the order given. */
function visibleDocumentIds(ids: number[]): number[] {
  if (!ids.length) return [];
  const rows = getSqlite().query<{ id: number }, number[]>(
    `SELECT id FROM document WHERE id IN (${ids.map(() => "?").join(",")}) AND status = ${DOC_STATUS.converted} AND deleted_at IS NULL`,
  ).all(...ids);
  const ok = new Set(rows.map((r) => r.id));
  return ids.filter((id) => ok.has(id));
}

export function createTopic(userId: number, input: { category: number; document_id?: number[]; title?: string }): { id: number; uuid: string } {
  const docs = [...new Set(input.document_id ?? [])];
  if (docs.length > MAX_SCOPE) throw badRequest(`一个会话最多关联 ${MAX_SCOPE} 篇文档`);
  const visible = visibleDocumentIds(docs);
  if (visible.length !== docs.length) throw notFound("文档不存在或已被删除");
  const db = getSqlite();
  const uuid = crypto.randomUUID().replaceAll("-", "");
  let title = (input.title ?? "").trim().slice(0, 100);
  if (!title && visible.length === 1) title = (db.query<{ title: string }, [number]>("SELECT title FROM document WHERE id = ?").get(visible[0]!)?.title ?? "").slice(0, 100);
  return db.transaction(() => {
    const row = db.query<{ id: number }, [string, number, number, string]>("INSERT INTO chat_topic (uuid, user_id, category, title) VALUES (?, ?, ?, ?) RETURNING id")
      .get(uuid, userId, input.category === TOPIC_CATEGORY.search ? TOPIC_CATEGORY.search : TOPIC_CATEGORY.dialog, title)!;
    const add = db.query("INSERT INTO chat_topic_document (topic_id, document_id) VALUES (?, ?)");
    for (const d of visible) add.run(row.id, d);
    return { id: row.id, uuid };
  }).immediate();
}

export function renameTopic(viewer: Viewer, id: number, title: string) {
  const t = ownTopic(viewer, { id });
  const clean = title.trim().slice(0, 100);
  if (!clean) throw badRequest("请输入会话标题");
  getSqlite().query("UPDATE chat_topic SET title = ?, updated_at = ? WHERE id = ?").run(clean, Date.now(), t.id);
}

/** Deletes the viewer's topics among `ids` (messages and scope go with them); answers how many. */
export function deleteTopics(viewer: Viewer, ids: number[]): number {
  if (!ids.length) return 0;
  const db = getSqlite();
  const owner = viewer.is_root ? "" : " AND user_id = ?";
  const args: number[] = viewer.is_root ? ids : [...ids, viewer.id];
  return db.query(`DELETE FROM chat_topic WHERE id IN (${ids.map(() => "?").join(",")})${owner}`).run(...args).changes;
}

export function listTopics(userId: number, opts: { category?: number; page: number; size: number; wd?: string }): { total: number; topic: TopicView[] } {
  const where = ["user_id = ?"];
  const args: (string | number)[] = [userId];
  if (opts.category) {
    where.push("category = ?");
    args.push(opts.category);
  }
  const wd = opts.wd?.trim();
  if (wd) {
    where.push("title LIKE ? ESCAPE '\\'");
    args.push(`%${wd.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`);
  }
  const size = Math.min(100, Math.max(1, opts.size));
  const page = Math.max(1, opts.page);
  const db = getSqlite();
  const total = db.query<{ n: number }, (string | number)[]>(`SELECT count(*) AS n FROM chat_topic WHERE ${where.join(" AND ")}`).get(...args)!.n;
  const topic = db.query<TopicView, (string | number)[]>(`SELECT ${COLS} FROM chat_topic WHERE ${where.join(" AND ")} ORDER BY updated_at DESC, id DESC LIMIT ? OFFSET ?`)
    .all(...args, size, (page - 1) * size);
  return { total, topic };
}

export interface ScopeDocument { id: number; uuid: string; title: string; pages: number; ext: string }

/** The documents a topic is scoped to that still exist (an empty list: the whole library). */
export const topicDocuments = (topicId: number): ScopeDocument[] =>
  getSqlite().query<ScopeDocument, [number]>(`SELECT d.id, d.uuid, d.title, d.pages, d.ext FROM chat_topic_document td JOIN document d ON d.id = td.document_id
    WHERE td.topic_id = ? AND d.deleted_at IS NULL ORDER BY d.title`).all(topicId);

export const topicScopeIds = (topicId: number): number[] =>
  getSqlite().query<{ document_id: number }, [number]>("SELECT document_id FROM chat_topic_document WHERE topic_id = ?").all(topicId).map((r) => r.document_id);

export function removeTopicDocument(viewer: Viewer, topicId: number, documentId: number) {
  const t = ownTopic(viewer, { id: topicId });
  const n = getSqlite().query("DELETE FROM chat_topic_document WHERE topic_id = ? AND document_id = ?").run(t.id, documentId).changes;
  if (!n) throw notFound("该文档不在会话的范围内");
}
