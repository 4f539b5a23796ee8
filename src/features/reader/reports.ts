import { and, count, desc, eq, gte, inArray, lte, or, sql, type SQL } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { document, report } from "#db/schema/documents.ts";
import { user } from "#db/schema/users.ts";
import { conflict, notFound } from "#src/lib/errors.ts";
import { visibleDocumentById } from "./access.ts";
import { prepared } from "./prepared.ts";
import { REPORT_PENDING, reasonLabel } from "./reasons.ts";

/** One report per user per document; the document must be one visitors can see. */
export function createReport(userId: number, input: { document_id: number; reason: number; remark: string }) {
  visibleDocumentById(input.document_id);
  const row = getDb().insert(report).values({ user_id: userId, document_id: input.document_id, reason: input.reason, remark: input.remark.trim(), status: REPORT_PENDING })
    .onConflictDoNothing().returning({ id: report.id }).get();
  if (!row) throw conflict("您已经举报过该文档了");
  return { id: row.id };
}

export const reportedBy = (userId: number, documentId: number) =>
  !!prepared("reportedBy", () => getDb().select({ id: report.id }).from(report)
    .where(and(eq(report.user_id, sql.placeholder("u")), eq(report.document_id, sql.placeholder("d")))).prepare()).get({ u: userId, d: documentId });

export interface ReportQuery { page: number; size: number; status?: number; reason?: number; wd?: string; start?: number; end?: number }

/** Admin list, newest first, with the document and the reporter. */
export function listReports(q: ReportQuery) {
  const db = getDb();
  const where: (SQL | undefined)[] = [
    q.status === undefined ? undefined : eq(report.status, q.status),
    q.reason === undefined ? undefined : eq(report.reason, q.reason),
    q.start === undefined ? undefined : gte(report.created_at, q.start),
    q.end === undefined ? undefined : lte(report.created_at, q.end),
    q.wd ? or(sql`instr(${document.title}, ${q.wd}) > 0`, sql`instr(${report.remark}, ${q.wd}) > 0`) : undefined,
  ];
  const cond = and(...where);
  const total = db.select({ n: count() }).from(report).innerJoin(document, eq(document.id, report.document_id)).where(cond).get()!.n;
  const rows = db.select({
    id: report.id, document_id: report.document_id, user_id: report.user_id, reason: report.reason, remark: report.remark, status: report.status,
    created_at: report.created_at, updated_at: report.updated_at,
    document_title: document.title, document_uuid: document.uuid, username: user.username,
  }).from(report).innerJoin(document, eq(document.id, report.document_id)).leftJoin(user, eq(user.id, report.user_id))
    .where(cond).orderBy(desc(report.id)).limit(q.size).offset((q.page - 1) * q.size).all();
  return {
    total,
    report: rows.map((r) => ({ ...r, username: r.username ?? "", reason_label: reasonLabel(r.reason), document_url: `/document/${r.document_uuid}` })),
  };
}

export function updateReport(id: number, status: number) {
  const row = getDb().update(report).set({ status, updated_at: Date.now() }).where(eq(report.id, id)).returning().get();
  if (!row) throw notFound("举报记录不存在");
  return row;
}

export const deleteReports = (ids: number[]) => getDb().delete(report).where(inArray(report.id, ids)).returning({ id: report.id }).all().length;
