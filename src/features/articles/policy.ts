import { and, eq, inArray, isNull } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { group, userGroup } from "#db/schema/accounts.ts";
import { article } from "#db/schema/articles.ts";
import { pageAllowed } from "#src/features/permissions/catalog.ts";
import { setting } from "#src/features/settings/service.ts";
import { assertNotPunished } from "#src/features/users/punishments/service.ts";
import { PUNISH } from "#src/features/users/punishments/types.ts";
import { allowPagesOf } from "#src/http/adminOnly.ts";
import { forbidden, notFound } from "#src/lib/errors.ts";

export type ArticleRow = typeof article.$inferSelect;
export interface Actor { id: number; is_root: boolean }

/** Review statuses (spec §4): 0 pending, 1 approved, 2 rejected. */
export const ARTICLE_STATUS = { pending: 0, approved: 1, rejected: 2 } as const;
export const ARTICLE_STATUS_LABEL: Record<number, string> = { 0: "待审核", 1: "已发布", 2: "未通过" };

export const ARTICLE_NOT_FOUND = "文章不存在或已被删除";
export const NO_ARTICLE_RIGHT = "您所在的用户组没有发布文章的权限";

/**
 * Article administrators: whoever may open the admin article list, i.e. holds any permission of
 * the "article" category. They read, edit, review and delete everyone's articles and are never reviewed.
 */
export function isArticleAdmin(user: Actor | null): boolean {
  if (!user) return false;
  const pages = allowPagesOf(user);
  return pages === "all" || pageAllowed(pages, "/admin/article/list");
}

/**
 * What a user may do, the most permissive flag across their groups winning: any group may grant
 * publishing; with article.enable_review on, a member's articles wait for review unless one of
 * their groups has 文章需审核 off.
 */
export function publishPolicy(actor: Actor): { mayPublish: boolean; needsReview: boolean } {
  if (actor.is_root || isArticleAdmin(actor)) return { mayPublish: true, needsReview: false };
  const groups = getDb().select({ publish: group.enable_article, review: group.enable_article_approval })
    .from(userGroup).innerJoin(group, eq(group.id, userGroup.group_id)).where(eq(userGroup.user_id, actor.id)).all();
  const reviewOn = setting<boolean>("article", "enable_review") !== false;
  return { mayPublish: groups.some((g) => g.publish), needsReview: reviewOn && !groups.some((g) => !g.review) };
}

/** Why this user may not publish now (group right, then a publishing ban), or null. */
export function publishRefusal(actor: Actor): string | null {
  if (!publishPolicy(actor).mayPublish) return NO_ARTICLE_RIGHT;
  try {
    assertNotPunished(actor.id, PUNISH.ARTICLE);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

export function assertMayPublish(actor: Actor) {
  const why = publishRefusal(actor);
  if (why) throw forbidden(why);
}

/** Visitors see approved articles outside the recycle bin; authors and admins see any of theirs. */
export const isVisible = (a: Pick<ArticleRow, "status" | "deleted_at">) => a.status === ARTICLE_STATUS.approved && a.deleted_at === null;

export const mayManage = (actor: Actor | null, a: Pick<ArticleRow, "user_id">, admin: boolean) => !!actor && (admin || a.user_id === actor.id);

/** An article by id or identifier as the caller may see it; 404 otherwise (never says it exists). */
export function findReadable(key: { id?: number; identifier?: string }, actor: Actor | null, admin: boolean): ArticleRow {
  const where = key.id ? eq(article.id, key.id) : eq(article.identifier, (key.identifier ?? "").toLowerCase());
  const a = getDb().select().from(article).where(where).get();
  if (!a || !(isVisible(a) || (a.deleted_at === null && mayManage(actor, a, admin)) || (admin && a.deleted_at !== null))) throw notFound(ARTICLE_NOT_FOUND);
  return a;
}

/**
 * Articles the caller may change: outside the recycle bin, and theirs unless they are an article
 * administrator. 404 when one does not exist, 403 when one belongs to someone else.
 */
export function findManageable(ids: number[], actor: Actor, admin: boolean): ArticleRow[] {
  const rows = ids.length ? getDb().select().from(article).where(and(inArray(article.id, ids), isNull(article.deleted_at))).all() : [];
  if (rows.length !== new Set(ids).size) throw notFound(ARTICLE_NOT_FOUND);
  if (rows.some((a) => !mayManage(actor, a, admin))) throw forbidden("只能操作自己发布的文章");
  return rows;
}
