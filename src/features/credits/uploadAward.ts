import { and, count, eq, gte } from "drizzle-orm";
import { getDb, getSqlite } from "#db/client.ts";
import { creditLog } from "#db/schema/accounts.ts";
import { document } from "#db/schema/documents.ts";
import { setting } from "#src/features/settings/service.ts";
import { changeCredits } from "./ledger.ts";

// The upload award (score.document credits) is paid when a document becomes public — converted
// and, where the uploader's group needs it, approved — never at upload: pending, failed and
// rejected uploads earn nothing. One award per file (MD5) across all users, so copies of one
// file (or a file someone else already earned with) pay nothing; at most score.document_limit
// awards per user per Asia/Shanghai day.

export const UPLOAD_AWARD_KIND = "document";
const DAY_MS = 86_400_000;
const SHANGHAI_OFFSET_MS = 8 * 3_600_000;
export const startOfShanghaiDay = (now: number) => now - ((now + SHANGHAI_OFFSET_MS) % DAY_MS);

const PUBLIC_STATUS = 2;

/** Whether an upload award was already paid for any document made from this file. */
export function hashAwarded(hash: string): boolean {
  return !!getSqlite().query(
    "SELECT 1 FROM document d JOIN credit_log c ON c.kind = ? AND c.ref_id = d.id WHERE d.hash = ? LIMIT 1",
  ).get(UPLOAD_AWARD_KIND, hash);
}

/**
 * Pays the upload award for a document that is now public, if it is owed. Call it inside the
 * transaction that made the document public (conversion completion, approval) so the check and
 * the payment are one write; safe to call more than once. Answers the amount paid (0 if none).
 */
export function awardUploadIfPublic(documentId: number, now = Date.now()): number {
  const amount = Math.max(0, Math.floor(Number(setting("score", "document")) || 0));
  const limit = Math.max(0, Math.floor(Number(setting("score", "document_limit")) || 0));
  if (!amount || !limit) return 0;
  const d = getDb().select({ id: document.id, user_id: document.user_id, hash: document.hash, title: document.title, status: document.status, deleted_at: document.deleted_at })
    .from(document).where(eq(document.id, documentId)).get();
  if (!d || d.status !== PUBLIC_STATUS || d.deleted_at !== null || !d.user_id) return 0;
  if (hashAwarded(d.hash)) return 0;
  const given = getDb().select({ n: count() }).from(creditLog)
    .where(and(eq(creditLog.user_id, d.user_id), eq(creditLog.kind, UPLOAD_AWARD_KIND), gte(creditLog.created_at, startOfShanghaiDay(now)))).get()!.n;
  if (given >= limit) return 0;
  changeCredits({ userId: d.user_id, amount, kind: UPLOAD_AWARD_KIND, reason: `上传文档《${d.title}》`, refId: d.id });
  return amount;
}
