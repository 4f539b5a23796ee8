// Broken and hostile input: every case ends as status 3 with a clear Chinese message, quickly,
// with no crash, no page rows and no work dir left behind.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { reconvert, reconvertFailed } from "#src/features/convert/service.ts";
import { sniffDocument } from "#src/features/convert/sniff.ts";
import { coverPath, pagesDir } from "#src/features/documents/paths.ts";
import { DOC_STATUS } from "#src/features/documents/status.ts";
import { getDb } from "#db/client.ts";
import { document } from "#db/schema/documents.ts";
import { and, eq, isNull } from "drizzle-orm";
import {
  addDocument, bombDocx, convert, derive, docRow, drainConversions, leftovers, manyPagesPdf, markedProcesses, pageRows, pendingConvertJobs, samples, setConverter, setupConvertTests,
} from "./convert-fixtures.ts";

let t: ReturnType<typeof setupConvertTests>;
beforeAll(() => {
  t = setupConvertTests();
});
afterAll(() => t.cleanup());

const failedIds = () => getDb().select({ id: document.id }).from(document).where(and(eq(document.status, DOC_STATUS.failed), isNull(document.deleted_at))).all().map((r) => r.id).sort((a, b) => a - b);
const pdfSample = () => new Uint8Array(readFileSync(join(samples, "高中物理公式.pdf")));

async function expectFailure(bytes: Uint8Array, ext: string, message: RegExp, maxMs = 10_000) {
  const doc = addDocument(t.owner.id, bytes, ext);
  const started = performance.now();
  const [job] = await convert([doc.id]);
  const ms = performance.now() - started;
  const row = docRow(doc.id);
  expect(row.status).toBe(DOC_STATUS.failed);
  expect(row.convert_error).toMatch(message);
  // A failure the file causes is final: the job is done (not retried), with the message as result.
  expect(job!.status).toBe("done");
  expect(job!.attempts).toBe(1);
  expect(pageRows(doc.id)).toEqual([]);
  expect([row.pages, row.preview, row.cover]).toEqual([0, 0, ""]);
  expect(existsSync(pagesDir(row.hash))).toBe(false);
  expect(existsSync(coverPath(row.hash))).toBe(false);
  expect(leftovers()).toEqual([]);
  expect(ms).toBeLessThan(maxMs);
  return row;
}

describe("hostile and broken input", () => {
  test("truncated PDF", async () => {
    const pdf = pdfSample();
    await expectFailure(pdf.subarray(0, Math.floor(pdf.length * 0.6)), "pdf", /^文件已损坏/);
  });

  test("password-protected PDF", async () => {
    const dir = join(t.dir, "enc");
    mkdirSync(dir);
    await Bun.write(join(dir, "in.pdf"), pdfSample());
    await derive(dir, ["mutool", "clean", "-E", "aes-256", "-U", "secret", "-O", "owner", "in.pdf", "out.pdf"]);
    await expectFailure(new Uint8Array(readFileSync(join(dir, "out.pdf"))), "pdf", /^文档已加密，无法转换$/);
  });

  test("a PDF with 10,000 pages is refused by max_pages without rendering", async () => {
    const row = await expectFailure(manyPagesPdf(10_000), "pdf", /^文档共 10000 页，超过允许的最大页数 3000 页$/, 3_000);
    expect(row.pages).toBe(0);
  });

  test("zip-bomb DOCX (300 MB of XML in 1 MB) is refused before LibreOffice inflates it", async () => {
    const bomb = await bombDocx(4300);
    expect(bomb.length).toBeLessThan(2 << 20);
    expect(sniffDocument(bomb, "bomb.docx")).toEqual({ ext: "docx", kind: "office" });
    await expectFailure(bomb, "docx", /疑似压缩炸弹/, 3_000);
  });

  test("zip-bomb DOCX under the size limit is cut off by converter.timeout, its soffice killed", async () => {
    // 100,000 paragraphs: LibreOffice needs ~30 s to lay them out; the limit here is 3 s.
    setConverter({ timeout: 0.05 });
    try {
      const row = await expectFailure(await bombDocx(100), "docx", /^转换超时（超过 3 秒）$/, 10_000);
      // Into the recycle bin: reconvertFailed() below skips it (it would take LibreOffice ~30 s).
      getDb().update(document).set({ deleted_at: Date.now() }).where(eq(document.id, row.id)).run();
    } finally {
      setConverter({ timeout: 30 });
    }
    // The killed soffice and its helpers are gone, not left running in the background.
    expect(markedProcesses(t.dir)).toEqual([]);
  }, 20_000);

  test("0-byte file", async () => {
    await expectFailure(new Uint8Array(), "pdf", /^文件为空（0 字节），无法转换$/);
  });

  test("an executable renamed .pdf", async () => {
    await expectFailure(new Uint8Array(readFileSync(process.execPath).subarray(0, 256 << 10)), "pdf", /^无法识别的文件格式/);
  });

  test("a corrupt DOCX (zip with garbage inside) fails in LibreOffice with a message", async () => {
    const docx = new Uint8Array(readFileSync(join(samples, "工作总结模板.docx")));
    const broken = docx.slice();
    broken.fill(0x41, 200, 3000);
    await expectFailure(broken, "docx", /LibreOffice|已损坏/, 20_000);
  }, 30_000);

  const toolMissing: number[] = [];
  test("a missing tool names the Debian package to install", async () => {
    const path = process.env.PATH;
    process.env.PATH = "/nonexistent";
    try {
      const pptx = new Uint8Array(readFileSync(join(samples, "产品介绍演示.pptx")));
      toolMissing.push((await expectFailure(pptx, "pptx", /^缺少转换工具 soffice，请安装 Debian 软件包 libreoffice-impress-nogui$/)).id);
      toolMissing.push((await expectFailure(pdfSample(), "pdf", /^缺少转换工具 pdfinfo，请安装 Debian 软件包 poppler-utils$/)).id);
    } finally {
      process.env.PATH = path;
    }
  });

  test("reconvertFailed() queues every failed document again; fixed tools make them convert", async () => {
    const failed = docRow(addDocument(t.owner.id, new Uint8Array(readFileSync(join(samples, "学习笔记.md"))), "md").id);
    const path = process.env.PATH;
    process.env.PATH = "/nonexistent";
    try {
      await convert([failed.id]);
    } finally {
      process.env.PATH = path;
    }
    expect(docRow(failed.id)).toMatchObject({ status: DOC_STATUS.failed, convert_error: expect.stringContaining("缺少转换工具") });
    expect(reconvert(failed.id)).toBe(true);
    expect(docRow(failed.id)).toMatchObject({ status: DOC_STATUS.reconvert, convert_error: "" });
    // Already queued: a second reconvert does not queue it twice.
    expect(reconvert(failed.id)).toBe(true);
    const failedBefore = failedIds();
    // Every failed document is queued once; the one already queued is not doubled.
    expect(reconvertFailed()).toBe(failedBefore.length);
    const pending = pendingConvertJobs().map((j) => JSON.parse(j.payload).document_id as number).sort((a, b) => a - b);
    expect(pending).toEqual([...failedBefore, failed.id].sort((a, b) => a - b));
    expect(failedIds()).toEqual([]);
    await drainConversions();
    // With the tools back, the documents that lacked them convert; the broken files fail again.
    for (const id of [failed.id, ...toolMissing]) expect(docRow(id)).toMatchObject({ status: DOC_STATUS.converted, convert_error: "" });
    expect(docRow(failed.id).pages).toBe(2);
    expect(failedIds()).toEqual(failedBefore.filter((id) => !toolMissing.includes(id)));
    expect(leftovers()).toEqual([]);
  }, 60_000);
});
