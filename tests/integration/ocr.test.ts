// OCR end to end with the real tools and engines: a scanned PDF (page images only) is converted,
// its pages recognised and committed with the search index, so /search finds a phrase of page 2
// on 第 2 页; a PDF with a text layer runs no OCR; a broken page image fails alone; the admin
// API lists runs and pages, retries failed pages and runs a document again, for admins only.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { enqueueConversion } from "#src/features/convert/enqueue.ts";
import { setDocumentsRoot } from "#src/features/documents/paths.ts";
import { getSqlite } from "#db/client.ts";
import { closeEngines, loadedEngines } from "#src/features/ocr/engines/pool.ts";
import { ocrJob } from "#src/features/ocr/job.ts";
import type { JobRow } from "#src/jobs/queue.ts";
import { ocrSettings } from "#src/features/ocr/config.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { addDocument, docRow } from "./convert-fixtures.ts";
import { breakImage, drainJobs, imagesPdf, ocrDoc, ocrJobsOf, ocrPages, pageText, PHYSICS, scanPages, setOcr, tempDir } from "./ocr-fixtures.ts";

const t = setupTestApp();
const dir = tempDir();
const PHRASE = "机械能守恒定律";
let scanned: { id: number; uuid: string };
let broken: { id: number };
let textLayer: { id: number };
let page: (n: number) => string;

beforeAll(async () => {
  setDocumentsRoot(join(dir, "documents"));
  // Few pages at 150 dpi: CI has two cores. The engine is the default one.
  setOcr({ enable: true, dpi: 150, max_pages: 10 });
  page = await scanPages(dir);
  const scan = await imagesPdf(dir, "scan.pdf", [page(1), page(2), page(3)]);
  const twoPages = breakImage(await imagesPdf(dir, "broken.pdf", [page(1), page(3)]), 2);
  scanned = addDocument(t.rootId, scan, "pdf", { title: "扫描版讲义" });
  broken = addDocument(t.rootId, twoPages, "pdf", { title: "损坏的扫描件" });
  textLayer = addDocument(t.rootId, new Uint8Array(await Bun.file(PHYSICS).arrayBuffer()), "pdf", { title: "有文字层的讲义" });
  for (const d of [scanned, broken, textLayer]) enqueueConversion(d.id);
  await drainJobs();
}, 240_000);

afterAll(async () => {
  await closeEngines();
  setDocumentsRoot(null);
  rmSync(dir, { recursive: true, force: true });
});

describe("a scanned PDF", () => {
  test("every page is recognised and committed with its numbers", () => {
    expect(docRow(scanned.id)).toMatchObject({ status: 2, pages: 3 });
    const engine = ocrSettings().engine;
    expect(ocrDoc(scanned.id)).toMatchObject({ status: 2, engine, pages: 3, done: 3, failed: 0, error: "" });
    expect(ocrDoc(scanned.id)!.confidence).toBeGreaterThan(50);
    for (const p of ocrPages(scanned.id)) {
      expect(p).toMatchObject({ status: 2, engine, error: "" });
      expect(p.chars).toBeGreaterThan(100);
      expect(p.ms).toBeGreaterThan(0);
    }
    expect(ocrJobsOf(scanned.id)).toMatchObject([{ status: "done", attempts: 1 }]);
    // One engine served every page of every document.
    expect(loadedEngines()).toBe(1);
  });

  test("page 2's text holds its phrase, without spaces between Han characters", () => {
    const text = pageText(scanned.id, 2);
    expect(text).toContain(PHRASE);
    expect(text).not.toMatch(/[\u4e00-\u9fff] [\u4e00-\u9fff]/);
    expect(pageText(scanned.id, 1)).not.toContain(PHRASE);
    // The conversion found nothing to describe the document with; the recognised text does.
    expect(docRow(scanned.id).description).not.toBe("");
  });

  test("/search finds the phrase on 第 2 页", async () => {
    const api = await t.req("GET", `/api/v1/search?wd=${encodeURIComponent(PHRASE)}`);
    expect(api.status).toBe(200);
    const hit = (api.body.document as { uuid: string; page: number }[]).find((d) => d.uuid === scanned.uuid);
    expect(hit?.page).toBe(2);
    const page = await t.req("GET", `/search?wd=${encodeURIComponent(PHRASE)}`, { headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(page.text).toContain("扫描版讲义");
    expect(page.text).toContain("第 2 页");
  });
});

test("a PDF with a text layer runs no OCR", () => {
  expect(docRow(textLayer.id)).toMatchObject({ status: 2, pages: 3 });
  expect(ocrDoc(textLayer.id)).toBeNull();
  expect(ocrPages(textLayer.id)).toEqual([]);
  expect(ocrJobsOf(textLayer.id)).toEqual([]);
});

test("a broken page image fails that page only, with the reason", () => {
  expect(docRow(broken.id)).toMatchObject({ status: 2, pages: 2 });
  const [good, bad] = ocrPages(broken.id);
  expect(good).toMatchObject({ page: 1, status: 2, error: "" });
  expect(pageText(broken.id, 1)).toContain("运动学");
  expect(bad).toMatchObject({ page: 2, status: 3, chars: 0 });
  expect(bad!.error).toContain("第 2 页图像已损坏，无法识别");
  expect(ocrDoc(broken.id)).toMatchObject({ status: 3, done: 1, failed: 1 });
  expect(ocrDoc(broken.id)!.error).toStartWith("1 页识别失败：第 2 页图像已损坏");
  expect(ocrJobsOf(broken.id)).toMatchObject([{ status: "done", attempts: 1 }]);
});

describe("admin API", () => {
  test("anonymous 401, member 403, on every route", async () => {
    const calls: [string, string, unknown?][] = [
      ["GET", "/api/v1/ocr/list"], ["GET", `/api/v1/ocr/pages?document_id=${scanned.id}`],
      ["POST", "/api/v1/ocr/retry", { document_id: [broken.id] }], ["POST", "/api/v1/ocr/redo", { document_id: [broken.id] }], ["POST", "/api/v1/ocr/scan"],
    ];
    for (const [method, path, body] of calls) {
      expect((await t.req(method, path, { body })).status).toBe(401);
      const member = await t.req(method, path, { body, token: t.userToken });
      expect(member.status).toBe(403);
      expect(member.body.message).toMatch(/[\u4e00-\u9fa5]/);
    }
  });

  test("lists runs with status filter and keyword, and a document's pages", async () => {
    const all = await t.req("GET", "/api/v1/ocr/list", { token: t.rootToken });
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(2);
    const failed = await t.req("GET", "/api/v1/ocr/list?status=3", { token: t.rootToken });
    expect(failed.body.ocr_document.map((r: { document_id: number }) => r.document_id)).toEqual([broken.id]);
    expect(failed.body.ocr_document[0]).toMatchObject({ title: "损坏的扫描件", status_label: "识别失败", done: 1, failed: 1, pages: 2 });
    const byTitle = await t.req("GET", `/api/v1/ocr/list?wd=${encodeURIComponent("讲义")}`, { token: t.rootToken });
    expect(byTitle.body.ocr_document.map((r: { document_id: number }) => r.document_id)).toEqual([scanned.id]);
    const pages = await t.req("GET", `/api/v1/ocr/pages?document_id=${broken.id}`, { token: t.rootToken });
    expect(pages.body.ocr_page.map((p: { page: number; status_label: string }) => [p.page, p.status_label])).toEqual([[1, "识别成功"], [2, "识别失败"]]);
    expect((await t.req("GET", `/api/v1/ocr/pages?document_id=${textLayer.id}`, { token: t.rootToken })).status).toBe(404);
    const bad = await t.req("GET", "/api/v1/ocr/list?status=9", { token: t.rootToken });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("识别状态只能是 0、1、2 或 3");
  });

  test("重试失败页 runs only the failed page again", async () => {
    const before = pageText(broken.id, 1);
    const r = await t.req("POST", "/api/v1/ocr/retry", { token: t.rootToken, body: { document_id: [broken.id, scanned.id] } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ queued: 1 });
    expect(ocrPages(broken.id).map((p) => p.status)).toEqual([2, 0]);
    await drainJobs();
    expect(ocrJobsOf(broken.id)).toHaveLength(2);
    expect(ocrPages(broken.id)).toMatchObject([{ page: 1, status: 2 }, { page: 2, status: 3 }]);
    expect(pageText(broken.id, 1)).toBe(before);
    const none = await t.req("POST", "/api/v1/ocr/retry", { token: t.rootToken, body: { document_id: [scanned.id] } });
    expect(none.status).toBe(400);
    expect(none.body.message).toBe("所选文档没有识别失败的页面");
  });

  test("重新识别 runs every page of the last run again, here with the other engine", async () => {
    const other = ocrSettings().engine === "paddle" ? "tesseract" : "paddle";
    setOcr({ engine: other });
    const r = await t.req("POST", "/api/v1/ocr/redo", { token: t.rootToken, body: { document_id: [broken.id] } });
    expect(r.status).toBe(200);
    expect(ocrDoc(broken.id)).toMatchObject({ status: 0, engine: other, pages: 2, done: 0, failed: 0 });
    await drainJobs();
    expect(ocrPages(broken.id)).toMatchObject([{ page: 1, status: 2, engine: other }, { page: 2, status: 3, engine: other }]);
    expect(pageText(broken.id, 1)).toContain("运动学");
    expect((await t.req("POST", "/api/v1/ocr/redo", { token: t.rootToken, body: { document_id: [textLayer.id] } })).status).toBe(400);
    expect((await t.req("POST", "/api/v1/ocr/redo", { token: t.rootToken, body: { document_id: [] } })).body.message).toBe("请选择要操作的文档");
  });

  test("an attempt cut off mid-run writes no text; the retry commits each page once", async () => {
    getSqlite().query("UPDATE document_page SET text = '' WHERE document_id = ? AND page = 1").run(broken.id);
    expect((await t.req("POST", "/api/v1/ocr/redo", { token: t.rootToken, body: { document_id: [broken.id] } })).status).toBe(200);
    const job = ocrJobsOf(broken.id).find((j) => j.status === "queued") as JobRow;
    // The worker's signal fires after page 1 (a lost lease, a shutdown): the attempt stops there.
    const ctrl = new AbortController();
    const attempt = ocrJob({ job, payload: JSON.parse(job.payload), signal: ctrl.signal, progress: () => (ctrl.abort(new Error("任务租约丢失")), true) });
    await expect(attempt).rejects.toThrow("任务租约丢失");
    expect(pageText(broken.id, 1)).toBe("");
    expect(ocrPages(broken.id).map((p) => p.status)).toEqual([1, 1]);
    await drainJobs();
    expect(pageText(broken.id, 1)).toContain("运动学");
    expect(ocrDoc(broken.id)).toMatchObject({ status: 3, pages: 2, done: 1, failed: 1 });
    expect(ocrPages(broken.id).map((p) => p.status)).toEqual([2, 3]);
  });

  test("识别已有文档 queues documents converted while OCR was off", async () => {
    setOcr({ enable: false });
    const late = addDocument(t.rootId, await imagesPdf(dir, "late.pdf", [page(3)]), "pdf", { title: "关闭 OCR 时上传的扫描件" });
    enqueueConversion(late.id);
    await drainJobs();
    expect(ocrDoc(late.id)).toBeNull();
    expect(pageText(late.id, 1)).toBe("");
    const r = await t.req("POST", "/api/v1/ocr/scan", { token: t.rootToken });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ queued: 1, message: "已将 1 篇含扫描页的文档加入识别队列" });
    await drainJobs();
    expect(ocrDoc(late.id)).toMatchObject({ status: 2, done: 1 });
    expect(pageText(late.id, 1)).toContain("电场");
    expect((await t.req("POST", "/api/v1/ocr/scan", { token: t.rootToken })).body).toMatchObject({ queued: 0, message: "没有找到尚未识别的扫描页" });
    setOcr({ enable: true });
  });

  test("the admin screen and the settings screen render", async () => {
    const page = await t.req("GET", "/admin/document/ocr", { token: t.rootToken, headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(page.text).toContain("损坏的扫描件");
    expect(page.text).toContain("重新识别此文档");
    const config = await t.req("GET", "/admin/config/ocr", { token: t.rootToken, headers: { accept: "text/html" } });
    expect(config.status).toBe(200);
    expect(config.text).toContain("OCR 设置");
    expect(config.text).toContain("单页识别超时");
  });
});
