// Shared set-up for the OCR tests: scanned PDFs built here from a sample with the real tools
// (pdftoppm draws each page as a grey JPEG, mutool binds the JPEGs into a PDF without a text
// layer), documents stored the way an upload stores them, and a worker running the real
// conversion and OCR jobs until both queues are empty.
import { and, inArray } from "drizzle-orm";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getDb, getSqlite } from "#db/client.ts";
import { jobs } from "#db/schema/jobs.ts";
import { CONVERT_JOB } from "#src/features/convert/enqueue.ts";
import { OCR_JOB } from "#src/features/ocr/enqueue.ts";
import { invalidateSettings } from "#src/features/settings/service.ts";
import { startWorker } from "#src/jobs/worker.ts";
import "#src/features/convert/job.ts";
import "#src/features/ocr/job.ts";
import { derive, samples } from "./convert-fixtures.ts";

export const PHYSICS = join(samples, "高中物理公式.pdf");

/** Pages of the sample as 150 dpi grey JPEGs in `dir`: s-1.jpg … s-3.jpg. */
export async function scanPages(dir: string) {
  await derive(dir, ["pdftoppm", "-r", "150", "-gray", "-jpeg", PHYSICS, "s"]);
  return (n: number) => join(dir, `s-${n}.jpg`);
}

/** A PDF made only of the given page images (no text layer), as bytes. */
export async function imagesPdf(dir: string, name: string, images: string[]): Promise<Uint8Array> {
  await derive(dir, ["mutool", "convert", "-o", join(dir, name), ...images]);
  return new Uint8Array(readFileSync(join(dir, name)));
}

/** The same PDF with the JPEG data of its `nth` image (1-based) overwritten: that page cannot be drawn. */
export function breakImage(pdf: Uint8Array, nth: number): Uint8Array {
  const out = new Uint8Array(pdf);
  let seen = 0;
  for (let i = 0; i < out.length - 3; i++) {
    if (out[i] !== 0xff || out[i + 1] !== 0xd8 || out[i + 2] !== 0xff || ++seen < nth) continue;
    out.fill(0x41, i, i + 4000);
    return out;
  }
  throw new Error(`no JPEG number ${nth} in the PDF`);
}

export const tempDir = () => mkdtempSync(join(tmpdir(), "wk-ocr-"));

export function setOcr(values: Record<string, string | number | boolean>) {
  const q = getSqlite().query("INSERT INTO config (category, name, value) VALUES ('ocr', ?, ?) ON CONFLICT(category, name) DO UPDATE SET value = excluded.value");
  for (const [k, v] of Object.entries(values)) q.run(k, String(v));
  invalidateSettings();
}

const busy = () => getDb().select({ id: jobs.id }).from(jobs)
  .where(and(inArray(jobs.kind, [CONVERT_JOB, OCR_JOB]), inArray(jobs.status, ["queued", "running"]))).all();

/** Runs a worker until no conversion or OCR job is waiting or running. */
export async function drainJobs(timeoutMs = 180_000) {
  const worker = startWorker({ concurrency: 2, pollMs: 20 });
  const deadline = Date.now() + timeoutMs;
  try {
    while (busy().length) {
      if (Date.now() > deadline) throw new Error("conversion and OCR jobs did not finish in time");
      await Bun.sleep(25);
    }
  } finally {
    await worker.stop();
  }
}

export const ocrDoc = (id: number) => getSqlite().query("SELECT * FROM ocr_document WHERE document_id = ?").get(id) as Record<string, any> | null;
export const ocrPages = (id: number) => getSqlite().query("SELECT * FROM ocr_page WHERE document_id = ? ORDER BY page").all(id) as Record<string, any>[];
export const ocrJobsOf = (id: number) => getSqlite().query("SELECT * FROM jobs WHERE kind = ? AND json_extract(payload, '$.document_id') = ?").all(OCR_JOB, id) as Record<string, any>[];
export const pageText = (id: number, page: number) => (getSqlite().query("SELECT text FROM document_page WHERE document_id = ? AND page = ?").get(id, page) as { text: string } | null)?.text ?? "";
