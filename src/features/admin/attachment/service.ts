import { eq, inArray, or, sql, type SQLWrapper } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { attachment } from "#db/schema/site.ts";
import { user } from "#db/schema/users.ts";
import { createdBetween, crudService } from "../crud/service.ts";
import { removeIfUnused } from "./storage.ts";

/** Attachment type labels, spec §3. */
export const ATTACHMENT_TYPES = ["未知", "头像", "文档", "文章", "评论", "横幅", "分类封面", "配置", "采集文档"] as const;

export const attachmentService = crudService({ table: attachment, defaults: {} });

export function listAttachments(q: { type?: number; keyword?: string; start?: number; end?: number; page: number; size: number }) {
  const kw = q.keyword?.trim();
  const pattern = kw ? `%${kw.replace(/[\\%_]/g, (m) => `\\${m}`)}%` : "";
  // Escaped so a keyword like "50%" matches literally.
  const like = (col: SQLWrapper) => sql`${col} like ${pattern} escape '\\'`;
  const { total, rows } = attachmentService.list({
    where: [
      q.type === undefined ? undefined : eq(attachment.type, q.type),
      kw ? or(like(attachment.name), like(attachment.path), like(attachment.description)) : undefined,
      createdBetween(attachment.created_at, q),
    ],
    page: q.page,
    size: q.size,
  });
  const ids = [...new Set(rows.map((r) => Number(r.user_id)).filter(Boolean))];
  const names = new Map(ids.length ? getDb().select({ id: user.id, username: user.username }).from(user).where(inArray(user.id, ids)).all().map((u) => [u.id, u.username]) : []);
  return {
    total,
    attachment: rows.map((r) => ({ ...r, type_name: ATTACHMENT_TYPES[Number(r.type)] ?? "未知", username: names.get(Number(r.user_id)) ?? "" })),
  };
}

/** Deletes the rows, then each file no remaining row uses. */
export function deleteAttachments(ids: number[]) {
  const rows = attachmentService.remove(ids);
  for (const p of new Set(rows.map((r) => String(r.path)))) removeIfUnused(p);
  return rows.length;
}
