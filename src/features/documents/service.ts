import { and, asc, count, desc, eq, exists, inArray, isNull, or, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { dateRangeOf } from "#src/features/admin/crud/schema.ts";
import { createdBetween } from "#src/features/admin/crud/service.ts";
import { getDb } from "#db/client.ts";
import { document, documentCategory } from "#db/schema/documents.ts";
import { user } from "#db/schema/users.ts";
import { bumpContentVersion } from "#src/lib/contentVersion.ts";
import { indexDocument } from "#src/features/search/indexer.ts";
import { dropVectorsOf } from "#src/features/embedding/enqueue.ts";
import { badRequest } from "#src/lib/errors.ts";
import { categoryPath, categoryTitles, chainsOf, usableChain, writeChain } from "./categories.ts";
import { refreshCategoryCounts, refreshUserDocCounts } from "./counts.ts";
import { assertLanguage } from "./languages.ts";
import { findManageable, isVisible, type Actor, type DocumentRow } from "./policy.ts";
import type { ListQuery, UpdateBody } from "./schema.ts";
import { DOC_STATUS, DOC_STATUS_LABEL, visibleDocument } from "./status.ts";

/** Everyone's view of a document row: internals (file hash, conversion errors) only for its managers. */
export function documentView(d: DocumentRow, manager: boolean) {
  const { hash: _h, convert_error, attachment_id: _a, deleted_user_id: _du, ...rest } = d;
  return { ...rest, status_label: DOC_STATUS_LABEL[d.status] ?? "", ...(manager ? { convert_error, attachment_id: d.attachment_id, hash: d.hash } : {}) };
}

const usernames = (ids: number[]) => {
  const list = [...new Set(ids.filter(Boolean))];
  return new Map(list.length ? getDb().select({ id: user.id, username: user.username }).from(user).where(inArray(user.id, list)).all().map((u) => [u.id, u.username]) : []);
};

/** Rows with the uploader's name and the leaf category's title (what lists show). */
export function withNames(rows: DocumentRow[], manager: boolean) {
  const names = usernames(rows.flatMap((r) => [r.user_id, r.deleted_user_id]));
  const titles = categoryTitles(rows.map((r) => r.category_id));
  return rows.map((r) => ({
    ...documentView(r, manager),
    username: names.get(r.user_id) ?? "",
    category_title: titles.get(r.category_id) ?? "",
    ...(manager && r.deleted_at ? { deleted_username: names.get(r.deleted_user_id) ?? "" } : {}),
  }));
}

/** One document with its uploader and category breadcrumb. */
export function documentDetail(d: DocumentRow, manager: boolean) {
  return { ...withNames([d], manager)[0]!, category_path: categoryPath(d.category_id) };
}

const escapeLike = (s: string) => `%${s.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
export const likeAny = (wd: string | undefined, cols: SQLWrapper[]): SQL | undefined => {
  const kw = wd?.trim();
  if (!kw) return undefined;
  const p = escapeLike(kw);
  return or(...cols.map((c) => sql`${c} like ${p} escape '\\'`));
};

function orderOf(order: string | undefined): SQL[] {
  const [field, dir] = (order || "id desc").split(" ") as [keyof DocumentRow, string | undefined];
  const col = (document as unknown as Record<string, SQLWrapper>)[field]!;
  return [dir === "asc" ? asc(col) : desc(col), desc(document.id)];
}

export type ListMode = "admin" | "owner" | "public";

/**
 * Documents outside the recycle bin. "admin" filters by anything; "owner" sees one user's
 * documents in every status; "public" only converted ones.
 */
export function listDocuments(q: ListQuery, mode: ListMode) {
  const where: (SQL | undefined)[] = [isNull(document.deleted_at)];
  if (mode === "public") where.push(visibleDocument());
  else if (q.status.length) where.push(inArray(document.status, q.status));
  if (q.user_id) where.push(eq(document.user_id, q.user_id));
  if (q.category_id) {
    where.push(exists(getDb().select({ x: sql`1` }).from(documentCategory).where(and(eq(documentCategory.document_id, document.id), eq(documentCategory.category_id, q.category_id)))));
  }
  if (q.ext) where.push(eq(document.ext, q.ext.replace(/^\./, "")));
  if (q.is_recommend !== undefined) where.push(eq(document.is_recommend, q.is_recommend));
  where.push(createdBetween(document.created_at, dateRangeOf(q)));
  where.push(likeAny(q.wd, mode === "admin" ? [document.title, document.keywords, document.description, document.uuid] : [document.title, document.keywords]));
  const cond = and(...where);
  const rows = getDb().select().from(document).where(cond).orderBy(...orderOf(q.order)).limit(q.size).offset((q.page - 1) * q.size).all();
  const total = getDb().select({ n: count() }).from(document).where(cond).get()!.n;
  return { total, document: withNames(rows, mode !== "public") };
}

/** Edits metadata; a new category rewrites the chain and recounts both old and new categories. */
export function updateDocument(actor: Actor, admin: boolean, body: UpdateBody): DocumentRow {
  const [d] = findManageable([body.id], actor, admin);
  const { id, category_id, language, ...rest } = body;
  if (language !== undefined) assertLanguage(language);
  const chain = category_id !== undefined && category_id !== d!.category_id ? usableChain(category_id) : null;
  const set = Object.fromEntries(Object.entries({ ...rest, language }).filter(([, v]) => v !== undefined));
  const oldChain = chain ? chainsOf([id]) : [];
  const row = getDb().transaction((tx) => {
    if (chain) writeChain(id, chain, tx);
    const updated = tx.update(document).set({ ...set, ...(chain ? { category_id: chain.at(-1)! } : {}), updated_at: Date.now() }).where(eq(document.id, id)).returning().get()!;
    if (rest.title !== undefined || rest.keywords !== undefined || rest.description !== undefined) indexDocument(id, tx);
    return updated;
  });
  if (chain && isVisible(row)) refreshCategoryCounts([...oldChain, ...chain]);
  bumpContentVersion();
  return row;
}

/** Moves documents into the recycle bin (restorable); counts drop at once. */
export function softDeleteDocuments(actor: Actor, admin: boolean, ids: number[]): number {
  if (!ids.length) throw badRequest("请选择要删除的文档");
  const rows = findManageable(ids, actor, admin);
  const now = Date.now();
  getDb().transaction(() => {
    getDb().update(document).set({ deleted_at: now, deleted_user_id: actor.id, updated_at: now }).where(inArray(document.id, rows.map((r) => r.id))).run();
    // In the recycle bin nobody may read it: its vectors go now and come back on restore.
    dropVectorsOf(rows.map((r) => r.id));
  });
  const visible = rows.filter((r) => r.status === DOC_STATUS.converted).map((r) => r.id);
  if (visible.length) refreshCategoryCounts(chainsOf(visible));
  refreshUserDocCounts(rows.map((r) => r.user_id));
  bumpContentVersion();
  return rows.length;
}
