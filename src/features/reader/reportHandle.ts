import { and, eq, inArray, or } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { article } from "#db/schema/articles.ts";
import { document, report } from "#db/schema/documents.ts";
import { user } from "#db/schema/users.ts";
import { ARTICLE_STATUS } from "#src/features/articles/policy.ts";
import { checkArticles } from "#src/features/articles/review.ts";
import { DOC_STATUS } from "#src/features/documents/status.ts";
import { checkDocuments } from "#src/features/documents/review.ts";
import { createPunishments, type Actor } from "#src/features/users/punishments/service.ts";
import { badRequest, notFound } from "#src/lib/errors.ts";
import { REPORT_HANDLED, REPORT_IGNORED, REPORT_PENDING, reasonLabel } from "./reasons.ts";

export type ReportAction = "ignore" | "disable" | "punish";

export interface HandleInput {
  id: number[];
  action: ReportAction;
  /** punishment types (PUNISHMENT_TYPES) for "punish" */
  punish_type?: number[];
  /** what the author reads: the rejection reason of a disabled article, or the punishment reason */
  reason?: string;
  /** punishment length in days; 0 or absent is permanent */
  days?: number;
}

const DAY_MS = 86_400_000;
const unique = (ids: (number | null)[]) => [...new Set(ids.filter((n): n is number => n !== null))];

/**
 * 举报管理's three answers. ignore: the reports become 4. disable: the documents become 4
 * (disabled) and the articles 2 (rejected, with the reason their authors read), and every report
 * still pending on those items is handled with them. punish: the items' authors get the chosen
 * punishments. Handled reports become 0. Every check runs before the first write.
 */
export function handleReports(input: HandleInput, actor: Actor): { handled: number; disabled: number; punished: number } {
  const db = getDb();
  const rows = db.select().from(report).where(inArray(report.id, input.id)).all();
  if (!rows.length || rows.length !== new Set(input.id).size) throw notFound("举报记录不存在");
  const now = Date.now();
  if (input.action === "ignore") {
    db.update(report).set({ status: REPORT_IGNORED, updated_at: now }).where(inArray(report.id, input.id)).run();
    return { handled: rows.length, disabled: 0, punished: 0 };
  }
  const docIds = unique(rows.map((r) => r.document_id));
  const artIds = unique(rows.map((r) => r.article_id));
  const docs = docIds.length ? db.select({ id: document.id, user_id: document.user_id, status: document.status, deleted_at: document.deleted_at }).from(document).where(inArray(document.id, docIds)).all() : [];
  const arts = artIds.length ? db.select({ id: article.id, user_id: article.user_id, status: article.status, deleted_at: article.deleted_at }).from(article).where(inArray(article.id, artIds)).all() : [];
  const labels = [...new Set(rows.map((r) => reasonLabel(r.reason)))].join("、");
  let disabled = 0;
  let punished = 0;

  if (input.action === "disable") {
    // Items already in the recycle bin or already off need nothing more; their reports are still handled.
    const liveDocs = docs.filter((d) => d.deleted_at === null && d.status !== DOC_STATUS.disabled).map((d) => d.id);
    const liveArts = arts.filter((a) => a.deleted_at === null && a.status !== ARTICLE_STATUS.rejected).map((a) => a.id);
    if (liveDocs.length) disabled += checkDocuments(liveDocs, DOC_STATUS.disabled);
    if (liveArts.length) disabled += checkArticles(liveArts, ARTICLE_STATUS.rejected, input.reason?.trim() || `内容被举报（${labels}），经核实已下架`);
  } else {
    const types = [...new Set(input.punish_type ?? [])];
    if (!types.length) throw badRequest("请选择处罚类型");
    const authors = unique([...docs, ...arts].map((x) => x.user_id));
    const people = authors.length ? db.select({ id: user.id, is_root: user.is_root }).from(user).where(inArray(user.id, authors)).all() : [];
    if (people.some((p) => p.is_root)) throw badRequest("内容作者是超级管理员，不能处罚");
    if (people.some((p) => p.id === actor.id)) throw badRequest("不能处罚自己");
    const end = input.days ? now + input.days * DAY_MS : null;
    for (const p of people) {
      createPunishments({ user_id: p.id, type: types, reason: input.reason?.trim() || `发布的内容被举报（${labels}）`, start_time: now, end_time: end }, actor);
      punished++;
    }
  }

  const sameItems = or(docIds.length ? inArray(report.document_id, docIds) : undefined, artIds.length ? inArray(report.article_id, artIds) : undefined);
  const handled = db.update(report).set({ status: REPORT_HANDLED, updated_at: Date.now() })
    .where(input.action === "disable" ? or(inArray(report.id, input.id), and(eq(report.status, REPORT_PENDING), sameItems)) : inArray(report.id, input.id))
    .returning({ id: report.id }).all().length;
  return { handled, disabled, punished };
}

