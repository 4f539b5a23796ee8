import { and, eq, sql } from "drizzle-orm";
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
