import { desc, eq, inArray } from "drizzle-orm";
import { getDb, getSqlite } from "#db/client.ts";
import { comment } from "#db/schema/comments.ts";
import { assertCaptcha } from "#src/features/captcha/service.ts";
import { DYNAMIC_TYPES, dynamicLine, recordDynamic } from "#src/features/me/dynamic.ts";
import { bumpContentVersion } from "#src/lib/contentVersion.ts";
import { badRequest, forbidden, notFound, tooManyRequests } from "#src/lib/errors.ts";
import { refreshCommentCounts } from "./counts.ts";
import { getComment } from "./list.ts";
import { assertMayComment, commentSettings, type Actor } from "./policy.ts";
import { COMMENT_STATUS } from "./status.ts";
import { targetOf, visibleTarget, type TargetRef } from "./targets.ts";
import { contentLength, normalizeContent } from "./text.ts";

export const COMMENT_NOT_FOUND = "评论不存在或已被删除";

export interface CreateInput {
  document_id?: number;
  article_id?: number;
  parent_id?: number;
  content: string;
  captcha_id?: string;
  captcha?: string;
}

type Row = typeof comment.$inferSelect;

/**
 * The comment a reply hangs under: the one answered when it is a top comment, else that one's
 * top comment (replies stay one level deep). Both must be shown and on the same item.
 */
function replyParent(parentId: number, ref: TargetRef): { top: number; replyTo: number } {
  const p = getDb().select().from(comment).where(eq(comment.id, parentId)).get();
  const onTarget = (r: Row | undefined) => !!r && (ref.kind === "document" ? r.document_id === ref.id : r.article_id === ref.id) && r.status === COMMENT_STATUS.normal;
  if (!onTarget(p)) throw notFound("要回复的评论不存在或已被删除");
  if (p!.parent_id === null) return { top: p!.id, replyTo: p!.user_id };
  const top = getDb().select().from(comment).where(eq(comment.id, p!.parent_id)).get();
  if (!onTarget(top)) throw notFound("要回复的评论不存在或已被删除");
  return { top: top!.id, replyTo: p!.user_id };
}

/** comment.min_interval seconds between two comments of one user, whatever the status of the first. */
function assertInterval(userId: number, seconds: number, now: number) {
  if (seconds <= 0) return;
  const last = getDb().select({ at: comment.created_at }).from(comment).where(eq(comment.user_id, userId)).orderBy(desc(comment.created_at)).limit(1).get();
  const wait = last ? Math.ceil((last.at + seconds * 1000 - now) / 1000) : 0;
  if (wait > 0) throw tooManyRequests(`评论过于频繁，请 ${wait} 秒后再试`);
}

/**
 * Every rule first (switch, length, account, ban, group, item, parent), then interval, captcha and
 * the write with its counts in one IMMEDIATE transaction: a refused comment writes nothing.
 */
export function createComment(actor: Actor, input: CreateInput, ip: string) {
  const cfg = commentSettings();
  if (!cfg.enable) throw forbidden("评论功能已关闭");
  const ref = targetOf(input);
  const content = normalizeContent(input.content);
  if (!content) throw badRequest("请输入评论内容");
  if (contentLength(content) > cfg.maxLength) throw badRequest(`评论内容不能超过 ${cfg.maxLength} 个字`);
  const { needsReview } = assertMayComment(actor);
  const target = visibleTarget(ref);
  const parent = input.parent_id ? replyParent(input.parent_id, ref) : null;
  const status = needsReview ? COMMENT_STATUS.review : COMMENT_STATUS.normal;
  const id = getSqlite().transaction(() => {
    const now = Date.now();
    assertInterval(actor.id, cfg.minInterval, now);
    assertCaptcha("comment", input.captcha_id, input.captcha);
    const row = getDb().insert(comment).values({
      user_id: actor.id,
      document_id: ref.kind === "document" ? ref.id : null,
      article_id: ref.kind === "article" ? ref.id : null,
      parent_id: parent?.top ?? null,
      reply_user_id: parent?.replyTo ?? 0,
      content, status, ip: ip.slice(0, 64), created_at: now, updated_at: now,
    }).returning({ id: comment.id }).get();
    refreshCommentCounts(getDb(), {
      documentIds: ref.kind === "document" ? [ref.id] : [], articleIds: ref.kind === "article" ? [ref.id] : [],
      userIds: [actor.id], topIds: parent ? [parent.top] : [],
    });
    // Also while awaiting review: the feed shows it to others once the comment is approved.
    recordDynamic(actor.id, DYNAMIC_TYPES.comment, dynamicLine.comment(ref.kind, target.title));
    return row.id;
  }).immediate();
  if (status === COMMENT_STATUS.normal) bumpContentVersion();
  return getComment(id, true)!;
}

type Affected = Pick<Row, "id" | "user_id" | "document_id" | "article_id" | "parent_id">;

const affectedRows = (ids: number[]): Affected[] => ids.length
  ? getDb().select({ id: comment.id, user_id: comment.user_id, document_id: comment.document_id, article_id: comment.article_id, parent_id: comment.parent_id })
    .from(comment).where(inArray(comment.id, ids)).all()
  : [];

const touched = (rows: Affected[], extraUsers: number[] = []) => ({
  documentIds: rows.map((r) => r.document_id ?? 0),
  articleIds: rows.map((r) => r.article_id ?? 0),
  userIds: [...rows.map((r) => r.user_id), ...extraUsers],
  topIds: rows.map((r) => r.parent_id ?? 0),
});

/** Moderation (PUT /comment/check): sets one generic status on every comment named; answers how many. */
export function checkComments(ids: number[], status: number): number {
  const rows = affectedRows(ids);
  if (!rows.length) throw notFound(COMMENT_NOT_FOUND);
  getDb().transaction((tx) => {
    tx.update(comment).set({ status, updated_at: Date.now() }).where(inArray(comment.id, rows.map((r) => r.id))).run();
    refreshCommentCounts(tx, touched(rows));
  });
  bumpContentVersion();
  return rows.length;
}

/**
 * Deletes comments for good; a top comment takes its replies with it. Members delete only their
 * own (403 naming none of the others), moderators any. Unknown ids are a 404 and delete nothing.
 */
export function deleteComments(ids: number[], actor: Actor, moderator: boolean): number {
  const rows = affectedRows(ids);
  if (rows.length !== ids.length) throw notFound(COMMENT_NOT_FOUND);
  if (!moderator && rows.some((r) => r.user_id !== actor.id)) throw forbidden("只能删除自己的评论");
  const tops = rows.filter((r) => r.parent_id === null).map((r) => r.id);
  getDb().transaction((tx) => {
    // Replies leave with their top comment (ON DELETE CASCADE); their authors are recounted too.
    const replyAuthors = tops.length
      ? tx.selectDistinct({ id: comment.user_id }).from(comment).where(inArray(comment.parent_id, tops)).all().map((r) => r.id)
      : [];
    tx.delete(comment).where(inArray(comment.id, ids)).run();
    refreshCommentCounts(tx, touched(rows, replyAuthors));
  });
  bumpContentVersion();
  return rows.length;
}
