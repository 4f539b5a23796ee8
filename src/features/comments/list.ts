import { and, asc, count, desc, eq, inArray, isNotNull, isNull, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { getDb } from "#db/client.ts";
import { article } from "#db/schema/articles.ts";
import { comment } from "#db/schema/comments.ts";
import { document } from "#db/schema/documents.ts";
import { user } from "#db/schema/users.ts";
import { createdBetween } from "#src/features/admin/crud/service.ts";
import { DOC_STATUS } from "#src/features/documents/status.ts";
import { COMMENT_STATUS, commentStatusLabel, type CommentSort } from "./status.ts";
import { ARTICLE_STATUS } from "#src/features/articles/policy.ts";
import { articleUrl, documentUrl, visibleTarget, type TargetRef } from "./targets.ts";

/** Replies shown under each top comment before 查看全部回复 loads the rest. */
export const REPLY_PREVIEW = 3;

export interface ListQuery {
  document_id?: number;
  article_id?: number;
  user_id?: number;
  parent_id?: number;
  status?: number;
  type?: "document" | "article";
  wd?: string;
  start?: number;
  end?: number;
  sort: CommentSort;
  page: number;
  size: number;
}

/** Who is asking: moderators see every status; a member also sees their own comments under review. */
export interface Viewer { id: number; moderator: boolean }

const author = alias(user, "author");
const replyTo = alias(user, "reply_to");

const COLUMNS = {
  id: comment.id, user_id: comment.user_id, document_id: comment.document_id, article_id: comment.article_id, parent_id: comment.parent_id,
  reply_user_id: comment.reply_user_id, content: comment.content, status: comment.status, reply_count: comment.reply_count, ip: comment.ip,
  created_at: comment.created_at, username: author.username, avatar: author.avatar, reply_username: replyTo.username,
  doc_title: document.title, doc_uuid: document.uuid, art_title: article.title, art_identifier: article.identifier,
};

function selectRows(where: SQL | undefined) {
  return getDb().select(COLUMNS).from(comment)
    .leftJoin(author, eq(author.id, comment.user_id)).leftJoin(replyTo, eq(replyTo.id, comment.reply_user_id))
    .leftJoin(document, eq(document.id, comment.document_id)).leftJoin(article, eq(article.id, comment.article_id))
    .where(where);
}
function countRows(where: SQL | undefined): number {
  return getDb().select({ n: count() }).from(comment)
    .leftJoin(author, eq(author.id, comment.user_id))
    .leftJoin(document, eq(document.id, comment.document_id)).leftJoin(article, eq(article.id, comment.article_id))
    .where(where).get()!.n;
}

type Raw = ReturnType<ReturnType<typeof selectRows>["all"]>[number];

export type CommentItem = ReturnType<typeof present> & { replies?: CommentItem[]; reply_total?: number };

function present(r: Raw, withIp: boolean) {
  const onDocument = r.document_id !== null;
  return {
    id: r.id, user_id: r.user_id, username: r.username ?? "", avatar: r.avatar ?? "",
    document_id: r.document_id ?? 0, article_id: r.article_id ?? 0, parent_id: r.parent_id ?? 0,
    reply_user_id: r.reply_user_id, reply_username: r.reply_username ?? "",
    content: r.content, status: r.status, status_label: commentStatusLabel(r.status), reply_count: r.reply_count, created_at: r.created_at,
    target_type: onDocument ? "document" : "article",
    target_title: (onDocument ? r.doc_title : r.art_title) ?? "",
    target_url: onDocument ? (r.doc_uuid ? documentUrl(r.doc_uuid) : "") : r.art_identifier ? articleUrl(r.art_identifier) : "",
    ...(withIp ? { ip: r.ip } : {}),
  };
}

/** One comment as its author and moderators see it (the answer to POST /comment). */
export function getComment(id: number, withIp = false) {
  const r = selectRows(eq(comment.id, id)).get();
  return r ? present(r, withIp) : undefined;
}

// Visitors: normal comments (plus the viewer's own under review), in a thread that is shown, on
// an item they may read.
function visibleTo(viewer: Viewer | null): SQL | undefined {
  if (viewer?.moderator) return undefined;
  const status = viewer ? or(eq(comment.status, COMMENT_STATUS.normal), and(eq(comment.user_id, viewer.id), eq(comment.status, COMMENT_STATUS.review))) : eq(comment.status, COMMENT_STATUS.normal);
  const thread = or(isNull(comment.parent_id), sql`EXISTS (SELECT 1 FROM comment p WHERE p.id = ${comment.parent_id} AND p.status = 0)`);
  const item = or(
    and(isNotNull(comment.document_id), eq(document.status, DOC_STATUS.converted), isNull(document.deleted_at)),
    and(isNotNull(comment.article_id), eq(article.status, ARTICLE_STATUS.approved), isNull(article.deleted_at)),
  );
  return and(status, thread, item);
}

function filters(q: ListQuery, viewer: Viewer | null): SQL | undefined {
  return and(
    visibleTo(viewer),
    q.document_id ? eq(comment.document_id, q.document_id) : undefined,
    q.article_id ? eq(comment.article_id, q.article_id) : undefined,
    q.user_id ? eq(comment.user_id, q.user_id) : undefined,
    q.status === undefined ? undefined : eq(comment.status, q.status),
    q.type === "document" ? isNotNull(comment.document_id) : q.type === "article" ? isNotNull(comment.article_id) : undefined,
    q.wd ? or(sql`instr(${comment.content}, ${q.wd}) > 0`, sql`instr(lower(${author.username}), lower(${q.wd})) > 0`, sql`instr(coalesce(${document.title}, ${article.title}), ${q.wd}) > 0`) : undefined,
    createdBetween(comment.created_at, q),
  );
}

const ORDER = { new: [desc(comment.id)], hot: [desc(comment.reply_count), desc(comment.id)] };

/** The first replies of each top comment and how many the viewer may see in all. */
function attachReplies(tops: CommentItem[], viewer: Viewer | null, withIp: boolean) {
  if (!tops.length) return;
  const ids = tops.map((t) => t.id);
  const shown = and(visibleTo(viewer), inArray(comment.parent_id, ids));
  const totals = new Map(getDb().select({ parent: comment.parent_id, n: count() }).from(comment)
    .leftJoin(document, eq(document.id, comment.document_id)).leftJoin(article, eq(article.id, comment.article_id))
    .where(shown).groupBy(comment.parent_id).all().map((r) => [r.parent, r.n]));
  for (const t of tops) {
    t.reply_total = totals.get(t.id) ?? 0;
    t.replies = t.reply_total
      ? selectRows(and(visibleTo(viewer), eq(comment.parent_id, t.id))).orderBy(asc(comment.id)).limit(REPLY_PREVIEW).all().map((r) => present(r, withIp))
      : [];
  }
}

/**
 * GET /comment/list. With a document or article (and no parent): its top comments newest or
 * hottest first, each with its first replies. With parent_id: that thread's replies, oldest
 * first. Otherwise a flat list (a user's comments, the admin screen), newest first.
 */
export function listComments(q: ListQuery, viewer: Viewer | null): { total: number; comment: CommentItem[] } {
  const withIp = !!viewer?.moderator;
  const ref: TargetRef | null = q.document_id ? { kind: "document", id: q.document_id } : q.article_id ? { kind: "article", id: q.article_id } : null;
  if (ref && !viewer?.moderator) visibleTarget(ref);
  const offset = (q.page - 1) * q.size;
  if (q.parent_id) {
    const where = and(filters(q, viewer), eq(comment.parent_id, q.parent_id));
    const rows = selectRows(where).orderBy(asc(comment.id)).limit(q.size).offset(offset).all();
    return { total: countRows(where), comment: rows.map((r) => present(r, withIp)) };
  }
  const nested = !!ref && !q.user_id;
  const where = and(filters(q, viewer), nested ? isNull(comment.parent_id) : undefined);
  const rows: CommentItem[] = selectRows(where).orderBy(...ORDER[q.sort]).limit(q.size).offset(offset).all().map((r) => present(r, withIp));
  if (nested) attachReplies(rows, viewer, withIp);
  return { total: countRows(where), comment: rows };
}
