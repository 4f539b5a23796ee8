import { getSqlite } from "#db/client.ts";
import { badRequest, notFound } from "#src/lib/errors.ts";
import { ocrSettings } from "./config.ts";
import { OCR_STATUS_LABEL, queuePagesWithoutText, redoDocument, retryFailedPages } from "./enqueue.ts";
import type { OcrListQuery } from "./schema.ts";

// What the OCR admin screen (/admin/document/ocr) reads and does.

export interface OcrDocumentRow {
  document_id: number; uuid: string; title: string; ext: string; document_pages: number;
  status: number; status_label: string; engine: string; pages: number; done: number; failed: number;
  confidence: number; ms: number; error: string; created_at: number; updated_at: number;
}

const escapeLike = (s: string) => `%${s.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;

export function listOcrDocuments(q: OcrListQuery): { total: number; ocr_document: OcrDocumentRow[] } {
  const where: string[] = ["d.deleted_at IS NULL"];
  const args: (string | number)[] = [];
  if (q.status.length) {
    where.push(`o.status IN (${q.status.map(() => "?").join(",")})`);
    args.push(...q.status);
  }
  if (q.wd) {
    where.push("d.title LIKE ? ESCAPE '\\'");
    args.push(escapeLike(q.wd));
  }
  const from = `FROM ocr_document o JOIN document d ON d.id = o.document_id WHERE ${where.join(" AND ")}`;
  const db = getSqlite();
  const total = (db.query(`SELECT count(*) AS n ${from}`).get(...args) as { n: number }).n;
  const rows = db.query(`SELECT o.*, d.uuid, d.title, d.ext, d.pages AS document_pages ${from} ORDER BY o.updated_at DESC, o.document_id DESC LIMIT ? OFFSET ?`)
    .all(...args, q.size, (q.page - 1) * q.size) as Omit<OcrDocumentRow, "status_label">[];
  return { total, ocr_document: rows.map((r) => ({ ...r, status_label: OCR_STATUS_LABEL[r.status] ?? String(r.status) })) };
}

export function ocrPagesOf(documentId: number) {
  const db = getSqlite();
  if (!db.query("SELECT 1 FROM ocr_document WHERE document_id = ?").get(documentId)) throw notFound("该文档没有 OCR 记录");
  const rows = db.query("SELECT page, status, engine, confidence, ms, chars, error, updated_at FROM ocr_page WHERE document_id = ? ORDER BY page").all(documentId) as
    { page: number; status: number; engine: string; confidence: number; ms: number; chars: number; error: string; updated_at: number }[];
  return { ocr_page: rows.map((r) => ({ ...r, status_label: OCR_STATUS_LABEL[r.status] ?? String(r.status) })) };
}

const liveIds = (ids: number[]) => new Set((getSqlite().query(`SELECT id FROM document WHERE deleted_at IS NULL AND id IN (${ids.map(() => "?").join(",")})`).all(...ids) as { id: number }[]).map((r) => r.id));

/** 重试失败页 for each document; 400 when none of them has a failed page. */
export function retryDocuments(ids: number[]) {
  const queued = getSqlite().transaction(() => {
    const live = liveIds(ids);
    return [...new Set(ids)].filter((id) => live.has(id) && retryFailedPages(id)).length;
  }).immediate();
  if (!queued) throw badRequest("所选文档没有识别失败的页面");
  return { message: `已重新排队 ${queued} 篇文档的失败页`, queued };
}

/** 重新识别此文档 for each document; 400 when none has a page to recognise. */
export function redoDocuments(ids: number[]) {
  const queued = getSqlite().transaction(() => {
    const live = liveIds(ids);
    return [...new Set(ids)].filter((id) => live.has(id) && redoDocument(id)).length;
  }).immediate();
  if (!queued) throw badRequest("所选文档没有需要识别的页面（文档不存在，或每页都有文字层）");
  return { message: `已将 ${queued} 篇文档重新加入识别队列`, queued };
}

/**
 * 识别已有文档: documents converted before OCR was on (or while it was off) that have pages without
 * a text layer and no OCR run yet are queued. The page scan is one SQL pass over the page texts.
 */
export function scanLibrary() {
  const queued = getSqlite().transaction(() => {
    const ids = getSqlite().query(`SELECT DISTINCT d.id FROM document d JOIN document_page p ON p.document_id = d.id
      WHERE d.deleted_at IS NULL AND d.pages > 0 AND d.convert_error = ''
        AND NOT EXISTS (SELECT 1 FROM ocr_document o WHERE o.document_id = d.id)
        AND length(replace(replace(replace(replace(replace(p.text, ' ', ''), char(10), ''), char(13), ''), char(9), ''), char(12288), '')) < ?
      ORDER BY d.id`).all(ocrSettings().minChars) as { id: number }[];
    return ids.filter((r) => queuePagesWithoutText(r.id)).length;
  }).immediate();
  return { message: queued ? `已将 ${queued} 篇含扫描页的文档加入识别队列` : "没有找到尚未识别的扫描页", queued };
}
