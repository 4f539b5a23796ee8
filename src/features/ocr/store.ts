import { getSqlite, isBusyError, withBusyTimeout } from "#db/client.ts";
import { extractKeywords, summarize } from "#src/features/convert/keywords.ts";
import { queueEmbedding } from "#src/features/embedding/enqueue.ts";
import { indexDocument } from "#src/features/search/indexer.ts";
import { log } from "#src/http/requestLog.ts";
import { bumpContentVersion } from "#src/lib/contentVersion.ts";
import { OCR_JOB, OCR_STATUS, OVER_NOTE_START } from "./enqueue.ts";

// The rows an OCR run reads and writes. Progress (which page, how many done) is written as the run
// goes; recognised text only in the job's completion transaction (`commitRun`), together with the
// search index, so a retried or crashed run never writes a page's text twice or half.

export interface PageOutcome {
  page: number;
  status: typeof OCR_STATUS.success | typeof OCR_STATUS.failed;
  engine: string;
  ms: number;
  confidence: number;
  text: string;
  error: string;
}

/** The pages this run must do: pending ones, and ones a crashed attempt had started. */
export const pagesToDo = (id: number) => getSqlite().query<{ page: number }, [number]>(
  "SELECT page FROM ocr_page WHERE document_id = ? AND status IN (0, 1) ORDER BY page",
).all(id).map((r) => r.page);

/** Progress is best effort: a busy database skips a beat rather than stall the run. */
function softWrite(fn: () => void) {
  try {
    withBusyTimeout(0, fn);
  } catch (e) {
    if (!isBusyError(e)) throw e;
  }
}

export function markRunning(id: number, engine: string) {
  softWrite(() => void getSqlite().query("UPDATE ocr_document SET status = 1, engine = ?, updated_at = ? WHERE document_id = ?").run(engine, Date.now(), id));
}

/** The page being recognised, and the document's counts so far (the committed ones plus this run's). */
export function markProgress(id: number, page: number, done: PageOutcome[]) {
  softWrite(() => getSqlite().transaction(() => {
    const db = getSqlite();
    db.query("UPDATE ocr_page SET status = 1, updated_at = ? WHERE document_id = ? AND page = ?").run(Date.now(), id, page);
    const earlier = db.query<{ ok: number; bad: number }, [number]>(
      "SELECT count(*) FILTER (WHERE status = 2) AS ok, count(*) FILTER (WHERE status = 3) AS bad FROM ocr_page WHERE document_id = ?",
    ).get(id) ?? { ok: 0, bad: 0 };
    const ok = done.filter((d) => d.status === OCR_STATUS.success).length;
    db.query("UPDATE ocr_document SET done = ?, failed = ?, updated_at = ? WHERE document_id = ?")
      .run(earlier.ok + ok, earlier.bad + done.length - ok, Date.now(), id);
  })());
}

/** A newer run of the document was queued (reconversion, 重新识别) since this job started: its results are stale. */
const supersededBy = (id: number, jobId: number) => !!getSqlite().query(
  "SELECT 1 FROM jobs WHERE kind = ? AND id > ? AND status IN ('queued', 'running') AND json_extract(payload, '$.document_id') = ? LIMIT 1",
).get(OCR_JOB, jobId, id);

/**
 * In the completion transaction: each page's text, status and numbers; the document's totals; the
 * search index; blank description and keywords filled from the recognised text; then the
 * embeddings. Nothing is written when the run was superseded or the document changed its pages.
 */
export function commitRun(id: number, jobId: number, pageCount: number, outcomes: PageOutcome[]) {
  const db = getSqlite();
  const doc = db.query<{ pages: number; description: string; keywords: string }, [number]>("SELECT pages, description, keywords FROM document WHERE id = ?").get(id);
  if (!doc || doc.pages !== pageCount || supersededBy(id, jobId)) {
    log("info", "ocr results discarded: the document changed meanwhile", { id, job: jobId });
    return false;
  }
  const now = Date.now();
  const setText = db.query("INSERT INTO document_page (document_id, page, text) VALUES (?1, ?2, ?3) ON CONFLICT (document_id, page) DO UPDATE SET text = ?3");
  const setPage = db.query("UPDATE ocr_page SET status = ?, engine = ?, ms = ?, confidence = ?, chars = ?, error = ?, updated_at = ? WHERE document_id = ? AND page = ?");
  for (const o of outcomes) {
    if (o.status === OCR_STATUS.success) setText.run(id, o.page, o.text);
    setPage.run(o.status, o.engine, o.ms, o.confidence, o.status === OCR_STATUS.success ? [...o.text.replace(/\s+/g, "")].length : 0, o.error.slice(0, 500), now, id, o.page);
  }
  const t = db.query<{ ok: number; bad: number; waiting: number; conf: number | null; ms: number }, [number]>(`SELECT count(*) FILTER (WHERE status = 2) AS ok,
    count(*) FILTER (WHERE status = 3) AS bad, count(*) FILTER (WHERE status IN (0, 1)) AS waiting,
    avg(confidence) FILTER (WHERE status = 2) AS conf, coalesce(sum(ms), 0) AS ms FROM ocr_page WHERE document_id = ?`).get(id)!;
  const firstError = outcomes.find((o) => o.error)?.error ?? "";
  const status = t.waiting ? OCR_STATUS.pending : t.bad ? OCR_STATUS.failed : OCR_STATUS.success;
  // The note about pages over ocr.max_pages stays; an earlier failure message goes once nothing fails.
  const before = db.query<{ error: string }, [number]>("SELECT error FROM ocr_document WHERE document_id = ?").get(id)?.error ?? "";
  const error = t.bad ? `${t.bad} 页识别失败${firstError ? `：${firstError}` : ""}` : before.startsWith(OVER_NOTE_START) ? before : "";
  db.query("UPDATE ocr_document SET status = ?, done = ?, failed = ?, confidence = ?, ms = ?, error = ?, updated_at = ? WHERE document_id = ?")
    .run(status, t.ok, t.bad, Math.round((t.conf ?? 0) * 10) / 10, t.ms, error.slice(0, 500), now, id);
  if (outcomes.some((o) => o.status === OCR_STATUS.success && o.text)) {
    fillBlankMetadata(id, doc);
    indexDocument(id);
    bumpContentVersion();
    queueEmbedding(id);
  }
  return true;
}

/** The conversion found no text to describe a scanned document with; the recognised text can. */
function fillBlankMetadata(id: number, doc: { description: string; keywords: string }) {
  if (doc.description.trim() && doc.keywords.trim()) return;
  const all = getSqlite().query<{ text: string }, [number]>("SELECT text FROM document_page WHERE document_id = ? ORDER BY page").all(id).map((r) => r.text).join("\n");
  getSqlite().query("UPDATE document SET description = ?, keywords = ?, updated_at = ? WHERE id = ?").run(
    doc.description.trim() ? doc.description : summarize(all),
    doc.keywords.trim() ? doc.keywords : extractKeywords(all).join(","),
    Date.now(), id,
  );
}

/** Every attempt died (killed, timed out): the run ends failed, its unfinished pages with the reason. */
export function failRun(id: number, message: string) {
  const db = getSqlite();
  const now = Date.now();
  db.query("UPDATE ocr_page SET status = 3, error = ?, updated_at = ? WHERE document_id = ? AND status IN (0, 1)").run(message.slice(0, 500), now, id);
  db.query(`UPDATE ocr_document SET status = 3, error = ?1, updated_at = ?2,
    failed = (SELECT count(*) FROM ocr_page WHERE document_id = ?3 AND status = 3) WHERE document_id = ?3`).run(message.slice(0, 500), now, id);
}
