import { and, count, eq, isNull } from "drizzle-orm";
import { getDb, getSqlite } from "#db/client.ts";
import { document } from "#db/schema/documents.ts";
import { user } from "#db/schema/users.ts";

// Counters derived from the document table. They are recomputed, not incremented, so a missed or
// doubled event can never leave them wrong for good.

/**
 * category.doc_count = converted, not-deleted documents in each category's subtree
 * (document_category holds every document's leaf and ancestors). Call after anything that can
 * change a document's visibility or category; `categoryIds` limits the work to those rows.
 */
export function refreshCategoryCounts(categoryIds?: number[]) {
  const sql = `UPDATE category SET doc_count = (
    SELECT count(*) FROM document_category dc JOIN document d ON d.id = dc.document_id
    WHERE dc.category_id = category.id AND d.status = 2 AND d.deleted_at IS NULL) WHERE type = 0`;
  if (!categoryIds) return void getSqlite().run(sql);
  const ids = [...new Set(categoryIds.filter((n) => Number.isInteger(n) && n > 0))];
  if (!ids.length) return;
  getSqlite().run(`${sql} AND id IN (${ids.map(() => "?").join(",")})`, ids);
}

/** user.doc_count = the user's documents outside the recycle bin. */
export function refreshUserDocCounts(userIds: number[]) {
  for (const id of new Set(userIds)) {
    const n = getDb().select({ n: count() }).from(document).where(and(eq(document.user_id, id), isNull(document.deleted_at))).get()!.n;
    getDb().update(user).set({ doc_count: n }).where(eq(user.id, id)).run();
  }
}
