import { eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { group, userGroup } from "#db/schema/accounts.ts";
import { user } from "#db/schema/users.ts";
import { grantsOf } from "#src/features/permissions/service.ts";
import { setting } from "#src/features/settings/service.ts";
import { assertNotPunished, disabledMessage } from "#src/features/users/punishments/service.ts";
import { PUNISH } from "#src/features/users/punishments/types.ts";
import { forbidden } from "#src/lib/errors.ts";

export interface Actor { id: number; is_root: boolean }

/** The route whose permission makes a comment moderator (see isCommentModerator). */
export const MODERATE_PERMISSION = "PUT /api/v1/comment/check";

/**
 * Comment moderators: the root administrator and whoever may review comments. They see every
 * status in lists, delete anyone's comments and are never held for review. DELETE /comment and
 * GET /comment/list serve members too, so they are not permissions of their own; holding the
 * review permission is what makes the difference.
 */
export function isCommentModerator(actor: Actor | null | undefined): boolean {
  return !!actor && (actor.is_root || grantsOf(actor.id).keys.has(MODERATE_PERMISSION));
}

export const commentSettings = () => ({
  enable: !!setting<boolean>("comment", "enable"),
  needReview: !!setting<boolean>("comment", "need_review"),
  captcha: !!setting<boolean>("comment", "enable_captcha"),
  minInterval: Math.max(0, Number(setting("comment", "min_interval")) || 0),
  maxLength: Math.max(1, Number(setting("comment", "max_length")) || 2000),
  allowLink: !!setting<boolean>("comment", "allow_link"),
});

/**
 * What the user's groups allow, like uploads: any group may grant commenting, and with
 * comment.need_review on a member waits for review unless one of their groups has 评论需审核 off.
 */
export function commentPolicy(actor: Actor): { mayComment: boolean; needsReview: boolean } {
  if (isCommentModerator(actor)) return { mayComment: true, needsReview: false };
  const groups = getDb().select({ comment: group.enable_comment, approval: group.enable_comment_approval })
    .from(userGroup).innerJoin(group, eq(group.id, userGroup.group_id)).where(eq(userGroup.user_id, actor.id)).all();
  return { mayComment: groups.some((g) => g.comment), needsReview: commentSettings().needReview && !groups.some((g) => !g.approval) };
}

/**
 * Refuses, with the sentence the user reads, an account that is disabled (by status or by a
 * disable punishment whose start has come before the periodic job applied it), banned from
 * commenting, or in no group that may comment.
 */
export function assertMayComment(actor: Actor): { needsReview: boolean } {
  const row = getDb().select({ status: user.status }).from(user).where(eq(user.id, actor.id)).get();
  if (!row || row.status !== 0) throw forbidden(disabledMessage(actor.id));
  assertNotPunished(actor.id, PUNISH.DISABLE);
  assertNotPunished(actor.id, PUNISH.COMMENT);
  const p = commentPolicy(actor);
  if (!p.mayComment) throw forbidden("您所在的用户组没有发表评论的权限");
  return { needsReview: p.needsReview };
}
