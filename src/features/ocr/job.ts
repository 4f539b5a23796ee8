import { originalPath } from "#src/features/documents/paths.ts";
import { converterSettings, sourcePdf } from "#src/features/convert/pipeline.ts";
import { conversionPending } from "#src/features/convert/service.ts";
import { loadDocument } from "#src/features/convert/store.ts";
import { ConvertError, describeTimeout } from "#src/features/convert/tools.ts";
import { openWorkDir, removeWorkDir } from "#src/features/convert/workdir.ts";
import { log } from "#src/http/requestLog.ts";
import { registerJob, type JobContext } from "#src/jobs/worker.ts";
import { OCR_JOB, OCR_STATUS, type OcrPayload } from "./enqueue.ts";
import { PageTimeout, recognize } from "./engines/pool.ts";
import { EngineUnavailable, PageError } from "./engines/types.ts";
import { renderPageImage } from "./render.ts";
import { ocrSettings } from "./config.ts";
import { commitRun, failRun, markProgress, markRunning, pagesToDo, type PageOutcome } from "./store.ts";
import { cleanOcrText } from "./text.ts";

// The ocr.document job (issue 16): the pending pages of one document are drawn from its PDF (an
// office original is converted again, like the full-page render does) and recognised one after
// another with the configured engine, each page with its own time-out; a page that cannot be drawn
// or read fails alone. The results are committed with the job (store.ts).

/** The worker's hard limit for one run; ocr.timeout bounds each page inside it. */
const HARD_TIMEOUT_MS = 6 * 3600_000;

const message = (e: unknown) => String((e as Error)?.message ?? e).slice(0, 200);

export async function ocrJob({ job, payload, progress, signal }: JobContext) {
  const id = Number((payload as OcrPayload).document_id);
  const doc = loadDocument(id);
  if (!doc) return { result: { document_id: id, skipped: "document not found" } };
  if (doc.deleted_at !== null) {
    return { result: { document_id: id, skipped: "document deleted" }, effects: () => failRun(id, "文档在回收站中，未识别；恢复后可在 OCR 识别中重新识别") };
  }
  // The conversion on its way replaces the page text and queues OCR again when it commits.
  if (conversionPending(id)) return { result: { document_id: id, skipped: "conversion pending" } };
  const pages = pagesToDo(id);
  if (!pages.length) return { result: { document_id: id, pages: 0 } };

  const s = ocrSettings();
  markRunning(id, s.engine);
  const workDir = openWorkDir(`ocr-${id}`, job.attempts);
  const outcomes: PageOutcome[] = [];
  const fail = (page: number, error: string, ms = 0) => outcomes.push({ page, status: OCR_STATUS.failed, engine: s.engine, ms, confidence: 0, text: "", error });
  try {
    let pdf: string;
    // Making the PDF (LibreOffice for an office original) has the conversion's own time limit.
    const pdfDeadline = AbortSignal.timeout(converterSettings().timeoutMs);
    try {
      pdf = (await sourcePdf(originalPath(doc.hash, doc.ext), doc.ext, { signal: AbortSignal.any([signal, pdfDeadline]), workDir })).pdf;
    } catch (e) {
      if (signal.aborted) throw e;
      if (!(e instanceof ConvertError) && !pdfDeadline.aborted) throw e;
      // The original is gone or broken: no page can be read, and another attempt would agree.
      const why = e instanceof ConvertError ? e.message : `生成 PDF 超时（超过 ${describeTimeout(converterSettings().timeoutMs)}）`;
      for (const p of pages) fail(p, `无法读取原始文件：${why}`);
      return done(id, job.id, doc.pages, outcomes);
    }
    for (const [i, page] of pages.entries()) {
      markProgress(id, page, outcomes);
      const started = performance.now();
      // ocr.timeout covers drawing the page and recognising it.
      const pageDeadline = AbortSignal.timeout(s.timeoutMs);
      try {
        const image = await renderPageImage(pdf, page, s.dpi, workDir, { signal: AbortSignal.any([signal, pageDeadline]), workDir });
        const left = Math.max(1000, s.timeoutMs - (performance.now() - started));
        const r = await recognize(image, { engine: s.engine, languages: s.languages, timeoutMs: left, signal });
        const text = cleanOcrText(r.text);
        outcomes.push({ page, status: OCR_STATUS.success, engine: s.engine, ms: Math.round(performance.now() - started), confidence: Math.round(r.confidence * 10) / 10, text, error: "" });
      } catch (e) {
        if (signal.aborted) throw e;
        const ms = Math.round(performance.now() - started);
        if (e instanceof EngineUnavailable) {
          // Missing language data or model: every page left would fail the same way.
          for (const p of pages.slice(i)) fail(p, e.message);
          break;
        }
        if (e instanceof ConvertError || e instanceof PageTimeout) fail(page, e.message, ms);
        else if (e instanceof PageError) fail(page, `识别失败：${message(e)}`, ms);
        else if (pageDeadline.aborted) fail(page, `第 ${page} 页渲染超时（超过 ${describeTimeout(s.timeoutMs)}）`, ms);
        else throw e;
      }
      progress(Math.round(((i + 1) / pages.length) * 100));
    }
    return done(id, job.id, doc.pages, outcomes);
  } finally {
    removeWorkDir(workDir);
  }
}

function done(id: number, jobId: number, pageCount: number, outcomes: PageOutcome[]) {
  const ok = outcomes.filter((o) => o.status === OCR_STATUS.success);
  const ms = outcomes.reduce((n, o) => n + o.ms, 0);
  log("info", "document ocr finished", { id, pages: outcomes.length, ok: ok.length, failed: outcomes.length - ok.length, ms });
  return {
    result: { document_id: id, pages: outcomes.length, done: ok.length, failed: outcomes.length - ok.length, ms },
    effects: () => void commitRun(id, jobId, pageCount, outcomes),
  };
}

registerJob(OCR_JOB, ocrJob, {
  timeoutMs: HARD_TIMEOUT_MS,
  concurrency: () => ocrSettings().concurrency,
  onExhausted: (job, error) => {
    const id = Number((JSON.parse(job.payload) as OcrPayload).document_id);
    const why = /[\u4e00-\u9fa5]/.test(error) && error !== "重试次数已用完" ? `（最后一次：${error.slice(0, 100)}）` : "";
    if (Number.isInteger(id) && id > 0) failRun(id, `识别进程 ${job.attempts} 次均未能完成${why}，可在 OCR 识别中重试`);
  },
});
