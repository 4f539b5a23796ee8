import { beforeAll, describe, expect, test } from "bun:test";
import { getSqlite } from "#db/client.ts";
import { flushSearchRecords } from "#src/features/search/records.ts";
import { parseQuery } from "#src/features/search/text.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { makeCategory, setConfig } from "./documents-fixtures.ts";
import { addDoc, addFiller, uuidsOf } from "./search-fixtures.ts";

const t = setupTestApp();
const search = async (q: Record<string, string | number>) => {
  const r = await t.req("GET", `/api/v1/search?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`);
  expect(r.status).toBe(200);
  return r.body as { total: number; spend_ms: number; document: { uuid: string; title: string; snippet: string; page: number; ext: string; username: string }[] };
};

const ids: Record<string, { id: number; uuid: string }> = {};
let catA = 0;
let catB = 0;

beforeAll(() => {
  addFiller(40);
  catA = makeCategory("教育").id;
  catB = makeCategory("工程").id;
  ids.titleHit = addDoc({ title: "量子计算入门", pages: ["第一章 概述"], categoryIds: [catA], createdAt: Date.now() - 50_000 });
  ids.bodyHit = addDoc({ title: "物理学讲义", pages: ["前言", "本页讨论量子计算的基本原理"], categoryIds: [catB], downloads: 500, createdAt: Date.now() - 10_000 });
  ids.both = addDoc({ title: "机器学习与深度网络", pages: ["神经网络训练方法"], ext: "docx" });
  ids.some = addDoc({ title: "机器学习基础", pages: ["线性回归"], ext: "pdf" });
  ids.script = addDoc({ title: "网页安全<img src=x onerror=alert(1)>", pages: ["示例代码 <script>alert('xss')</script> 会被浏览器执行"] });
  ids.trad = addDoc({ title: "臺灣歷史綱要", pages: ["國語與歷史"] });
  ids.simp = addDoc({ title: "中国历史简编", pages: ["历史年表"] });
  ids.english = addDoc({ title: "JavaScript Guide", pages: ["Learn ＪａｖａＳｃｒｉｐｔ closures and Python 3.12 tips"], ext: "txt" });
  ids.number = addDoc({ title: "2024年度报告", pages: ["营业收入 2024 年增长"] });
  ids.contractWord = addDoc({ title: "劳动合同范本", pages: ["甲方乙方"], ext: "docx" });
  ids.contractPdf = addDoc({ title: "劳动合同范本", pages: ["甲方乙方"], ext: "pdf", downloads: 50 });
  ids.multi = addDoc({ title: "年度工作总结", pages: ["一月份工作", "二月份工作", "第三页提到了火星探测器的轨道"] });
  // Never visible: unconverted, failed, disabled, in review, rejected, deleted.
  for (const [status, deleted] of [[0, false], [3, false], [4, false], [6, false], [7, false], [2, true]] as const) {
    addDoc({ title: `隐藏文档火星探测器${status}`, pages: ["火星探测器"], status, deleted });
  }
});

describe("query parsing", () => {
  test("mixed Chinese and English, case folded, the last letters word is a prefix", () => {
    const q = parseQuery("Python 机器学习 Tuto");
    expect(q.terms[0]).toBe("python");
    expect(q.terms.join("")).toContain("学习");
    expect(q.prefix).toBe("tuto");
  });
  test("full-width input and numbers", () => {
    expect(parseQuery("ＡＢＣ　２０２４").terms).toEqual(["abc", "2024"]);
  });
  test("file-type words boost instead of being required", () => {
    const q = parseQuery("合同 word");
    expect(q.terms).toEqual(["合同"]);
    expect(q.exts).toContain("docx");
  });
  test("a single Han character is a prefix; next to longer words it is optional", () => {
    expect(parseQuery("月").prefix).toBe("月");
    const q = parseQuery("火星 的 探测器");
    expect(q.required).not.toContain("的");
  });
});

describe("ranking", () => {
  test("a title match ranks above a body-only match, even with more downloads", async () => {
    const r = await search({ wd: "量子计算" });
    expect(uuidsOf(r).slice(0, 2)).toEqual([ids.titleHit!.uuid, ids.bodyHit!.uuid]);
  });
  test("documents holding all the words come before those holding some", async () => {
    const r = await search({ wd: "机器学习 神经网络" });
    expect(uuidsOf(r)[0]).toBe(ids.both!.uuid);
    expect(uuidsOf(r)).toContain(ids.some!.uuid);
  });
  test("a file-type word ranks that type first without hiding the others", async () => {
    const word = uuidsOf(await search({ wd: "劳动合同 word" }));
    expect(word[0]).toBe(ids.contractWord!.uuid);
    expect(word).toContain(ids.contractPdf!.uuid);
    expect(uuidsOf(await search({ wd: "劳动合同 pdf" }))[0]).toBe(ids.contractPdf!.uuid);
  });
  test("the best page is named and its text is the snippet", async () => {
    const r = await search({ wd: "火星探测器" });
    expect(r.total).toBe(1);
    expect(r.document[0]).toMatchObject({ uuid: ids.multi!.uuid, page: 3 });
    expect(r.document[0]!.snippet).toContain("<mark>");
  });
});

describe("queries of every kind", () => {
  test("pure English: case-insensitive, full-width text, prefix of the last word", async () => {
    for (const wd of ["javascript", "JAVASCRIPT", "javasc", "closures"]) expect(uuidsOf(await search({ wd }))).toContain(ids.english!.uuid);
  });
  test("numbers and mixed Chinese-English", async () => {
    expect(uuidsOf(await search({ wd: "2024" }))).toContain(ids.number!.uuid);
    expect(uuidsOf(await search({ wd: "Python 技巧" }))).toContain(ids.english!.uuid);
  });
  test("one character", async () => {
    expect(uuidsOf(await search({ wd: "量" }))).toContain(ids.titleHit!.uuid);
  });
  test("simplified finds traditional and traditional finds simplified", async () => {
    const a = uuidsOf(await search({ wd: "历史" }));
    const b = uuidsOf(await search({ wd: "歷史" }));
    for (const list of [a, b]) expect(list).toEqual(expect.arrayContaining([ids.trad!.uuid, ids.simp!.uuid]));
  });
  test("nothing to search: an empty answer, not an error", async () => {
    expect(await search({ wd: "" })).toMatchObject({ total: 0, document: [] });
    expect(await search({ wd: "，。！" })).toMatchObject({ total: 0, document: [] });
  });
  test("articles (type 1) find nothing until articles exist", async () => {
    expect(await search({ wd: "量子计算", type: 1 })).toMatchObject({ total: 0, document: [] });
  });
});

describe("visibility", () => {
  // Six hidden documents carry "火星探测器" in their title and their text; the one visible document
  // with it (ids.multi) must be found, so an empty answer cannot pass for "nothing hidden leaked".
  test("unconverted, failed, disabled, in review, rejected and deleted documents never appear", async () => {
    const hidden = await search({ wd: "火星探测器" });
    expect(uuidsOf(hidden)).toEqual([ids.multi!.uuid]);
    expect(hidden.total).toBe(1);
    // Their whole title as the query: the visible partial match is still there, nothing else is.
    const byTitle = await search({ wd: "隐藏文档火星探测器" });
    expect(uuidsOf(byTitle)).toContain(ids.multi!.uuid);
    expect(uuidsOf(byTitle)).toEqual([ids.multi!.uuid]);
    expect(byTitle.total).toBe(1);
  });
});

describe("filters and sorts", () => {
  test("category", async () => {
    expect(uuidsOf(await search({ wd: "量子计算", category_id: catB }))).toEqual([ids.bodyHit!.uuid]);
  });
  test("file type by group key and by extension", async () => {
    expect(uuidsOf(await search({ wd: "劳动合同", ext: "doc" }))).toEqual([ids.contractWord!.uuid]);
    expect(uuidsOf(await search({ wd: "劳动合同", ext: "pdf" }))).toEqual([ids.contractPdf!.uuid]);
    expect(uuidsOf(await search({ wd: "javascript", ext: "txt" }))).toEqual([ids.english!.uuid]);
  });
  test("latest and downloads", async () => {
    expect(uuidsOf(await search({ wd: "量子计算", sort: "latest" }))[0]).toBe(ids.bodyHit!.uuid);
    expect(uuidsOf(await search({ wd: "劳动合同", sort: "downloads" }))[0]).toBe(ids.contractPdf!.uuid);
  });
  test("bad parameters are a 400 with a Chinese message", async () => {
    for (const q of ["sort=best", "type=3", "size=500", "page=0", "ext=<x>"]) {
      const r = await t.req("GET", `/api/v1/search?wd=a&${q}`);
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(/[\u4e00-\u9fa5]/);
    }
  });
});

describe("highlighting", () => {
  test("markup in titles and text comes out as text, with only <mark> added", async () => {
    const r = await search({ wd: "script 网页安全" });
    const d = r.document.find((x) => x.uuid === ids.script!.uuid)!;
    expect(d.title).toBe("<mark>网页安全</mark>&lt;img src=x onerror=alert(1)&gt;");
    expect(d.snippet).toContain("&lt;<mark>script</mark>&gt;alert(&#39;xss&#39;)&lt;/<mark>script</mark>&gt;");
    const page = await t.req("GET", "/search?wd=script", { headers: { accept: "text/html" } });
    expect(page.text).not.toContain("<script>alert");
    expect(page.text).not.toContain("<img src=x");
    expect(page.text).toContain("&lt;<mark>script</mark>&gt;");
  });
});

describe("the /search page", () => {
  test("results, page label, reader link, total and time, noindex", async () => {
    const r = await t.req("GET", "/search?wd=火星探测器", { headers: { accept: "text/html" } });
    expect(r.status).toBe(200);
    expect(r.text).toMatch(/共找到 1 篇文档，用时 [\d.]+ 秒/);
    expect(r.text).toContain(`href="/document/${ids.multi!.uuid}?page=3"`);
    expect(r.text).toContain("第 3 页");
    expect(r.text).toContain('<meta name="robots" content="noindex"/>');
    expect(r.text).toContain("火星探测器 - 文档搜索");
  });
  test("empty state with suggestions", async () => {
    const r = await t.req("GET", "/search?wd=不存在的词语组合", { headers: { accept: "text/html" } });
    expect(r.text).toContain("搜索建议");
    expect(r.text).toContain("共找到 0 篇文档");
  });
  test("pagination stops at display.max_search_pages", async () => {
    setConfig("display", "max_search_pages", 2);
    const api = await search({ wd: "手册", size: 5, page: 3 });
    expect(api.total).toBeGreaterThan(10);
    expect(api.document).toEqual([]);
    const r = await t.req("GET", "/search?wd=手册&page=9", { headers: { accept: "text/html" } });
    expect(r.text).toContain('aria-current="page">2</span>');
    expect(r.text).not.toContain("page=3");
    setConfig("display", "max_search_pages", 50);
  });
  test("every search is logged with its total, page and visitor", async () => {
    await t.req("GET", "/search?wd=量子计算&page=1", { headers: { accept: "text/html", "user-agent": "search-test", "x-forwarded-for": "10.1.2.3" } });
    await flushSearchRecords();
    const row = getSqlite().query("SELECT * FROM search_record WHERE user_agent = 'search-test'").get() as { keywords: string; total: number; ip: string; page: number };
    expect(row).toMatchObject({ keywords: "量子计算", total: 2, ip: "10.1.2.3", page: 1 });
  });
});
