// Every supported format through the real conversion job and the real tools: the committed samples
// (PDF, DOCX, PPTX, XLSX, GBK TXT, EPUB, Markdown, PNG) and formats derived from them here (DOC, ODT,
// RTF, PPT, ODP, XLS, ODS, MOBI, AZW3, JPG, GIF, WebP, UTF-8 and GB18030 text).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { toolRuns } from "#src/features/convert/tools.ts";
import { coverPath, pagePath, pagesDir } from "#src/features/documents/paths.ts";
import { DOC_STATUS } from "#src/features/documents/status.ts";
import { addDocument, convert, derive, docRow, leftovers, pageRows, samples, setConverter, setupConvertTests, soffice } from "./convert-fixtures.ts";

let t: ReturnType<typeof setupConvertTests>;

// A sample file or a maker that derives one in `dir`; the stored extension; the page count (0: more
// than one, for ebook conversions whose pagination Calibre decides); a phrase per page (0: any page).
type Case = { name: string; file: string | ((dir: string) => Promise<string>); ext: string; pages: number; phrases: Record<number, string>; path?: string; id?: number };
const S = (f: string) => join(samples, f);
const image = (ext: "jpg" | "gif" | "webp") => async (d: string) => {
  const s = sharp(S("请假审批流程图.png"));
  await (ext === "jpg" ? s.jpeg() : ext === "gif" ? s.gif() : s.webp()).toFile(join(d, `flow.${ext}`));
  return join(d, `flow.${ext}`);
};
const ebook = (ext: string) => async (d: string) => {
  await derive(d, ["ebook-convert", S("公司规章制度.epub"), join(d, `rules.${ext}`)]);
  return join(d, `rules.${ext}`);
};
const poemsGbk = () => readFileSync(S("古诗词选.txt"));
const cases: Case[] = [
  { name: "PDF", file: S("高中物理公式.pdf"), ext: "pdf", pages: 3, phrases: { 1: "匀变速直线运动", 2: "动能定理", 3: "库仑定律" } },
  { name: "DOCX", file: S("工作总结模板.docx"), ext: "docx", pages: 3, phrases: { 1: "年度工作总结", 2: "主要工作成绩", 3: "下一年度工作计划" } },
  { name: "PPTX", file: S("产品介绍演示.pptx"), ext: "pptx", pages: 4, phrases: { 1: "智慧文库产品介绍", 2: "产品定位", 3: "核心功能", 4: "联系我们" } },
  { name: "XLSX", file: S("销售数据表.xlsx"), ext: "xlsx", pages: 2, phrases: { 1: "华东地区", 2: "产品销售明细" } },
  { name: "TXT (GBK)", file: S("古诗词选.txt"), ext: "txt", pages: 3, phrases: { 1: "床前明月光，疑是地上霜。", 2: "两个黄鹂鸣翠柳", 3: "但愿人长久，千里共婵娟" } },
  { name: "EPUB", file: S("公司规章制度.epub"), ext: "epub", pages: 5, phrases: { 1: "公司规章制度", 2: "第一章", 3: "考勤管理", 4: "薪酬福利", 5: "第四章" } },
  { name: "Markdown", file: S("学习笔记.md"), ext: "md", pages: 2, phrases: { 1: "计算机网络学习笔记", 2: "常用命令" } },
  { name: "PNG", file: S("请假审批流程图.png"), ext: "png", pages: 1, phrases: {} },
  { name: "DOC", file: (d) => soffice(d, S("工作总结模板.docx"), "doc:MS Word 97"), ext: "doc", pages: 3, phrases: { 2: "主要工作成绩", 3: "下一年度工作计划" } },
  { name: "ODT", file: (d) => soffice(d, S("工作总结模板.docx"), "odt"), ext: "odt", pages: 3, phrases: { 1: "年度工作总结", 3: "存在问题与改进措施" } },
  { name: "RTF", file: (d) => soffice(d, S("工作总结模板.docx"), "rtf"), ext: "rtf", pages: 3, phrases: { 2: "主要工作成绩" } },
  { name: "PPT", file: (d) => soffice(d, S("产品介绍演示.pptx"), "ppt:MS PowerPoint 97"), ext: "ppt", pages: 4, phrases: { 3: "核心功能" } },
  { name: "ODP", file: (d) => soffice(d, S("产品介绍演示.pptx"), "odp"), ext: "odp", pages: 4, phrases: { 4: "联系我们" } },
  { name: "XLS", file: (d) => soffice(d, S("销售数据表.xlsx"), "xls:MS Excel 97"), ext: "xls", pages: 2, phrases: { 1: "华东地区", 2: "产品销售明细" } },
  { name: "ODS", file: (d) => soffice(d, S("销售数据表.xlsx"), "ods"), ext: "ods", pages: 2, phrases: { 2: "产品销售明细" } },
  { name: "MOBI", file: ebook("mobi"), ext: "mobi", pages: 0, phrases: { 0: "考勤管理" } },
  { name: "AZW3", file: ebook("azw3"), ext: "azw3", pages: 0, phrases: { 0: "薪酬福利" } },
  { name: "JPG", file: image("jpg"), ext: "jpg", pages: 1, phrases: {} },
  { name: "GIF", file: image("gif"), ext: "gif", pages: 1, phrases: {} },
  { name: "WebP", file: image("webp"), ext: "webp", pages: 1, phrases: {} },
  {
    name: "TXT (UTF-8)", ext: "txt", pages: 3, phrases: { 1: "静夜思", 3: "千里共婵娟" },
    file: async (d) => (writeFileSync(join(d, "poems-utf8.txt"), new TextDecoder("gbk").decode(poemsGbk())), join(d, "poems-utf8.txt")),
  },
  {
    // GB18030 beyond GBK: a four-byte character (U+20000) after GBK text.
    name: "TXT (GB18030)", ext: "txt", pages: 1, phrases: { 1: "床前明月光" },
    file: async (d) => (writeFileSync(join(d, "gb18030.txt"), new Uint8Array([...poemsGbk().subarray(0, 200), 0x95, 0x32, 0x82, 0x36])), join(d, "gb18030.txt")),
  },
];

beforeAll(async () => {
  t = setupConvertTests();
  const d = join(t.dir, "derived");
  mkdirSync(d);
  // One at a time: the derivations share one LibreOffice profile.
  for (const c of cases) c.path = typeof c.file === "string" ? c.file : await c.file(d);
  setConverter({ concurrency: 2 });
  for (const c of cases) c.id = addDocument(t.owner.id, new Uint8Array(readFileSync(c.path!)), c.ext).id;
  await convert(cases.map((c) => c.id!), { timeoutMs: 300_000 });
}, 400_000);
afterAll(() => t.cleanup());

const idOf = (c: Case) => c.id!;

describe("every supported format converts", () => {
  test.each(cases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const doc = docRow(idOf(c));
    expect({ status: doc.status, error: doc.convert_error }).toEqual({ status: DOC_STATUS.converted, error: "" });
    const rows = pageRows(doc.id);
    if (c.pages) expect(doc.pages).toBe(c.pages);
    else expect(doc.pages).toBeGreaterThan(1);
    expect(rows.map((r) => r.page)).toEqual(Array.from({ length: doc.pages }, (_, i) => i + 1));
    for (const [page, phrase] of Object.entries(c.phrases)) {
      const norm = (s: string) => s.replace(/\s+/g, "");
      if (page === "0") expect(rows.some((r) => norm(r.text).includes(phrase))).toBe(true);
      else expect(norm(rows[Number(page) - 1]!.text)).toContain(norm(phrase));
    }
    // Every page is previewed (max_preview 50, 100 %), as SVG with a gzip copy.
    expect(doc.preview).toBe(doc.pages);
    for (let n = 1; n <= doc.pages; n++) {
      const svg = readFileSync(pagePath(doc.hash, n, ".svg"), "utf8");
      expect(svg.startsWith("<?xml") || svg.startsWith("<svg")).toBe(true);
      expect(new TextDecoder().decode(Bun.gunzipSync(readFileSync(pagePath(doc.hash, n, ".svg", true))))).toBe(svg);
    }
    expect(existsSync(pagePath(doc.hash, doc.pages + 1, ".svg"))).toBe(false);
    expect(doc.width).toBeGreaterThan(0);
    expect(doc.height).toBeGreaterThan(0);
    expect(doc.cover).toBe(`/view/cover/${doc.uuid}.png`);
  });

  test("covers are 420×594 PNGs (210:297)", async () => {
    for (const c of cases) {
      const meta = await sharp(coverPath(docRow(idOf(c)).hash)).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(["png", 420, 594]);
    }
  });

  test("blank description and keywords are filled from the text (jieba)", () => {
    const doc = docRow(idOf(cases[0]!));
    expect(doc.description).toStartWith("高中物理公式汇总");
    expect([...doc.description].length).toBeLessThanOrEqual(201);
    expect(doc.keywords.split(",").length).toBeGreaterThanOrEqual(3);
    expect(doc.keywords).not.toMatch(/(^|,)(mv|Ek|Ep)(,|$)/);
    const rules = docRow(idOf(cases.find((c) => c.name === "EPUB")!));
    expect(rules.keywords).toContain("员工");
  });

  test("no work dirs are left behind", () => {
    expect(leftovers()).toEqual([]);
  });
});

describe("settings and reuse", () => {
  test("preview limit, PNG pages without gzip, and a kept description", async () => {
    setConverter({ extension: ".png", max_preview: 2, max_preview_percent: 100, enable_gzip: false });
    const bytes = new Uint8Array(readFileSync(S("产品介绍演示.pptx")));
    const sibling = idOf(cases.find((c) => c.name === "PPTX")!);
    const doc = addDocument(t.owner.id, bytes, "pptx", { description: "作者写的简介", keywords: "演示" });
    await convert([doc.id], { fresh: true });
    const row = docRow(doc.id);
    expect([row.status, row.pages, row.preview]).toEqual([DOC_STATUS.converted, 4, 2]);
    expect(readdirSync(pagesDir(row.hash)).sort()).toEqual(["1.png", "2.png"]);
    expect((await sharp(pagePath(row.hash, 1, ".png")).metadata()).format).toBe("png");
    expect([row.description, row.keywords]).toEqual(["作者写的简介", "演示"]);
    // The earlier document of the same file shares these page files, so its numbers follow.
    expect(docRow(sibling).preview).toBe(2);

    setConverter({ extension: ".webp", max_preview: 50, max_preview_percent: 50 });
    await convert([doc.id], { fresh: true });
    expect(docRow(doc.id).preview).toBe(2);
    expect(readdirSync(pagesDir(row.hash)).sort()).toEqual(["1.webp", "2.webp"]);
    expect((await sharp(pagePath(row.hash, 2, ".webp")).metadata()).format).toBe("webp");
    setConverter({ extension: ".svg", max_preview: 50, max_preview_percent: 100, enable_gzip: true });
  }, 60_000);

  test("a second document of the same file reuses the conversion without running any tool", async () => {
    const first = cases.find((c) => c.name === "DOCX")!;
    const bytes = new Uint8Array(readFileSync(first.path!));
    const before = { ...toolRuns };
    const started = performance.now();
    const doc = addDocument(t.owner.id, bytes, "docx", { status: DOC_STATUS.pendingReview });
    const [job] = await convert([doc.id]);
    const ms = performance.now() - started;
    expect(toolRuns).toEqual(before);
    expect(JSON.parse(job!.result)).toMatchObject({ reused: idOf(first), pages: 3 });
    const row = docRow(doc.id);
    // Review is a person's decision: the pages are filled in, the status stays 6.
    expect([row.status, row.pages, row.preview, row.convert_error]).toEqual([DOC_STATUS.pendingReview, 3, 3, ""]);
    expect(pageRows(doc.id)).toEqual(pageRows(idOf(first)));
    expect(row.cover).toBe(`/view/cover/${row.uuid}.png`);
    expect(ms).toBeLessThan(1500);
  }, 30_000);
});
