// documents.render_full with the real tools: pages past the preview rendered from the stored
// original in the conversion's format (PDF with mutool; an office original through LibreOffice
// again), resumable after an interrupted attempt, sharing converter.concurrency and
// converter.timeout with conversions, reset by a reconversion, inherited by same-file uploads.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq, inArray, sql } from "drizzle-orm";
import { existsSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { getDb } from "#db/client.ts";
import { document } from "#db/schema/documents.ts";
import { jobs } from "#db/schema/jobs.ts";
import { CONVERT_JOB, enqueueConversion, RENDER_FULL_JOB, requestFullRender } from "#src/features/convert/enqueue.ts";
import { pageRanges } from "#src/features/convert/pdf.ts";
import { renderFullJob } from "#src/features/convert/renderFull.ts";
import { reconvert } from "#src/features/convert/service.ts";
import { toolRuns } from "#src/features/convert/tools.ts";
import { pagePath, pagesDir } from "#src/features/documents/paths.ts";
import { enqueue, type JobRow } from "#src/jobs/queue.ts";
import { startWorker } from "#src/jobs/worker.ts";
import { addDocument, convert, docRow, drainConversions, leftovers, manyPagesPdf, samples, setConverter, setupConvertTests } from "./convert-fixtures.ts";

let t: ReturnType<typeof setupConvertTests>;
beforeAll(() => {
  t = setupConvertTests();
  setConverter({ max_preview: 1, extension: ".svg", enable_gzip: true, concurrency: 1, timeout: 30 });
});
afterAll(() => t.cleanup());

const sample = (name: string) => new Uint8Array(readFileSync(join(samples, name)));
/** The same PDF with other bytes (a trailing comment): another MD5, so no same-file reuse. */
const variant = (bytes: Uint8Array, tag: string) => new Uint8Array([...bytes, ...new TextEncoder().encode(`\n%${tag}\n`)]);
const renderJobs = (id: number) => getDb().select().from(jobs)
  .where(and(eq(jobs.kind, RENDER_FULL_JOB), sql`json_extract(${jobs.payload}, '$.document_id') = ${id}`)).orderBy(jobs.id).all();
const lastResult = (id: number) => JSON.parse(renderJobs(id).at(-1)!.result || "null");
const files = (hash: string) => (existsSync(pagesDir(hash)) ? readdirSync(pagesDir(hash)).sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10) || a.localeCompare(b)) : []);
const pendingRenders = () => getDb().select({ id: jobs.id }).from(jobs).where(and(eq(jobs.kind, RENDER_FULL_JOB), inArray(jobs.status, ["queued", "running"]))).all();

/** Runs a worker until no full render is waiting or running (backoffs included). */
async function drainRenders(timeoutMs = 120_000) {
  const worker = startWorker({ concurrency: 4, pollMs: 20 });
  const deadline = Date.now() + timeoutMs;
  try {
    while (pendingRenders().length) {
      if (Date.now() > deadline) throw new Error("full renders did not finish in time");
      await Bun.sleep(25);
    }
  } finally {
    await worker.stop();
  }
}

/** Converts a new document from `bytes` (preview 1) and checks only the preview was rendered. */
async function converted(bytes: Uint8Array, ext: string) {
  const d = addDocument(t.owner.id, bytes, ext);
  await convert([d.id]);
  const row = docRow(d.id);
  expect(row).toMatchObject({ status: 2, preview: 1, rendered_pages: 1 });
  return row;
}

test("pageRanges: mutool's page list in runs", () => {
  expect(pageRanges([1])).toBe("1");
  expect(pageRanges([2, 3, 4, 7, 9, 10])).toBe("2-4,7,9-10");
  expect(pageRanges([])).toBe("");
});

describe("rendering the pages past the preview", () => {
  test("a PDF: the remaining pages with mutool, SVG plus gzip copies as converted, in one batch", async () => {
    const d = await converted(sample("高中物理公式.pdf"), "pdf");
    expect(d.pages).toBe(3);
    expect(files(d.hash)).toEqual(["1.gzip.svg", "1.svg"]);
    const before = { ...toolRuns };
    expect(requestFullRender(d.id)).toBe(true);
    expect(requestFullRender(d.id)).toBe(false);
    await drainRenders();
    expect(renderJobs(d.id)).toMatchObject([{ status: "done", attempts: 1 }]);
    expect(lastResult(d.id)).toMatchObject({ document_id: d.id, pages: 3, rendered: 2 });
    expect(docRow(d.id).rendered_pages).toBe(3);
    expect(files(d.hash)).toEqual(["1.gzip.svg", "1.svg", "2.gzip.svg", "2.svg", "3.gzip.svg", "3.svg"]);
    for (const n of [2, 3]) {
      const svg = readFileSync(pagePath(d.hash, n, ".svg"));
      expect(svg.toString("utf8", 0, 400)).toContain("<svg");
      expect(svg.length).toBeGreaterThan(2000);
      expect(Bun.gunzipSync(readFileSync(pagePath(d.hash, n, ".svg", true)))).toEqual(new Uint8Array(svg));
    }
    // A PDF needs no LibreOffice; one mutool run drew both pages.
    expect((toolRuns.mutool ?? 0) - (before.mutool ?? 0)).toBe(1);
    expect(toolRuns.soffice ?? 0).toBe(before.soffice ?? 0);
    expect(leftovers()).toEqual([]);
    // Done: nothing more to queue.
    expect(requestFullRender(d.id)).toBe(false);
  });

  test("resumable: pages already on disk are kept, only the missing ones drawn; none missing runs no tool", async () => {
    const d = await converted(variant(sample("高中物理公式.pdf"), "resume"), "pdf");
    requestFullRender(d.id);
    await drainRenders();
    const page2 = statSync(pagePath(d.hash, 2, ".svg"));
    rmSync(pagePath(d.hash, 3, ".svg"));
    getDb().update(document).set({ rendered_pages: 1 }).where(eq(document.id, d.id)).run();
    requestFullRender(d.id);
    await drainRenders();
    expect(lastResult(d.id)).toMatchObject({ rendered: 1 });
    expect(statSync(pagePath(d.hash, 2, ".svg"))).toMatchObject({ ino: page2.ino, mtimeMs: page2.mtimeMs });
    expect(existsSync(pagePath(d.hash, 3, ".svg"))).toBe(true);
    expect(docRow(d.id).rendered_pages).toBe(3);

    getDb().update(document).set({ rendered_pages: 1 }).where(eq(document.id, d.id)).run();
    const before = { ...toolRuns };
    requestFullRender(d.id);
    await drainRenders();
    expect(lastResult(d.id)).toMatchObject({ rendered: 0 });
    expect(toolRuns).toEqual(before);
    expect(docRow(d.id).rendered_pages).toBe(3);
  });

  test("an attempt stopped midway keeps its finished pages; the retry draws only the rest", async () => {
    const d = await converted(manyPagesPdf(120), "pdf");
    requestFullRender(d.id);
    const worker = startWorker({ concurrency: 1, pollMs: 20, stopGraceMs: 0 });
    const deadline = Date.now() + 60_000;
    // Stop (abort) the worker as soon as the first batch has landed in the pages folder.
    while (files(d.hash).filter((f) => f.endsWith(".gzip.svg")).length < 2) {
      if (Date.now() > deadline) throw new Error("no page rendered");
      await Bun.sleep(5);
    }
    await worker.stop();
    const job = renderJobs(d.id)[0]!;
    expect(job).toMatchObject({ status: "queued", attempts: 1 });
    expect(docRow(d.id).rendered_pages).toBe(1);
    const kept = files(d.hash).filter((f) => /^\d+\.svg$/.test(f) && f !== "1.svg");
    expect(kept.length).toBeGreaterThanOrEqual(1);
    expect(kept.length).toBeLessThan(119);
    const stamps = Object.fromEntries(kept.map((f) => [f, statSync(join(pagesDir(d.hash), f)).mtimeMs]));
    await drainRenders();
    expect(renderJobs(d.id)).toMatchObject([{ status: "done", attempts: 2 }]);
    expect(lastResult(d.id).rendered).toBe(119 - kept.length);
    for (const [f, mtime] of Object.entries(stamps)) expect(statSync(join(pagesDir(d.hash), f)).mtimeMs).toBe(mtime);
    for (let n = 1; n <= 120; n++) expect(existsSync(pagePath(d.hash, n, ".svg", true))).toBe(true);
    expect(docRow(d.id).rendered_pages).toBe(120);
    expect(leftovers()).toEqual([]);
  }, 120_000);

  test("an office original: the PDF is made again with LibreOffice, then the remaining pages drawn", async () => {
    const d = await converted(sample("工作总结模板.docx"), "docx");
    expect(d.pages).toBe(3);
    const before = toolRuns.soffice ?? 0;
    requestFullRender(d.id);
    await drainRenders();
    expect(toolRuns.soffice).toBe(before + 1);
    expect(lastResult(d.id)).toMatchObject({ pages: 3, rendered: 2 });
    expect(docRow(d.id).rendered_pages).toBe(3);
    expect(statSync(pagePath(d.hash, 3, ".svg")).size).toBeGreaterThan(2000);
    expect(leftovers()).toEqual([]);
  }, 60_000);

  test("the format is the one the conversion left on disk, whatever converter.extension says now", async () => {
    setConverter({ extension: ".png" });
    const d = await converted(variant(sample("高中物理公式.pdf"), "png"), "pdf");
    setConverter({ extension: ".svg" });
    requestFullRender(d.id);
    await drainRenders();
    expect(files(d.hash)).toEqual(["1.png", "2.png", "3.png"]);
    expect(readFileSync(pagePath(d.hash, 3, ".png")).subarray(1, 4).toString()).toBe("PNG");
    expect(docRow(d.id).rendered_pages).toBe(3);
  });

  test("a reconversion resets the count and the files for every document of the file; a same-file upload inherits a full render", async () => {
    const bytes = variant(sample("高中物理公式.pdf"), "reconvert");
    const a = await converted(bytes, "pdf");
    const b = addDocument(t.owner.id, bytes, "pdf");
    await convert([b.id]);
    requestFullRender(a.id);
    await drainRenders();
    // One render serves every document made from the same file.
    expect([docRow(a.id).rendered_pages, docRow(b.id).rendered_pages]).toEqual([3, 3]);
    const c = addDocument(t.owner.id, bytes, "pdf");
    await convert([c.id]);
    expect(docRow(c.id)).toMatchObject({ preview: 1, rendered_pages: 3 });

    expect(reconvert(a.id)).toBe(true);
    await drainConversions();
    expect([docRow(a.id).rendered_pages, docRow(b.id).rendered_pages, docRow(c.id).rendered_pages]).toEqual([1, 1, 1]);
    expect(files(a.hash)).toEqual(["1.gzip.svg", "1.svg"]);
    expect(requestFullRender(c.id)).toBe(true);
    await drainRenders();
    expect(docRow(a.id).rendered_pages).toBe(3);
  }, 60_000);

  test("a render skips while a conversion of the document is queued; one finished under a reconversion does not count", async () => {
    const d = await converted(variant(sample("高中物理公式.pdf"), "race"), "pdf");
    const later = enqueue(CONVERT_JOB, { document_id: d.id, fresh: true }, { runAfter: Date.now() + 3600_000 });
    requestFullRender(d.id);
    await drainRenders();
    expect(lastResult(d.id)).toEqual({ document_id: d.id, skipped: "conversion pending" });
    getDb().delete(jobs).where(eq(jobs.id, later.id)).run();

    // The pages are drawn, then a reconversion replaces the folder before the render commits.
    const ctx = { job: { id: -1, attempts: 1 } as JobRow, payload: { document_id: d.id }, progress: () => true, signal: new AbortController().signal };
    const out = await renderFullJob(ctx);
    expect(existsSync(pagePath(d.hash, 3, ".svg"))).toBe(true);
    reconvert(d.id);
    await drainConversions();
    out!.effects!();
    expect(docRow(d.id).rendered_pages).toBe(1);
    expect(files(d.hash)).toEqual(["1.gzip.svg", "1.svg"]);
  }, 60_000);

  test("conversions and full renders share converter.concurrency", async () => {
    const docs = [await converted(variant(sample("高中物理公式.pdf"), "slot1"), "pdf"), await converted(variant(sample("高中物理公式.pdf"), "slot2"), "pdf")];
    const other = addDocument(t.owner.id, variant(sample("高中物理公式.pdf"), "slot3"), "pdf");
    enqueueConversion(other.id);
    for (const d of docs) requestFullRender(d.id);
    const worker = startWorker({ concurrency: 4, pollMs: 10 });
    let most = 0;
    try {
      const running = () => getDb().select({ id: jobs.id }).from(jobs).where(and(inArray(jobs.kind, [CONVERT_JOB, RENDER_FULL_JOB]), eq(jobs.status, "running"))).all().length;
      const deadline = Date.now() + 60_000;
      while (pendingRenders().length || running()) {
        most = Math.max(most, running());
        if (Date.now() > deadline) throw new Error("jobs did not finish in time");
        await Bun.sleep(2);
      }
    } finally {
      await worker.stop();
    }
    expect(most).toBe(1);
    for (const d of docs) expect(docRow(d.id).rendered_pages).toBe(3);
  }, 60_000);

  test("converter.timeout ends an attempt, which the queue retries; a page count that changed is final", async () => {
    const d = await converted(variant(sample("工作总结模板.docx"), "timeout"), "docx");
    setConverter({ timeout: 0.001 });
    requestFullRender(d.id);
    const worker = startWorker({ concurrency: 1, pollMs: 20 });
    try {
      const deadline = Date.now() + 30_000;
      while (renderJobs(d.id)[0]!.attempts < 1 || renderJobs(d.id)[0]!.status === "running") {
        if (Date.now() > deadline) throw new Error("the attempt did not end");
        await Bun.sleep(10);
      }
    } finally {
      await worker.stop();
    }
    expect(renderJobs(d.id)[0]).toMatchObject({ status: "queued", attempts: 1 });
    expect(renderJobs(d.id)[0]!.error).toMatch(/^生成全部页面超时（超过 1 秒）/);
    expect(docRow(d.id).rendered_pages).toBe(1);
    expect(leftovers()).toEqual([]);
    setConverter({ timeout: 30 });
    await drainRenders();
    expect(renderJobs(d.id)[0]).toMatchObject({ status: "done", attempts: 2 });
    expect(docRow(d.id).rendered_pages).toBe(3);

    // The original no longer gives the pages it was converted with: said once, not retried, not re-queued.
    const pdf = await converted(variant(sample("高中物理公式.pdf"), "mismatch"), "pdf");
    getDb().update(document).set({ pages: 5 }).where(eq(document.id, pdf.id)).run();
    requestFullRender(pdf.id);
    await drainRenders();
    expect(renderJobs(pdf.id)).toMatchObject([{ status: "done", attempts: 1 }]);
    expect(lastResult(pdf.id).error).toBe("重新生成的 PDF 共 3 页，与转换时的 5 页不一致，请重新转换该文档");
    expect(docRow(pdf.id).rendered_pages).toBe(1);
    expect(requestFullRender(pdf.id)).toBe(false);
  }, 60_000);
});
