import { getSqlite } from "#db/client.ts";
import { enqueue } from "#src/jobs/queue.ts";
import { ocrSettings } from "./config.ts";
import { choosePages } from "./text.ts";

// Starting OCR runs. Every function only writes rows, so it is safe inside the caller's transaction
// (a conversion's commit): a document's OCR is queued exactly when its new page text is committed.

export const OCR_JOB = "ocr.document";
export interface OcrPayload { document_id: number }

/** OCR statuses (spec §4), of a document's run and of each page. */
export const OCR_STATUS = { pending: 0, running: 1, success: 2, failed: 3 } as const;
export const OCR_STATUS_LABEL: Record<number, string> = { 0: "等待识别", 1: "识别中", 2: "识别成功", 3: "识别失败" };

const pageTexts = (id: number) => {
  const rows = getSqlite().query<{ page: number; text: string }, [number]>("SELECT page, text FROM document_page WHERE document_id = ? ORDER BY page").all(id);
  const pages = getSqlite().query<{ pages: number }, [number]>("SELECT pages FROM document WHERE id = ?").get(id)?.pages ?? 0;
  const texts = Array.from({ length: pages }, () => "");
  for (const r of rows) if (r.page >= 1 && r.page <= pages) texts[r.page - 1] = r.text;
  return texts;
};

/** One waiting job per document is enough: it reads the pending pages when it runs. */
function enqueueOnceFor(id: number) {
  const waiting = getSqlite().query<{ id: number }, [string, number]>(
    "SELECT id FROM jobs WHERE kind = ? AND status = 'queued' AND json_extract(payload, '$.document_id') = ? LIMIT 1",
  ).get(OCR_JOB, id);
  if (!waiting) enqueue(OCR_JOB, { document_id: id } satisfies OcrPayload, { maxAttempts: 3 });
}

/** A fresh run over `pages`: the document's row reset, one pending row per page, the job queued. */
function startRun(id: number, pages: number[], note = "") {
  const db = getSqlite();
  const s = ocrSettings();
  db.query(`INSERT INTO ocr_document (document_id, status, engine, pages, done, failed, confidence, ms, error) VALUES (?1, 0, ?2, ?3, 0, 0, 0, 0, ?4)
    ON CONFLICT (document_id) DO UPDATE SET status = 0, engine = ?2, pages = ?3, done = 0, failed = 0, confidence = 0, ms = 0, error = ?4, updated_at = ?5`)
    .run(id, s.engine, pages.length, note, Date.now());
  db.query("DELETE FROM ocr_page WHERE document_id = ?").run(id);
  const insert = db.query("INSERT INTO ocr_page (document_id, page, status, engine) VALUES (?, ?, 0, ?)");
  for (const p of pages) insert.run(id, p, s.engine);
  enqueueOnceFor(id);
}

export const OVER_NOTE_START = "另有 ";
const overNote = (over: number, max: number) => (over ? `${OVER_NOTE_START}${over} 页没有文字层，超过每篇最多识别 ${max} 页的设置，未识别` : "");

/**
 * After a conversion: queues OCR of the pages without a text layer (fewer than ocr.min_chars
 * visible characters), at most ocr.max_pages of them. True when a run was queued. A document whose
 * new pages all have text loses the rows of an earlier run (they described other page text).
 */
export function queueOcrIfNeeded(documentId: number): boolean {
  return ocrSettings().enable && queuePagesWithoutText(documentId);
}

/** queueOcrIfNeeded whether OCR is on or not (an admin asked: 识别已有文档). */
export function queuePagesWithoutText(documentId: number): boolean {
  const s = ocrSettings();
  const { pages, over } = choosePages(pageTexts(documentId), s.minChars, s.maxPages);
  if (!pages.length) {
    getSqlite().query("DELETE FROM ocr_document WHERE document_id = ?").run(documentId);
    getSqlite().query("DELETE FROM ocr_page WHERE document_id = ?").run(documentId);
    return false;
  }
  startRun(documentId, pages, overNote(over, s.maxPages));
  return true;
}

/** 重试失败页: the failed pages go back to pending. False when the document has none. */
export function retryFailedPages(documentId: number): boolean {
  const db = getSqlite();
  const changed = db.query("UPDATE ocr_page SET status = 0, error = '', updated_at = ? WHERE document_id = ? AND status = 3").run(Date.now(), documentId).changes;
  if (!changed) return false;
  db.query("UPDATE ocr_document SET status = 0, error = '', updated_at = ? WHERE document_id = ?").run(Date.now(), documentId);
  enqueueOnceFor(documentId);
  return true;
}

/**
 * 重新识别此文档: the pages of the last run (their text is OCR's own now, so the text layer test
 * would no longer pick them) plus any page that lacks text today, within ocr.max_pages.
 * Works whether OCR is enabled or not: an admin asked for it. False when no page qualifies.
 */
export function redoDocument(documentId: number): boolean {
  const s = ocrSettings();
  const earlier = getSqlite().query<{ page: number }, [number]>("SELECT page FROM ocr_page WHERE document_id = ?").all(documentId).map((r) => r.page);
  const texts = pageTexts(documentId);
  const now = choosePages(texts, s.minChars, texts.length).pages;
  const all = [...new Set([...earlier, ...now])].filter((p) => p <= texts.length).sort((a, b) => a - b);
  if (!all.length) return false;
  const pages = all.slice(0, s.maxPages);
  startRun(documentId, pages, overNote(all.length - pages.length, s.maxPages));
  return true;
}

/** Whether an OCR run of the document is waiting or running. */
export const ocrPending = (documentId: number) => !!getSqlite().query(
  "SELECT 1 FROM jobs WHERE kind = ? AND status IN ('queued', 'running') AND json_extract(payload, '$.document_id') = ? LIMIT 1",
).get(OCR_JOB, documentId);
