import { and, count, desc, eq, gte, inArray, isNull, ne, type SQL } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { article } from "#db/schema/articles.ts";
import { user } from "#db/schema/users.ts";
import { setting } from "#src/features/settings/service.ts";
import { contentVersion } from "#src/lib/contentVersion.ts";
import { segmentWords } from "#src/lib/segmenter.ts";
import { categoryTitle, subtreeOf } from "./categories.ts";
import { ARTICLE_STATUS } from "./policy.ts";

// Public lists of articles: the /article page, home blocks, hot and related articles, a user's
// homepage. Only approved articles outside the recycle bin, never their content.

export interface ArticleCardData {
  id: number; identifier: string; title: string; description: string; cover: string; keywords: string;
  user_id: number; username: string; avatar: string; category_id: number; category_title: string;
  view_count: number; comment_count: number; favorite_count: number; is_recommend: boolean; created_at: number;
}

const COLUMNS = {
  id: article.id, identifier: article.identifier, title: article.title, description: article.description, cover: article.cover, keywords: article.keywords,
  user_id: article.user_id, username: user.username, avatar: user.avatar, category_id: article.category_id, view_count: article.view_count,
  comment_count: article.comment_count, favorite_count: article.favorite_count, is_recommend: article.is_recommend, created_at: article.created_at,
};

export const visibleArticle = () => and(eq(article.status, ARTICLE_STATUS.approved), isNull(article.deleted_at));

function cards(where: SQL | undefined, order: SQL[], limit: number, offset = 0): ArticleCardData[] {
  return getDb().select(COLUMNS).from(article).leftJoin(user, eq(user.id, article.user_id)).where(and(visibleArticle(), where))
    .orderBy(...order).limit(limit).offset(offset).all()
    .map((r) => ({ ...r, username: r.username ?? "", avatar: r.avatar ?? "", category_title: categoryTitle(r.category_id) }));
}

/** Sorts of the /article list: recommended articles first by default (spec: "recommended first"). */
export const ARTICLE_SORTS = {
  recommend: { label: "推荐", order: () => [desc(article.is_recommend), desc(article.recommend_at), desc(article.created_at), desc(article.id)] },
  latest: { label: "最新", order: () => [desc(article.created_at), desc(article.id)] },
  hot: { label: "最热", order: () => [desc(article.view_count), desc(article.id)] },
} as const;
export type ArticleSort = keyof typeof ARTICLE_SORTS;

export function articlePage(o: { categoryId?: number; sort: ArticleSort; page: number; size: number }) {
  const where = o.categoryId ? inArray(article.category_id, subtreeOf(o.categoryId)) : undefined;
  const total = getDb().select({ n: count() }).from(article).where(and(visibleArticle(), where)).get()!.n;
  return { total, items: cards(where, ARTICLE_SORTS[o.sort].order(), o.size, (o.page - 1) * o.size) };
}

/** Most read articles published within article.hot_days (0: ever). */
export function hotArticles(limit = 10, categoryId?: number): ArticleCardData[] {
  const days = Math.max(0, Math.floor(Number(setting("article", "hot_days")) || 0));
  const since = days ? gte(article.created_at, Date.now() - days * 86_400_000) : undefined;
  const inCategory = categoryId ? inArray(article.category_id, subtreeOf(categoryId)) : undefined;
  const rows = cards(and(since, inCategory), [desc(article.view_count), desc(article.id)], limit);
  // A quiet site has nothing recent: the most read of all time rather than an empty box.
  return rows.length || !days ? rows : cards(inCategory, [desc(article.view_count), desc(article.id)], limit);
}

export const latestArticles = (limit: number) => cards(undefined, [desc(article.created_at), desc(article.id)], limit);
export const recommendedArticles = (limit: number) => cards(eq(article.is_recommend, true), [desc(article.recommend_at), desc(article.id)], limit);

export function userArticles(userId: number, page: number, size: number) {
  const where = eq(article.user_id, userId);
  const total = getDb().select({ n: count() }).from(article).where(and(visibleArticle(), where)).get()!.n;
  return { total, items: cards(where, [desc(article.created_at), desc(article.id)], size, (page - 1) * size) };
}

const SPLIT = /[\s,，;；、|/]+/;
const related = new Map<number, { version: number; items: ArticleCardData[] }>();

/**
 * Other approved articles sharing this one's keywords or title words, best match first, the most
 * read of its category filling the rest. Cached per article until content changes.
 */
export function relatedArticles(a: { id: number; title: string; keywords: string; category_id: number }, limit = 6): ArticleCardData[] {
  const hit = related.get(a.id);
  if (hit?.version === contentVersion()) return hit.items;
  const words = [...new Set([...a.keywords.split(SPLIT), ...segmentWords(a.title)].map((w) => w.trim().toLowerCase()).filter((w) => [...w].length >= 2))].slice(0, 20);
  const pool = cards(ne(article.id, a.id), [desc(article.id)], 500);
  const scored = pool.map((r) => {
    const title = r.title.toLowerCase();
    const kw = r.keywords.toLowerCase();
    let s = r.category_id && r.category_id === a.category_id ? 1 : 0;
    for (const w of words) s += (title.includes(w) ? 3 : 0) + (kw.includes(w) ? 2 : 0);
    return { r, s };
  });
  const items = scored.sort((x, y) => y.s - x.s || y.r.view_count - x.r.view_count).slice(0, limit).map((x) => x.r);
  if (related.size >= 2000) related.delete(related.keys().next().value!);
  related.set(a.id, { version: contentVersion(), items });
  return items;
}
