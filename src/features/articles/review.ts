import { and, eq, inArray, isNotNull, isNull, count, desc } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { article } from "#db/schema/articles.ts";
import { commentersOf, refreshUserCommentCounts } from "#src/features/comments/counts.ts";
import { unindexArticle } from "#src/features/search/indexer.ts";
import { likeAny } from "#src/features/documents/service.ts";
import { badRequest, notFound } from "#src/lib/errors.ts";
import { ARTICLE_NOT_FOUND, ARTICLE_STATUS, type ArticleRow } from "./policy.ts";
import { afterArticleWrite, withNames } from "./service.ts";

function liveArticles(ids: number[]): ArticleRow[] {
  const rows = getDb().select().from(article).where(and(inArray(article.id, ids), isNull(article.deleted_at))).all();
  if (!rows.length) throw notFound(ARTICLE_NOT_FOUND);
  return rows;
}

/** Review (spec §4): 1 approves, 2 rejects with the reason its author reads, 0 sends back to pending. */
export function checkArticles(ids: number[], status: 0 | 1 | 2, reason = ""): number {
  const rows = liveArticles(ids).filter((a) => a.status !== status || (status === ARTICLE_STATUS.rejected && a.reject_reason !== reason));
  if (!rows.length) return 0;
  getDb().update(article).set({ status, reject_reason: status === ARTICLE_STATUS.rejected ? reason : "", updated_at: Date.now() })
    .where(inArray(article.id, rows.map((r) => r.id))).run();
  afterArticleWrite(rows.map((r) => r.user_id), rows.map((r) => r.category_id));
  return rows.length;
}

/** 0 cancels, 1 recommends (keeping an earlier recommend time), 2 recommends again as newest. */
export function recommendArticles(ids: number[], type: 0 | 1 | 2): number {
  const rows = liveArticles(ids);
  const now = Date.now();
  getDb().transaction((tx) => {
    for (const a of rows) {
      const set = type === 0 ? { is_recommend: false, recommend_at: null } : { is_recommend: true, recommend_at: type === 2 || !a.is_recommend ? now : a.recommend_at };
      tx.update(article).set({ ...set, updated_at: now }).where(eq(article.id, a.id)).run();
    }
  });
  afterArticleWrite([], []);
  return rows.length;
}

export function listArticleRecycle(q: { page: number; size: number; wd?: string }) {
  const cond = and(isNotNull(article.deleted_at), likeAny(q.wd, [article.title, article.keywords, article.identifier]));
  const rows = getDb().select().from(article).where(cond).orderBy(desc(article.deleted_at), desc(article.id)).limit(q.size).offset((q.page - 1) * q.size).all();
  const total = getDb().select({ n: count() }).from(article).where(cond).get()!.n;
  return { total, article: withNames(rows, true) };
}

function inRecycle(ids: number[]): ArticleRow[] {
  const rows = getDb().select().from(article).where(inArray(article.id, ids)).all();
  if (!rows.length) throw notFound(ARTICLE_NOT_FOUND);
  if (rows.some((r) => r.deleted_at === null)) throw badRequest("只能操作回收站中的文章");
  return rows;
}

export function restoreArticles(ids: number[]): number {
  const rows = inRecycle(ids);
  getDb().update(article).set({ deleted_at: null, deleted_user_id: 0, updated_at: Date.now() }).where(inArray(article.id, rows.map((r) => r.id))).run();
  afterArticleWrite(rows.map((r) => r.user_id), rows.map((r) => r.category_id));
  return rows.length;
}

/** Deletes articles for good with their index rows (favourites cascade); their images stay as attachments. */
export function purgeArticles(ids: number[]): number {
  const rows = inRecycle(ids);
  const gone = rows.map((r) => r.id);
  // Comments go with the articles (ON DELETE CASCADE); their authors' counts are recounted after.
  const commenters = commentersOf({ articleIds: gone });
  getDb().transaction((tx) => {
    tx.delete(article).where(inArray(article.id, gone)).run();
    for (const id of gone) unindexArticle(id, tx);
  });
  refreshUserCommentCounts(commenters);
  afterArticleWrite(rows.map((r) => r.user_id), rows.map((r) => r.category_id));
  return rows.length;
}
