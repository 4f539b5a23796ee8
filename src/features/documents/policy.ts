import { and, eq, inArray, isNull } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { group, userGroup } from "#db/schema/accounts.ts";
import { document } from "#db/schema/documents.ts";
import { pageAllowed } from "#src/features/permissions/catalog.ts";
import { assertNotPunished } from "#src/features/users/punishments/service.ts";
import { allowPagesOf } from "#src/http/adminOnly.ts";
import { PUNISH } from "#src/features/users/punishments/types.ts";
import { forbidden, notFound } from "#src/lib/errors.ts";
import { DOC_STATUS } from "./status.ts";

export type DocumentRow = typeof document.$inferSelect;
export interface Actor { id: number; is_root: boolean }

export const NO_UPLOAD_RIGHT = "您所在的用户组没有上传文档的权限";
export const DOCUMENT_NOT_FOUND = "文档不存在或已被删除";

/**
 * What a user's groups allow, taking the most permissive flag across them: any group may grant
 * uploading, and documents skip review when any group skips it. The root administrator may
 * always upload and is never reviewed.
 */
export function uploadPolicy(actor: Actor): { mayUpload: boolean; needsReview: boolean } {
  if (actor.is_root) return { mayUpload: true, needsReview: false };
  const groups = getDb().select({ upload: group.enable_upload, review: group.enable_document_review })
    .from(userGroup).innerJoin(group, eq(group.id, userGroup.group_id)).where(eq(userGroup.user_id, actor.id)).all();
  return { mayUpload: groups.some((g) => g.upload), needsReview: !groups.some((g) => !g.review) };
}

/** Why this user may not upload right now (group right, then an upload ban), or null. */
export function uploadRefusal(actor: Actor): string | null {
  if (!uploadPolicy(actor).mayUpload) return NO_UPLOAD_RIGHT;
  try {
    assertNotPunished(actor.id, PUNISH.UPLOAD);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

export function assertMayUpload(actor: Actor) {
  const why = uploadRefusal(actor);
  if (why) throw forbidden(why);
}

/**
 * Document administrators: whoever may open the admin document list, i.e. holds any permission
 * of the "document" category (the reader's canManage uses the same rule). They may read, edit and
 * delete anyone's documents; everyone else only their own.
 */
export function isDocumentAdmin(user: Actor | null): boolean {
  if (!user) return false;
  const pages = allowPagesOf(user);
  return pages === "all" || pageAllowed(pages, "/admin/document/list");
}

/** Visitors see converted documents outside the recycle bin; owners and admins see any. */
export const isVisible = (d: Pick<DocumentRow, "status" | "deleted_at">) => d.status === DOC_STATUS.converted && d.deleted_at === null;

export const mayManage = (actor: Actor | null, d: Pick<DocumentRow, "user_id">, admin: boolean) => !!actor && (admin || d.user_id === actor.id);

/** A document by id or uuid as the caller may see it; 404 otherwise (never reveals it exists). */
export function findReadable(key: { id?: number; uuid?: string }, actor: Actor | null, admin: boolean): DocumentRow {
  const where = key.id ? eq(document.id, key.id) : eq(document.uuid, key.uuid ?? "");
  const d = getDb().select().from(document).where(where).get();
  if (!d || !(isVisible(d) || mayManage(actor, d, admin))) throw notFound(DOCUMENT_NOT_FOUND);
  return d;
}

/**
 * Documents the caller may change: outside the recycle bin, and theirs unless they hold the
 * route's permission. 404 when one does not exist, 403 when one belongs to someone else.
 */
export function findManageable(ids: number[], actor: Actor, admin: boolean): DocumentRow[] {
  const rows = ids.length ? getDb().select().from(document).where(and(inArray(document.id, ids), isNull(document.deleted_at))).all() : [];
  if (rows.length !== new Set(ids).size) throw notFound(DOCUMENT_NOT_FOUND);
  if (rows.some((d) => !mayManage(actor, d, admin))) throw forbidden("只能操作自己上传的文档");
  return rows;
}
