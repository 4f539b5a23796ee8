import { and, count, desc, eq, notInArray, or, sql } from "drizzle-orm";
import { getDb, type Db } from "#db/client.ts";
import { dynamic } from "#db/schema/accounts.ts";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * Activity kinds written to the feed (register is written by createAccount as 1; 4 is an upload,
 * documents/create.ts; 5 publishing an article, articles/service.ts; 6 a comment, comments/service.ts).
 */
export const DYNAMIC_TYPES = { register: 1, sign: 2, avatar: 3, upload: 4, article: 5, comment: 6 } as const;

/** The feed's lines about content; listDynamic shows them to others only while what they name is public. */
export const dynamicLine = {
  upload: (title: string) => `上传了文档《${title}》`,
  article: (title: string) => `发表了文章《${title}》`,
  comment: (kind: "document" | "article", title: string) => `评论了${kind === "article" ? "文章" : "文档"}《${title}》`,
};

/** One line in a user's public activity feed, in the caller's transaction when given. */
export function recordDynamic(userId: number, type: number, content: string, tx?: Tx) {
  (tx ?? getDb()).insert(dynamic).values({ user_id: userId, type, content: content.slice(0, 500) }).run();
}

/**
 * Upload lines name a document's title; others see such a line only while one of the user's
 * documents with that title is public (converted, not deleted), so titles under review, rejected
 * or failed stay private. Matched by the line's text, which createDocuments writes from the title.
 */
const uploadLineVisible = sql`exists (select 1 from document d where d.user_id = ${dynamic.user_id} and d.status = 2 and d.deleted_at is null
  and substr('上传了文档《' || d.title || '》', 1, 500) = ${dynamic.content})`;

// The same for articles: pending, rejected or binned articles stay private (approved is status 1).
const articleLineVisible = sql`exists (select 1 from article a where a.user_id = ${dynamic.user_id} and a.status = 1 and a.deleted_at is null
  and substr('发表了文章《' || a.title || '》', 1, 500) = ${dynamic.content})`;

// A comment line shows while one of the user's comments that others see (status 0) is on a
// public item of that title: comments awaiting review or removed, and hidden items, stay private.
const commentLineVisible = sql`(exists (select 1 from comment c join article a on a.id = c.article_id
    where c.user_id = ${dynamic.user_id} and c.status = 0 and a.status = 1 and a.deleted_at is null
    and substr('评论了文章《' || a.title || '》', 1, 500) = ${dynamic.content})
  or exists (select 1 from comment c join document d on d.id = c.document_id
    where c.user_id = ${dynamic.user_id} and c.status = 0 and d.status = 2 and d.deleted_at is null
    and substr('评论了文档《' || d.title || '》', 1, 500) = ${dynamic.content}))`;

const CONTENT_LINES = [DYNAMIC_TYPES.upload, DYNAMIC_TYPES.article, DYNAMIC_TYPES.comment];

/**
 * A user's feed, newest first. `viewerId` is who is looking: the owner sees every line, anyone
 * else (or an unknown viewer) only lines about public documents, articles and comments.
 */
export function listDynamic(userId: number, page: number, size: number, viewerId: number | null = null) {
  const db = getDb();
  const where = viewerId === userId ? eq(dynamic.user_id, userId) : and(eq(dynamic.user_id, userId), or(
    notInArray(dynamic.type, CONTENT_LINES),
    and(eq(dynamic.type, DYNAMIC_TYPES.upload), uploadLineVisible),
    and(eq(dynamic.type, DYNAMIC_TYPES.article), articleLineVisible),
    and(eq(dynamic.type, DYNAMIC_TYPES.comment), commentLineVisible),
  ));
  const total = db.select({ n: count() }).from(dynamic).where(where).get()!.n;
  const rows = db.select({ id: dynamic.id, user_id: dynamic.user_id, type: dynamic.type, content: dynamic.content, created_at: dynamic.created_at })
    .from(dynamic).where(where).orderBy(desc(dynamic.created_at), desc(dynamic.id))
    .limit(size).offset((page - 1) * size).all();
  return { total, dynamic: rows };
}
export type DynamicRow = ReturnType<typeof listDynamic>["dynamic"][number];
