import { sql } from "drizzle-orm";
import { getDb } from "#db/client.ts";

type Tx = Pick<ReturnType<typeof getDb>, "run">;

export interface Touched { documentIds: Iterable<number>; articleIds: Iterable<number>; userIds: Iterable<number>; topIds: Iterable<number> }

const list = (ids: Iterable<number>) => [...new Set(ids)].filter((n) => Number.isInteger(n) && n > 0);
const inList = (ids: number[]) => sql.join(ids.map((id) => sql`${id}`), sql`, `);

// What visitors see: a normal comment whose thread is shown (top comment normal too). Recounting
// from the rows, rather than adding and subtracting, cannot drift whatever mix of changes ran.
const shown = (col: "document_id" | "article_id", owner: string) => sql.raw(
  `(SELECT count(*) FROM comment c WHERE c.${col} = ${owner}.id AND c.status = 0
     AND (c.parent_id IS NULL OR EXISTS (SELECT 1 FROM comment p WHERE p.id = c.parent_id AND p.status = 0)))`,
);

/**
 * Recounts, inside the caller's transaction, the comment counts a change can move: documents and
 * articles (shown comments, replies included), users (their normal comments) and top comments
 * (their normal replies, which "hottest" sorts by).
 */
export function refreshCommentCounts(tx: Tx, t: Touched) {
  const docs = list(t.documentIds);
  const arts = list(t.articleIds);
  const users = list(t.userIds);
  const tops = list(t.topIds);
  if (docs.length) tx.run(sql`UPDATE document SET comment_count = ${shown("document_id", "document")} WHERE id IN (${inList(docs)})`);
  if (arts.length) tx.run(sql`UPDATE article SET comment_count = ${shown("article_id", "article")} WHERE id IN (${inList(arts)})`);
  if (users.length) tx.run(sql`UPDATE user SET comment_count = (SELECT count(*) FROM comment c WHERE c.user_id = user.id AND c.status = 0) WHERE id IN (${inList(users)})`);
  if (tops.length) tx.run(sql`UPDATE comment SET reply_count = (SELECT count(*) FROM comment r WHERE r.parent_id = comment.id AND r.status = 0) WHERE id IN (${inList(tops)})`);
}

/** Authors of the comments on these items: their counts change when the items are purged. */
export function commentersOf(items: { documentIds?: number[]; articleIds?: number[] }): number[] {
  const docs = list(items.documentIds ?? []);
  const arts = list(items.articleIds ?? []);
  const where = [docs.length ? sql`document_id IN (${inList(docs)})` : null, arts.length ? sql`article_id IN (${inList(arts)})` : null].filter((w) => w !== null);
  if (!where.length) return [];
  return getDb().all<{ user_id: number }>(sql`SELECT DISTINCT user_id FROM comment WHERE ${sql.join(where, sql` OR `)}`).map((r) => r.user_id);
}

/** After a purge: the removed comments no longer count for their authors. */
export function refreshUserCommentCounts(userIds: number[]) {
  if (userIds.length) refreshCommentCounts(getDb(), { documentIds: [], articleIds: [], userIds, topIds: [] });
}
