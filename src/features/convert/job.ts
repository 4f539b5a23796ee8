import { statSync } from "node:fs";
import { originalPath } from "#src/features/documents/paths.ts";
import { log } from "#src/http/requestLog.ts";
import { registerJob, type JobContext } from "#src/jobs/worker.ts";
import { setting } from "#src/features/settings/service.ts";
import { CONVERT_JOB, type ConvertPayload } from "./enqueue.ts";
import { convertFile, converterSettings, publish } from "./pipeline.ts";
import { conversionPending } from "./service.ts";
import { applyExhausted, applyFailure, applySuccess, findReusable, loadDocument, markConverting, pageTextsOf } from "./store.ts";
import { prepareText } from "./textWork.ts";
import { ConvertError, describeTimeout } from "./tools.ts";
import { openWorkDir, removeWorkDirAsync } from "./workdir.ts";

// The conversion job (design.md §6): durable, retried after a crash, committed exactly once.
// Outcomes a retry cannot change (broken file, encrypted, too many pages, timeout, missing tool)
// end the document as failed (3) with a Chinese message; only an unexpected error on a first
// attempt, or an abort by the worker itself (lost lease, shutdown), leaves the job to be retried.

// The worker's own hard limit; converter.timeout (at most 600 minutes) applies inside.
export const HARD_TIMEOUT_MS = 601 * 60_000;

/** converter.concurrency: conversions and full-page renders (renderFull.ts) share these slots. */
export const CONVERTER_SLOT = "converter";
export const converterConcurrency = () => Math.max(1, Math.floor(Number(setting("converter", "concurrency")) || 1));

const toolError = (e: unknown) => String((e as Error)?.message ?? e).slice(0, 200);

export async function convertJob({ job, payload, progress, signal }: JobContext) {
  const { document_id: id, fresh } = payload as ConvertPayload;
  const doc = loadDocument(Number(id));
  if (!doc) return { result: { skipped: "document not found" } };
  const settings = converterSettings();
  markConverting(doc.id);

  if (!fresh) {
    const source = findReusable(doc, settings.extension);
    if (source) {
      const rows = pageTextsOf(source.id);
      const texts = Array.from({ length: source.pages }, (_, i) => rows[i] ?? "");
      // From the file's text, not from the other uploader's own words; computed outside the commit,
      // off the event loop, with the index's segmentation.
      const { description, keywords, pre } = await prepareText(texts, doc);
      return {
        result: { document_id: doc.id, reused: source.id, pages: source.pages },
        effects: () => applySuccess(doc.id, {
          pages: source.pages, preview: source.preview, width: source.width, height: source.height, size: source.size,
          texts, description, keywords, rendered: Math.max(source.preview, source.rendered_pages), pre,
        }),
      };
    }
  }

  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new Error("converter.timeout")), settings.timeoutMs);
  const workDir = openWorkDir(job.id, job.attempts);
  const started = performance.now();
  try {
    const src = originalPath(doc.hash, doc.ext);
    const out = await convertFile(src, {
      hint: doc.ext, workDir, settings, signal: AbortSignal.any([signal, deadline.signal]),
      progress: (pct) => void progress(pct),
      // Keywords, description and the search index's segmentation, in a Worker thread (textWork.ts).
      prepare: (texts) => prepareText(texts, doc),
    });
    const { description, keywords, pre } = out.prepared ?? await prepareText(out.texts, doc);
    const t = performance.now();
    await publish(doc.hash, out);
    out.timings.publish = Math.round(performance.now() - t);
    const size = statSync(src).size;
    log("info", "document converted", { id: doc.id, type: out.type.ext, pages: out.pages, preview: out.preview, ms: Math.round(performance.now() - started), ...out.timings });
    return {
      result: { document_id: doc.id, pages: out.pages, preview: out.preview, ms: Math.round(performance.now() - started), timings: out.timings },
      effects: () => applySuccess(doc.id, { ...out, size, description, keywords, pre }),
    };
  } catch (e) {
    // The worker aborted us (lease lost, shutdown, its hard limit): not the document's fault, retry.
    if (signal.aborted) throw e;
    let message: string;
    if (deadline.signal.aborted) message = `转换超时（超过 ${describeTimeout(settings.timeoutMs)}）`;
    else if (e instanceof ConvertError) message = e.message;
    else if (job.attempts < job.max_attempts) throw e;
    else message = `转换失败：${toolError(e)}`;
    log("warn", "document conversion failed", { id: doc.id, error: message });
    return { result: { document_id: doc.id, error: message }, effects: () => applyFailure(doc.id, message) };
  } finally {
    clearTimeout(timer);
    await removeWorkDirAsync(workDir);
  }
}

/** The reason shown to the uploader and in the back office when every attempt died or timed out. */
export function exhaustedMessage(attempts: number, error: string): string {
  const why = /[\u4e00-\u9fa5]/.test(error) && error !== "重试次数已用完" ? `（最后一次：${error.slice(0, 100)}）` : "";
  return `转换失败：转换进程 ${attempts} 次均未能完成（可能是文件过大、格式异常或转换工具崩溃）${why}，请检查文件后重新上传，或联系管理员重新转换`;
}

registerJob(CONVERT_JOB, convertJob, {
  onExhausted: (job, error) => {
    const id = Number((JSON.parse(job.payload) as ConvertPayload).document_id);
    if (Number.isInteger(id) && id > 0) applyExhausted(id, exhaustedMessage(job.attempts, error), conversionPending);
  },
  timeoutMs: HARD_TIMEOUT_MS,
  concurrency: converterConcurrency,
  slot: CONVERTER_SLOT,
});
