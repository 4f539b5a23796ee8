import { and, count, desc, eq, gte, inArray, isNotNull, lte, or, sql, type SQL } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { article } from "#db/schema/articles.ts";
import { document, report } from "#db/schema/documents.ts";
import { user } from "#db/schema/users.ts";
import { ARTICLE_STATUS } from "#src/features/articles/policy.ts";
import { DOC_STATUS } from "#src/features/documents/status.ts";
import { TARGET_LABEL, targetOf, visibleTarget } from "#src/features/comments/targets.ts";
import { conflict, notFound } from "#src/lib/errors.ts";
import { prepared } from "#db/prepared.ts";
import { REPORT_PENDING, reasonLabel } from "./reasons.ts";

/** One report per user per document or article; the item must be one visitors can see. */
export function createReport(userId: number, input: { document_id?: number; article_id?: number; reason: number; remark: string }) {
  const ref = targetOf(input);
  visibleTarget(ref);
  const row = getDb().insert(report).values({
    user_id: userId, document_id: ref.kind === "document" ? ref.id : null, article_id: ref.kind === "article" ? ref.id : null,
    reason: input.reason, remark: input.remark.trim(), status: REPORT_PENDING,
  }).onConflictDoNothing().returning({ id: report.id }).get();
  if (!row) throw conflict(`您已经举报过该${TARGET_LABEL[ref.kind]}了`);
  return { id: row.id };
}

export const reportedBy = (userId: number, documentId: number) =>
  !!prepared("reportedBy", () => getDb().select({ id: report.id }).from(report)
    .where(and(eq(report.user_id, sql.placeholder("u")), eq(report.document_id, sql.placeholder("d")))).prepare()).get({ u: userId, d: documentId });

/** Whether this user already reported the article (its page shows 已举报). */
export const reportedArticleBy = (userId: number, articleId: number) =>
  !!getDb().select({ id: report.id }).from(report).where(and(eq(report.user_id, userId), eq(report.article_id, articleId))).get();

export interface ReportQuery { page: number; size: number; status?: number; reason?: number; type?: "document" | "article"; wd?: string; start?: number; end?: number }

const reporter = user;

/** Admin list, newest first: the item (document or article, with its author) and the reporter. */
export function listReports(q: ReportQuery) {
  const db = getDb();
  const where: (SQL | undefined)[] = [
    q.status === undefined ? undefined : eq(report.status, q.status),
    q.reason === undefined ? undefined : eq(report.reason, q.reason),
    q.type === "document" ? isNotNull(report.document_id) : q.type === "article" ? isNotNull(report.article_id) : undefined,
    q.start === undefined ? undefined : gte(report.created_at, q.start),
    q.end === undefined ? undefined : lte(report.created_at, q.end),
    q.wd ? or(sql`instr(coalesce(${document.title}, ${article.title}), ${q.wd}) > 0`, sql`instr(${report.remark}, ${q.wd}) > 0`) : undefined,
  ];
  const cond = and(...where);
  const total = db.select({ n: count() }).from(report).leftJoin(document, eq(document.id, report.document_id)).leftJoin(article, eq(article.id, report.article_id)).where(cond).get()!.n;
  const rows = db.select({
    id: report.id, document_id: report.document_id, article_id: report.article_id, user_id: report.user_id, reason: report.reason, remark: report.remark, status: report.status,
    created_at: report.created_at, updated_at: report.updated_at, username: reporter.username,
    document_title: document.title, document_uuid: document.uuid, document_status: document.status, document_deleted: document.deleted_at, document_author: document.user_id,
    article_title: article.title, article_identifier: article.identifier, article_status: article.status, article_deleted: article.deleted_at, article_author: article.user_id,
  }).from(report).leftJoin(document, eq(document.id, report.document_id)).leftJoin(article, eq(article.id, report.article_id))
    .leftJoin(reporter, eq(reporter.id, report.user_id))
    .where(cond).orderBy(desc(report.id)).limit(q.size).offset((q.page - 1) * q.size).all();
  const authorIds = [...new Set(rows.map((r) => r.document_author ?? r.article_author ?? 0).filter(Boolean))];
  const authors = new Map(authorIds.length ? db.select({ id: user.id, username: user.username }).from(user).where(inArray(user.id, authorIds)).all().map((u) => [u.id, u.username]) : []);
  return {
    total,
    report: rows.map((r) => {
      const onDocument = r.document_id !== null;
      const authorId = (onDocument ? r.document_author : r.article_author) ?? 0;
      return {
        id: r.id, user_id: r.user_id, username: r.username ?? "", reason: r.reason, reason_label: reasonLabel(r.reason), remark: r.remark, status: r.status,
        created_at: r.created_at, updated_at: r.updated_at,
        target_type: onDocument ? "document" : "article",
        document_id: r.document_id ?? 0, article_id: r.article_id ?? 0,
        // Kept for API clients of document reports; target_* names either kind.
        document_title: r.document_title ?? "", document_uuid: r.document_uuid ?? "", document_url: r.document_uuid ? `/document/${r.document_uuid}` : "",
        target_title: (onDocument ? r.document_title : r.article_title) ?? "",
        target_url: onDocument ? (r.document_uuid ? `/document/${r.document_uuid}` : "") : r.article_identifier ? `/article/${r.article_identifier}` : "",
        // Whether the item is still public (the admin sees at a glance what 禁用内容 already did).
        target_visible: onDocument ? r.document_status === DOC_STATUS.converted && r.document_deleted === null : r.article_status === ARTICLE_STATUS.approved && r.article_deleted === null,
        author_id: authorId, author_name: authors.get(authorId) ?? "",
      };
    }),
  };
}

export function updateReport(id: number, status: number) {
  const row = getDb().update(report).set({ status, updated_at: Date.now() }).where(eq(report.id, id)).returning().get();
  if (!row) throw notFound("举报记录不存在");
  return row;
}

export const deleteReports = (ids: number[]) => getDb().delete(report).where(inArray(report.id, ids)).returning({ id: report.id }).all().length;
