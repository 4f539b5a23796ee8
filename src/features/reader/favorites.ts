import { and, count, desc, eq, gte, inArray, sql } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { creditLog } from "#db/schema/accounts.ts";
import { document, favorite } from "#db/schema/documents.ts";
import { user } from "#db/schema/users.ts";
import { changeCredits } from "#src/features/credits/ledger.ts";
import { setting } from "#src/features/settings/service.ts";
import { shanghaiDay } from "#src/features/sign/service.ts";
import { assertNotPunished } from "#src/features/users/punishments/service.ts";
import { PUNISH } from "#src/features/users/punishments/types.ts";
import { conflict } from "#src/lib/errors.ts";
import { isVisible, visibleDocumentById } from "./access.ts";
import { prepared } from "#db/prepared.ts";

export const FAVORITE_KIND = "favorite";

/** Start of today in Asia/Shanghai, as UTC milliseconds. */
export function shanghaiDayStart(now = Date.now()): number {
  const d = shanghaiDay(now);
  return Date.UTC(Math.floor(d / 10000), (Math.floor(d / 100) % 100) - 1, d % 100) - 8 * 3600_000;
}

export const favoriteOf = (userId: number, documentId: number) =>
  prepared("favoriteOf", () => getDb().select({ id: favorite.id, document_id: favorite.document_id, created_at: favorite.created_at }).from(favorite)
    .where(and(eq(favorite.user_id, sql.placeholder("u")), eq(favorite.document_id, sql.placeholder("d")))).prepare()).get({ u: userId, d: documentId }) ?? null;

/**
 * Favourites a document: counters on the document and the user, and the uploader's award
 * (score.favorite credits, at most score.favorite_limit awards a day, never for one's own document),
 * all in one transaction.
 */
export function addFavorite(userId: number, documentId: number, now = Date.now()) {
  assertNotPunished(userId, PUNISH.FAVORITE);
  const doc = visibleDocumentById(documentId);
  const award = Math.max(0, Math.floor(Number(setting("score", "favorite")) || 0));
  const limit = Math.max(0, Math.floor(Number(setting("score", "favorite_limit")) || 0));
  return getDb().transaction((tx) => {
    const row = tx.insert(favorite).values({ user_id: userId, document_id: documentId }).onConflictDoNothing().returning({ id: favorite.id }).get();
    if (!row) throw conflict("您已经收藏过该文档了");
    const counts = tx.update(document).set({ favorite_count: sql`${document.favorite_count} + 1` }).where(eq(document.id, documentId))
      .returning({ favorite_count: document.favorite_count }).get()!;
    tx.update(user).set({ favorite_count: sql`${user.favorite_count} + 1` }).where(eq(user.id, userId)).run();
    let awarded = 0;
    if (award > 0 && limit > 0 && doc.user_id !== userId) {
      const today = tx.select({ n: count() }).from(creditLog)
        .where(and(eq(creditLog.user_id, doc.user_id), eq(creditLog.kind, FAVORITE_KIND), gte(creditLog.created_at, shanghaiDayStart(now)))).get()!.n;
      if (today < limit) {
        changeCredits({ userId: doc.user_id, amount: award, kind: FAVORITE_KIND, reason: `文档《${doc.title}》被收藏`, refId: row.id }, tx);
        awarded = award;
      }
    }
    return { id: row.id, document_id: documentId, favorite_count: counts.favorite_count, award: awarded };
  });
}

/** Removes the caller's favourites by favourite ids or by document; answers how many went. */
export function removeFavorites(userId: number, by: { ids?: number[]; documentId?: number }) {
  return getDb().transaction((tx) => {
    const where = by.ids?.length ? inArray(favorite.id, by.ids) : eq(favorite.document_id, by.documentId ?? 0);
    const gone = tx.delete(favorite).where(and(eq(favorite.user_id, userId), where)).returning({ document_id: favorite.document_id }).all();
    for (const g of gone) {
      tx.update(document).set({ favorite_count: sql`max(0, ${document.favorite_count} - 1)` }).where(eq(document.id, g.document_id)).run();
    }
    if (gone.length) tx.update(user).set({ favorite_count: sql`max(0, ${user.favorite_count} - ${gone.length})` }).where(eq(user.id, userId)).run();
    return gone.length;
  });
}

export interface FavoriteItem {
  id: number; document_id: number; created_at: number;
  uuid: string; title: string; ext: string; size: number; pages: number; score: number; favorite_count: number; view_count: number;
  /** false once the document was disabled or deleted: the list still lets the user remove it */
  visible: boolean;
}

export const favoriteTotal = (userId: number) => getDb().select({ n: count() }).from(favorite).where(eq(favorite.user_id, userId)).get()!.n;

export function listFavorites(userId: number, page: number, size: number): { total: number; favorite: FavoriteItem[] } {
  const db = getDb();
  const total = favoriteTotal(userId);
  const rows = db.select({
    id: favorite.id, document_id: favorite.document_id, created_at: favorite.created_at,
    uuid: document.uuid, title: document.title, ext: document.ext, size: document.size, pages: document.pages,
    score: document.score, favorite_count: document.favorite_count, view_count: document.view_count, status: document.status, deleted_at: document.deleted_at,
  }).from(favorite).innerJoin(document, eq(document.id, favorite.document_id))
    .where(eq(favorite.user_id, userId)).orderBy(desc(favorite.id)).limit(size).offset((page - 1) * size).all();
  return { total, favorite: rows.map(({ status, deleted_at, ...r }) => ({ ...r, visible: isVisible({ status, deleted_at }) })) };
}
