import { and, eq, sql } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { document } from "#db/schema/documents.ts";
import { DOC_STATUS, visibleDocument } from "#src/features/documents/status.ts";
import { pageAllowed } from "#src/features/permissions/catalog.ts";
import { allowPagesOf } from "#src/http/adminOnly.ts";
import { hasBought } from "#src/features/orders/ownership.ts";
import { notFound } from "#src/lib/errors.ts";
import { prepared } from "#db/prepared.ts";

export type DocumentRow = typeof document.$inferSelect;

/** Public ids are uuids; anything else never reaches the database. */
export const UUID_RE = /^[0-9A-Za-z-]{1,64}$/;

export const isVisible = (d: Pick<DocumentRow, "status" | "deleted_at">) => d.status === DOC_STATUS.converted && d.deleted_at === null;

/** Owner, or anyone allowed to open the admin document list, may see a document visitors cannot. */
export function canManage(user: { id: number; is_root: boolean } | null, d: Pick<DocumentRow, "user_id">): boolean {
  if (!user) return false;
  if (user.id === d.user_id) return true;
  const pages = allowPagesOf(user);
  return pages === "all" || pageAllowed(pages, "/admin/document/list");
}

/**
 * Who reads past the preview (issue 10): the owner, an admin with document permissions, or a buyer
 * (a paid document order, credit downloads included) — for good. Everyone else gets the preview.
 */
export function readsWhole(user: { id: number; is_root: boolean } | null, d: Pick<DocumentRow, "id" | "user_id">): boolean {
  return canManage(user, d) || hasBought(user?.id, d.id);
}

/** Pages with images on disk; older rows and test fixtures may carry less than the preview. */
export const renderedPages = (d: Pick<DocumentRow, "preview" | "rendered_pages">) => Math.max(d.preview, d.rendered_pages);

/** The few columns page-image serving and the view beacon need, by uuid. */
export function pageDocByUuid(uuid: string) {
  if (!UUID_RE.test(uuid)) return undefined;
  return prepared("pageDoc", () => getDb()
    .select({ id: document.id, hash: document.hash, status: document.status, deleted_at: document.deleted_at, preview: document.preview, rendered_pages: document.rendered_pages, user_id: document.user_id })
    .from(document).where(eq(document.uuid, sql.placeholder("uuid"))).prepare()).get({ uuid });
}

export function documentByUuid(uuid: string): DocumentRow | undefined {
  if (!UUID_RE.test(uuid)) return undefined;
  return prepared("doc", () => getDb().select().from(document).where(eq(document.uuid, sql.placeholder("uuid"))).prepare()).get({ uuid });
}

/** A document members may act on (rate, favourite, report): converted and not in the recycle bin. */
export function visibleDocumentById(id: number) {
  const d = getDb().select({ id: document.id, uuid: document.uuid, title: document.title, user_id: document.user_id })
    .from(document).where(and(eq(document.id, id), visibleDocument())).get();
  if (!d) throw notFound("文档不存在或已被删除");
  return d;
}
