import { and, count, desc, eq, sql } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { article, articleFavorite } from "#db/schema/articles.ts";
import { user } from "#db/schema/users.ts";
import { assertNotPunished } from "#src/features/users/punishments/service.ts";
import { PUNISH } from "#src/features/users/punishments/types.ts";
import { conflict, notFound } from "#src/lib/errors.ts";
import { ARTICLE_NOT_FOUND, isVisible } from "./policy.ts";

export const articleFavoriteOf = (userId: number, articleId: number) =>
  getDb().select({ id: articleFavorite.id, created_at: articleFavorite.created_at }).from(articleFavorite)
    .where(and(eq(articleFavorite.user_id, userId), eq(articleFavorite.article_id, articleId))).get() ?? null;

/** Favourites a visible article; its counter and the user's move in the same transaction. */
export function addArticleFavorite(userId: number, articleId: number) {
  assertNotPunished(userId, PUNISH.FAVORITE);
  const a = getDb().select({ status: article.status, deleted_at: article.deleted_at }).from(article).where(eq(article.id, articleId)).get();
  if (!a || !isVisible(a)) throw notFound(ARTICLE_NOT_FOUND);
  return getDb().transaction((tx) => {
    const row = tx.insert(articleFavorite).values({ user_id: userId, article_id: articleId }).onConflictDoNothing().returning({ id: articleFavorite.id }).get();
    if (!row) throw conflict("您已经收藏过这篇文章了");
    const counts = tx.update(article).set({ favorite_count: sql`${article.favorite_count} + 1` }).where(eq(article.id, articleId))
      .returning({ favorite_count: article.favorite_count }).get()!;
    tx.update(user).set({ favorite_count: sql`${user.favorite_count} + 1` }).where(eq(user.id, userId)).run();
    return { id: row.id, article_id: articleId, favorite_count: counts.favorite_count };
  });
}

/** Removes the caller's favourite of an article; answers the article's new count. */
export function removeArticleFavorite(userId: number, articleId: number) {
  return getDb().transaction((tx) => {
    const gone = tx.delete(articleFavorite).where(and(eq(articleFavorite.user_id, userId), eq(articleFavorite.article_id, articleId))).returning({ id: articleFavorite.id }).get();
    if (!gone) throw notFound("收藏不存在");
    const counts = tx.update(article).set({ favorite_count: sql`max(0, ${article.favorite_count} - 1)` }).where(eq(article.id, articleId))
      .returning({ favorite_count: article.favorite_count }).get();
    tx.update(user).set({ favorite_count: sql`max(0, ${user.favorite_count} - 1)` }).where(eq(user.id, userId)).run();
    return { article_id: articleId, favorite_count: counts?.favorite_count ?? 0 };
  });
}

export interface ArticleFavoriteItem {
  id: number; article_id: number; created_at: number;
  identifier: string; title: string; view_count: number; comment_count: number; favorite_count: number;
  /** false once the article was unpublished or deleted: the list still lets the user remove it */
  visible: boolean;
}

export const articleFavoriteTotal = (userId: number) =>
  getDb().select({ n: count() }).from(articleFavorite).where(eq(articleFavorite.user_id, userId)).get()!.n;

/** The user's article favourites, newest first (the article tab of /me/favorite). */
export function listArticleFavorites(userId: number, page: number, size: number): { total: number; favorite: ArticleFavoriteItem[] } {
  const rows = getDb().select({
    id: articleFavorite.id, article_id: articleFavorite.article_id, created_at: articleFavorite.created_at,
    identifier: article.identifier, title: article.title, view_count: article.view_count, comment_count: article.comment_count,
    favorite_count: article.favorite_count, status: article.status, deleted_at: article.deleted_at,
  }).from(articleFavorite).innerJoin(article, eq(article.id, articleFavorite.article_id))
    .where(eq(articleFavorite.user_id, userId)).orderBy(desc(articleFavorite.id)).limit(size).offset((page - 1) * size).all();
  return { total: articleFavoriteTotal(userId), favorite: rows.map(({ status, deleted_at, ...r }) => ({ ...r, visible: isVisible({ status, deleted_at }) })) };
}
