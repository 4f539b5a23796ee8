import { and, asc, count, desc, eq, inArray, isNull, type SQL, type SQLWrapper } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { article } from "#db/schema/articles.ts";
import { attachment } from "#db/schema/site.ts";
import { user } from "#db/schema/users.ts";
import { dateRangeOf } from "#src/features/admin/crud/schema.ts";
import { createdBetween } from "#src/features/admin/crud/service.ts";
import { extractKeywords } from "#src/features/convert/keywords.ts";
import { likeAny } from "#src/features/documents/service.ts";
import { DYNAMIC_TYPES, dynamicLine, recordDynamic } from "#src/features/me/dynamic.ts";
import { indexArticle } from "#src/features/search/indexer.ts";
import { setting } from "#src/features/settings/service.ts";
import { bumpContentVersion } from "#src/lib/contentVersion.ts";
import { badRequest, conflict, forbidden } from "#src/lib/errors.ts";
import { categoryTitle, chainIds, chainPath, refreshArticleCategoryCounts, subtreeOf, usableLeaf } from "./categories.ts";
import { markdownText } from "./markdown.ts";
import { ARTICLE_STATUS, ARTICLE_STATUS_LABEL, assertMayPublish, findManageable, publishPolicy, type Actor, type ArticleRow } from "./policy.ts";
import { ATTACHMENT_ARTICLE } from "./render.ts";
import { ARTICLE_IMAGE } from "./sanitize.ts";
import { summaryOf } from "./summary.ts";
import type { CreateBody, ListQuery, UpdateBody } from "./schema.ts";

/** A row as the API answers it: the category as its root → leaf ids, internals only for managers. */
export function articleView(a: ArticleRow, manager: boolean) {
  const { deleted_user_id: _d, reject_reason, category_id, ...rest } = a;
  return { ...rest, category_id: chainIds(category_id), status_label: ARTICLE_STATUS_LABEL[a.status] ?? "", ...(manager ? { reject_reason } : {}) };
}

const usernames = (ids: number[]) => {
  const list = [...new Set(ids.filter(Boolean))];
  return new Map(list.length ? getDb().select({ id: user.id, username: user.username }).from(user).where(inArray(user.id, list)).all().map((u) => [u.id, u.username]) : []);
};

/** List rows: no content (lists never show it), with the author's name and the leaf category's title. */
export function withNames(rows: ArticleRow[], manager: boolean) {
  const names = usernames(rows.flatMap((r) => [r.user_id, r.deleted_user_id]));
  return rows.map((r) => {
    const { content: _c, ...view } = articleView(r, manager);
    return {
      ...view, username: names.get(r.user_id) ?? "", category_title: categoryTitle(r.category_id),
      ...(manager && r.deleted_at ? { deleted_username: names.get(r.deleted_user_id) ?? "" } : {}),
    };
  });
}

/** One article with its author and category breadcrumb (GET /article). */
export function articleDetail(a: ArticleRow, manager: boolean) {
  return { ...articleView(a, manager), username: usernames([a.user_id]).get(a.user_id) ?? "", category_path: chainPath(a.category_id) };
}

function orderOf(order: string | undefined): SQL[] {
  const [field, dir] = (order || "id desc").split(" ") as [string, string | undefined];
  const col = (article as unknown as Record<string, SQLWrapper>)[field]!;
  return [dir === "asc" ? asc(col) : desc(col), desc(article.id)];
}

export type ListMode = "admin" | "owner" | "public";

/** Articles outside the recycle bin: "admin" filters by anything, "owner" sees every status of one user, "public" approved only. */
export function listArticles(q: ListQuery, mode: ListMode) {
  const where: (SQL | undefined)[] = [isNull(article.deleted_at)];
  if (mode === "public") where.push(eq(article.status, ARTICLE_STATUS.approved));
  else if (q.status.length) where.push(inArray(article.status, q.status));
  if (q.user_id) where.push(eq(article.user_id, q.user_id));
  if (q.category_id) where.push(inArray(article.category_id, subtreeOf(q.category_id)));
  if (q.is_recommend !== undefined) where.push(eq(article.is_recommend, q.is_recommend));
  where.push(createdBetween(article.created_at, dateRangeOf(q)));
  where.push(likeAny(q.wd, mode === "admin" ? [article.title, article.keywords, article.description, article.identifier] : [article.title, article.keywords]));
  const cond = and(...where);
  const rows = getDb().select().from(article).where(cond).orderBy(...orderOf(q.order)).limit(q.size).offset((q.page - 1) * q.size).all();
  const total = getDb().select({ n: count() }).from(article).where(cond).get()!.n;
  return { total, article: withNames(rows, mode !== "public") };
}

const maxLength = () => Math.max(1000, Math.floor(Number(setting("article", "max_content_length"))) || 50_000);

function checkContent(content: string) {
  const n = [...content].length;
  if (n > maxLength()) throw badRequest(`文章内容不能超过 ${maxLength()} 个字（当前 ${n} 字）`);
}

/** "" or an enabled article image of this site (the editor's cover upload answers such a path). */
function checkCover(cover: string | undefined) {
  if (!cover) return;
  const known = ARTICLE_IMAGE.test(cover) && getDb().select({ id: attachment.id }).from(attachment)
    .where(and(eq(attachment.path, cover), eq(attachment.type, ATTACHMENT_ARTICLE), eq(attachment.enable, true))).get();
  if (!known) throw badRequest("封面图片不正确，请上传图片作为封面");
}

/** Keywords split on any separator people type, without repeats, joined by commas. */
export function normalizeKeywords(s: string): string {
  const words = [...new Set(s.split(/[\s,，;；、|]+/).map((w) => w.trim()).filter(Boolean))];
  const out: string[] = [];
  for (const w of words) if ([...out, w].join(",").length <= 255) out.push(w);
  return out.join(",");
}

const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
const identifierTaken = (identifier: string, except = 0) => {
  const row = getDb().select({ id: article.id }).from(article).where(eq(article.identifier, identifier)).get();
  return !!row && row.id !== except;
};

/** A random 12-character identifier nobody uses (36^12 of them: a clash is a retry, not a failure). */
function newIdentifier(): string {
  for (;;) {
    const bytes = crypto.getRandomValues(new Uint8Array(12));
    const id = [...bytes].map((b) => ALPHABET[b % 36]).join("");
    if (!identifierTaken(id)) return id;
  }
}

function refreshUserArticleCounts(userIds: number[]) {
  for (const id of new Set(userIds)) {
    const n = getDb().select({ n: count() }).from(article).where(and(eq(article.user_id, id), isNull(article.deleted_at))).get()!.n;
    getDb().update(user).set({ article_count: n }).where(eq(user.id, id)).run();
  }
}

/** After any write that can change what visitors see: the counters of these authors and category leaves, then every cached page. */
export function afterArticleWrite(userIds: number[], leaves: number[]) {
  refreshArticleCategoryCounts(leaves);
  refreshUserArticleCounts(userIds);
  bumpContentVersion();
}

/** Publishes: approved at once for those who skip review, else pending. Indexed in the same transaction. */
export function createArticle(actor: Actor, admin: boolean, body: CreateBody): ArticleRow {
  assertMayPublish(actor);
  checkContent(body.content);
  checkCover(body.cover);
  const leaf = usableLeaf(body.category_id);
  if (body.identifier !== undefined && !admin) throw forbidden("只有管理员可以自定义文章标识");
  if (body.identifier && identifierTaken(body.identifier)) throw conflict("文章标识已被使用，请换一个");
  const text = markdownText(body.content);
  const keywords = normalizeKeywords(body.keywords ?? "") || extractKeywords(`${body.title}\n${text}`, 5).join(",");
  const description = body.description || summaryOf(body.content);
  const status = publishPolicy(actor).needsReview ? ARTICLE_STATUS.pending : ARTICLE_STATUS.approved;
  const row = getDb().transaction((tx) => {
    const created = tx.insert(article).values({
      identifier: body.identifier || newIdentifier(), title: body.title, content: body.content, keywords, description,
      cover: body.cover ?? "", user_id: actor.id, category_id: leaf, status,
    }).returning().get();
    indexArticle(created.id, tx);
    // Written now even when pending: the feed shows it to others once the article is public.
    recordDynamic(actor.id, DYNAMIC_TYPES.article, dynamicLine.article(created.title), tx);
    return created;
  });
  afterArticleWrite([actor.id], [leaf]);
  return row;
}

/**
 * Edits an article. A member whose articles are reviewed sends an approved or rejected article
 * back to review when its text changes, so nothing unreviewed goes public by editing.
 */
export function updateArticle(actor: Actor, admin: boolean, body: UpdateBody): ArticleRow {
  const [a] = findManageable([body.id], actor, admin);
  if (body.identifier !== undefined && body.identifier !== a!.identifier) {
    if (!admin) throw forbidden("只有管理员可以修改文章标识");
    if (identifierTaken(body.identifier, a!.id)) throw conflict("文章标识已被使用，请换一个");
  }
  if (body.content !== undefined) checkContent(body.content);
  if (body.cover !== undefined && body.cover !== a!.cover) checkCover(body.cover);
  const leaf = body.category_id !== undefined ? usableLeaf(body.category_id) : a!.category_id;
  const content = body.content ?? a!.content;
  const textChanged = (["title", "content", "keywords", "description", "cover"] as const).some((k) => body[k] !== undefined && body[k] !== a![k]);
  const set: Partial<ArticleRow> = { category_id: leaf, updated_at: Date.now() };
  for (const k of ["title", "content", "cover", "identifier"] as const) if (body[k] !== undefined) set[k] = body[k];
  const text = markdownText(content);
  const autoKeywords = () => extractKeywords(`${set.title ?? a!.title}\n${text}`, 5).join(",");
  if (body.keywords !== undefined) set.keywords = normalizeKeywords(body.keywords) || autoKeywords();
  if (body.description !== undefined) set.description = body.description || summaryOf(content);
  // Keywords and a summary that were filled in from the old text follow the new text.
  if (body.content !== undefined && body.content !== a!.content) {
    if (body.description === undefined && a!.description === summaryOf(a!.content)) set.description = summaryOf(content);
    if (body.keywords === undefined && a!.keywords === extractKeywords(`${a!.title}\n${markdownText(a!.content)}`, 5).join(",")) set.keywords = autoKeywords();
  }
  if (body.title !== undefined || body.content !== undefined) set.version = a!.version + 1;
  if (textChanged && !admin && a!.user_id === actor.id && publishPolicy(actor).needsReview) {
    set.status = ARTICLE_STATUS.pending;
    set.reject_reason = "";
  }
  const row = getDb().transaction((tx) => {
    const updated = tx.update(article).set(set).where(eq(article.id, a!.id)).returning().get()!;
    indexArticle(a!.id, tx);
    return updated;
  });
  afterArticleWrite([row.user_id], [a!.category_id, row.category_id]);
  return row;
}

/** Moves articles into the recycle bin (restorable); searches and lists drop them at once. */
export function softDeleteArticles(actor: Actor, admin: boolean, ids: number[]): number {
  if (!ids.length) throw badRequest("请选择要删除的文章");
  const rows = findManageable(ids, actor, admin);
  const now = Date.now();
  getDb().update(article).set({ deleted_at: now, deleted_user_id: actor.id, updated_at: now }).where(inArray(article.id, rows.map((r) => r.id))).run();
  afterArticleWrite(rows.map((r) => r.user_id), rows.map((r) => r.category_id));
  return rows.length;
}
