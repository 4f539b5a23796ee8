// Members, articles and helpers shared by the comment and report tests.
import { eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { userGroup } from "#db/schema/accounts.ts";
import { article } from "#db/schema/articles.ts";
import { comment } from "#db/schema/comments.ts";
import { document } from "#db/schema/documents.ts";
import { user } from "#db/schema/users.ts";
import type { TestApp } from "../helpers/testApp.ts";

let n = 0;

/** A member of the default group (普通用户: may comment; 评论需审核 on). */
export async function member(t: TestApp, prefix = "cmt") {
  const m = await t.createUser(`${prefix}_${++n}_${Math.random().toString(36).slice(2, 6)}`);
  getDb().insert(userGroup).values({ user_id: m.user.id, group_id: 2 }).run();
  return m;
}

/** An article inserted directly; approved (1) unless told otherwise. */
export function makeArticle(o: { userId: number; title?: string; status?: number; deleted?: boolean }) {
  n++;
  return getDb().insert(article).values({
    identifier: `art-${n}-${Math.random().toString(36).slice(2, 8)}`, title: o.title ?? `测试文章 ${n}`, content: "正文", user_id: o.userId,
    status: o.status ?? 1, deleted_at: o.deleted ? Date.now() : null,
  }).returning().get();
}

export const commentRows = () => getDb().select().from(comment).all();
export const commentRow = (id: number) => getDb().select().from(comment).where(eq(comment.id, id)).get();
export const docCount = (id: number) => getDb().select({ n: document.comment_count }).from(document).where(eq(document.id, id)).get()!.n;
export const articleRow = (id: number) => getDb().select().from(article).where(eq(article.id, id)).get()!;
export const userCount = (id: number) => getDb().select({ n: user.comment_count }).from(user).where(eq(user.id, id)).get()!.n;

/** Lets the next comment of this user pass the minimum interval without waiting. */
export const ageComments = (userId: number, ms = 3600_000) =>
  getDb().update(comment).set({ created_at: Date.now() - ms }).where(eq(comment.user_id, userId)).run();
