import { and, eq } from "drizzle-orm";
import { copyFileSync, existsSync, renameSync } from "node:fs";
import { join } from "node:path";
import { getDb } from "#db/client.ts";
import { document } from "#db/schema/documents.ts";
import { originalPath, pagePath } from "#src/features/documents/paths.ts";
import { pageFormat } from "#src/features/reader/reader.ts";
import { log } from "#src/http/requestLog.ts";
import { registerJob, type JobContext } from "#src/jobs/worker.ts";
import { RENDER_FULL_JOB, type RenderFullPayload } from "./enqueue.ts";
import { CONVERTER_SLOT, converterConcurrency, HARD_TIMEOUT_MS } from "./job.ts";
import { inspectPdf, renderPages, type PageExt } from "./pdf.ts";
import { converterSettings, sourcePdf } from "./pipeline.ts";
import { conversionPending } from "./service.ts";
import { loadDocument } from "./store.ts";
import { ConvertError, describeTimeout, type RunOptions } from "./tools.ts";
import { openWorkDir, removeWorkDir } from "./workdir.ts";

// Pages past the preview get images only once someone may read them (issue 10: a bought document's
// full preview is the buyer's for good), since most documents are never bought. The job renders
// what is missing from the shared pages folder with the conversion's own steps and tools, moving
// each finished page in at once: an attempt that dies (kill -9, time-out, lost lease) keeps the
// pages it finished and the retry renders only the rest.

/** Pages per mutool run: each batch lands on disk before the next starts, and reports progress. */
const BATCH = 20;

interface Format { ext: PageExt; gzip: boolean }

/** The format the conversion used is a property of the files on disk (converter.extension may have changed since). */
function formatOnDisk(hash: string): Format {
  const f = pageFormat(hash);
  if (f === ".gzip.svg") return { ext: ".svg", gzip: true };
  if (f) return { ext: f, gzip: false };
  const s = converterSettings();
  return { ext: s.extension, gzip: s.extension === ".svg" && s.gzip };
}

/** Every file the conversion writes for a page is there (the SVG and its gzip copy, when gzipped). */
const onDisk = (hash: string, page: number, f: Format) =>
  existsSync(pagePath(hash, page, f.ext)) && (!f.gzip || existsSync(pagePath(hash, page, ".svg", true)));

const missingPages = (hash: string, from: number, to: number, f: Format) => {
  const out: number[] = [];
  for (let n = from; n <= to; n++) if (!onDisk(hash, n, f)) out.push(n);
  return out;
};

/** A page file appears whole or not at all, also when the work dir is on another file system. */
function place(from: string, to: string) {
  try {
    renameSync(from, to);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EXDEV") throw e;
    copyFileSync(from, `${to}.part`);
    renameSync(`${to}.part`, to);
  }
}

/**
 * In the completion transaction: the count goes up only while every page is still on disk in the
 * format page 1 has — a conversion that finished meanwhile replaced the folder and reset the count,
 * and must not be overruled. Same-file documents share the folder, so they are done too.
 */
function markRendered(hash: string, pages: number, preview: number, f: Format) {
  if (!existsSync(pagePath(hash, 1, f.ext, f.gzip)) || missingPages(hash, preview + 1, pages, f).length) {
    log("warn", "full page render outdated by a conversion", { hash });
    return;
  }
  getDb().update(document).set({ rendered_pages: pages })
    .where(and(eq(document.hash, hash), eq(document.pages, pages), eq(document.preview, preview))).run();
}

export async function renderFullJob({ job, payload, progress, signal }: JobContext) {
  const id = Number((payload as RenderFullPayload).document_id);
  const doc = loadDocument(id);
  if (!doc || doc.deleted_at !== null || doc.pages < 1 || doc.convert_error) return { result: { document_id: id, skipped: "no converted document" } };
  // A conversion on its way replaces the pages folder: the reader asks again once it is done.
  if (conversionPending(id)) return { result: { document_id: id, skipped: "conversion pending" } };
  if (Math.max(doc.preview, doc.rendered_pages) >= doc.pages) return { result: { document_id: id, skipped: "already rendered" } };

  const format = formatOnDisk(doc.hash);
  const missing = missingPages(doc.hash, doc.preview + 1, doc.pages, format);
  const started = performance.now();
  if (missing.length) {
    const settings = converterSettings();
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new Error("converter.timeout")), settings.timeoutMs);
    // Keyed by document, not job: a later job for the same document clears what an earlier one left.
    const workDir = openWorkDir(`full-${id}`, job.attempts);
    const ro: RunOptions = { signal: AbortSignal.any([signal, deadline.signal]), workDir };
    try {
      const { pdf } = await sourcePdf(originalPath(doc.hash, doc.ext), doc.ext, ro);
      const info = await inspectPdf(pdf, ro);
      if (info.pages !== doc.pages) {
        throw new ConvertError(`重新生成的 PDF 共 ${info.pages} 页，与转换时的 ${doc.pages} 页不一致，请重新转换该文档`);
      }
      const out = join(workDir, "pages");
      for (let i = 0; i < missing.length; i += BATCH) {
        const batch = missing.slice(i, i + BATCH);
        await renderPages(pdf, batch, format.ext, format.gzip, out, ro);
        for (const n of batch) {
          if (format.gzip) place(join(out, `${n}.gzip.svg`), pagePath(doc.hash, n, ".svg", true));
          place(join(out, `${n}${format.ext}`), pagePath(doc.hash, n, format.ext));
        }
        progress(Math.round(((i + batch.length) / missing.length) * 100));
      }
    } catch (e) {
      // Lost lease, shutdown, the worker's limit or converter.timeout: the queue retries, and the
      // retry starts where this attempt stopped.
      if (signal.aborted) throw e;
      if (deadline.signal.aborted) throw new Error(`生成全部页面超时（超过 ${describeTimeout(settings.timeoutMs)}），稍后继续`);
      if (!(e instanceof ConvertError)) throw e;
      // A broken or vanished original, a missing tool: another attempt would end the same way.
      log("warn", "full page render failed", { id, error: e.message });
      return { result: { document_id: id, error: e.message } };
    } finally {
      clearTimeout(timer);
      removeWorkDir(workDir);
    }
  }
  const ms = Math.round(performance.now() - started);
  log("info", "document pages rendered", { id, pages: doc.pages, rendered: missing.length, ms });
  const { hash, pages, preview } = doc;
  return {
    result: { document_id: id, pages, rendered: missing.length, ms },
    effects: () => markRendered(hash, pages, preview, format),
  };
}

registerJob(RENDER_FULL_JOB, renderFullJob, {
  timeoutMs: HARD_TIMEOUT_MS,
  concurrency: converterConcurrency,
  slot: CONVERTER_SLOT,
});
