// The reader page /document/{uuid}: what it shows, the page images it starts with, ?page=N, the
// watermark, ads, the hidden-document rules and the anonymous page cache.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { document } from "#db/schema/documents.ts";
import { advertisement } from "#db/schema/site.ts";
import { setDocumentsRoot } from "#src/features/documents/paths.ts";
import { bumpContentVersion } from "#src/lib/contentVersion.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { makeCategory, makeDoc, setConfig, useDocumentsRoot } from "./reader-fixtures.ts";
import { islandProps } from "#tests/helpers/islandProps.ts";

const t = setupTestApp();
let root = "";
beforeAll(() => void (root = useDocumentsRoot()));
afterAll(() => {
  setDocumentsRoot(null);
  rmSync(root, { recursive: true, force: true });
});

const html = { accept: "text/html" };
const page = (path: string, token?: string) => t.req("GET", path, { headers: html, token });
const imgCount = (body: string) => (body.match(/<img src="\/view\/page\//g) ?? []).length;

describe("reader page", () => {
  test("title, uploader, breadcrumb, size, pages, type, counts, score, time, description and keywords", async () => {
    const top = makeCategory("教育资料");
    const leaf = makeCategory("高中数学", top.id);
    const d = makeDoc({ userId: t.userId, title: "高中数学必修一知识点总结", keywords: "函数,集合", description: "本文总结了必修一的全部知识点。", pages: 12, preview: 12, categoryIds: [top.id, leaf.id] });
    getDb().update(document).set({ view_count: 1234, download_count: 56, favorite_count: 7, score: 425, score_count: 4 }).where(eq(document.id, d.id)).run();
    const r = await page(`/document/${d.uuid}`);
    expect(r.status).toBe(200);
    expect(r.text).toContain("<title>高中数学必修一知识点总结 - ");
    expect(r.text).toContain(`href="/user/${t.userId}"`);
    expect(r.text).toContain(">member</");
    expect(r.text).toMatch(new RegExp(`href="/category/${top.id}">教育资料</a>[\\s\\S]*href="/category/${leaf.id}">高中数学</a>`));
    expect(r.text).toContain("120.56 KB");
    expect(r.text).toContain("12 页");
    expect(r.text).toContain(">PDF<");
    expect(r.text).toContain("1234 浏览");
    expect(r.text).toContain("56 下载");
    expect(r.text).toContain("7 收藏");
    expect(r.text).toContain("4.3");
    expect(r.text).toContain("4.3 分，4 人评分");
    expect(r.text).toContain(`style="width:85%"`);
    expect(r.text).toContain("本文总结了必修一的全部知识点。");
    expect(r.text).toContain('<meta name="keywords" content="函数,集合"/>');
    expect(r.text).toMatch(/class="chip" href="\/search\?wd=%E5%87%BD%E6%95%B0&amp;type=0">函数</);
    expect(r.text).toMatch(/<link rel="canonical" href="[^"]*\/document\/[0-9a-f]{32}"/);
    // The header menu marks the document-category section.
    expect(r.text).toMatch(/<li class="active"[^>]*><a href="\/category">文档分类<\/a>/);
  });

  test("the first pages_per_read pages, lazy and sized; 继续阅读 props; end notice hidden until the end", async () => {
    const d = makeDoc({ userId: t.userId, pages: 20, preview: 12, width: 600, height: 800 });
    const r = await page(`/document/${d.uuid}`);
    expect(imgCount(r.text)).toBe(5);
    expect(r.text).toContain(`<img src="/view/page/${d.uuid}/1.svg" alt="${d.title} 第1页" width="600" height="800" loading="lazy"`);
    expect(r.text).not.toContain(`/view/page/${d.uuid}/6.svg`);
    const props = islandProps(r.text, "ReaderPages");
    expect(props).toMatchObject({ uuid: d.uuid, preview: 12, per: 5, initial: 5, width: 600, height: 800, focus: 0, count: true, url: `/view/page/${d.uuid}/{n}.svg`, watermark: "" });
    expect(r.text).toContain(`href="?page=10#page-6"`);
    expect(r.text).toContain(">继续阅读</a>");
    expect(r.text).toMatch(/<section class="card reader-end" data-reader-end="" hidden="">/);
    expect(r.text).toContain("剩余 <strong>8</strong> 页未能预览，请下载后阅读");
    expect(r.text).toContain('data-island="DownloadButton"');
  });

  test("pages_per_read from settings; gzip pages link .gzip.svg; a short preview ends at once", async () => {
    setConfig([["display", "pages_per_read", 3]]);
    const d = makeDoc({ userId: t.userId, pages: 10, preview: 10, files: "both" });
    const r = await page(`/document/${d.uuid}`);
    expect(imgCount(r.text)).toBe(3);
    expect(islandProps(r.text, "ReaderPages").url).toBe(`/view/page/${d.uuid}/{n}.gzip.svg`);
    setConfig([["display", "pages_per_read", 5]]);
    const short = makeDoc({ userId: t.userId, pages: 2, preview: 2 });
    const s = await page(`/document/${short.uuid}`);
    expect(imgCount(s.text)).toBe(2);
    expect(s.text).not.toContain("继续阅读");
    expect(s.text).toMatch(/<section class="card reader-end" data-reader-end="">/);
    expect(s.text).toContain("已阅读完毕，全文共 2 页");
  });

  test("?page=N renders through N (rounded up to a step), with #page-N anchors, and focuses N", async () => {
    const d = makeDoc({ userId: t.userId, pages: 12, preview: 12 });
    const r = await page(`/document/${d.uuid}?page=8`);
    expect(imgCount(r.text)).toBe(10);
    for (let n = 1; n <= 10; n++) expect(r.text).toContain(`id="page-${n}"`);
    expect(islandProps(r.text, "ReaderPages")).toMatchObject({ initial: 10, focus: 8 });
    const end = await page(`/document/${d.uuid}?page=12`);
    expect(imgCount(end.text)).toBe(12);
    expect(end.text).toMatch(/data-reader-end="">/);
    // Out of range or junk: clamped or ignored, never an error.
    expect(islandProps((await page(`/document/${d.uuid}?page=999`)).text, "ReaderPages")).toMatchObject({ initial: 12, focus: 12 });
    expect(islandProps((await page(`/document/${d.uuid}?page=abc`)).text, "ReaderPages")).toMatchObject({ initial: 5, focus: 0 });
    expect(islandProps((await page(`/document/${d.uuid}?page=0`)).text, "ReaderPages")).toMatchObject({ initial: 5, focus: 0 });
  });

  test("watermark off by default; on, a CSS overlay over each page carrying the text", async () => {
    const d = makeDoc({ userId: t.userId });
    expect((await page(`/document/${d.uuid}`)).text).not.toContain("reader-wm");
    setConfig([["system", "enable_watermark", true], ["system", "watermark", "魔豆文库 <版权所有>"]]);
    const r = await page(`/document/${d.uuid}`);
    const props = islandProps(r.text, "ReaderPages");
    expect(props.watermark).toStartWith('url("data:image/svg+xml,');
    expect(decodeURIComponent(props.watermark)).toContain("魔豆文库 &#60;版权所有&#62;");
    expect((r.text.match(/class="reader-wm"/g) ?? []).length).toBe(3);
    expect(r.text).toContain("--wm:url(");
    // Switched on with no text: nothing drawn.
    setConfig([["system", "watermark", ""]]);
    expect((await page(`/document/${d.uuid}`)).text).not.toContain("reader-wm");
    setConfig([["system", "enable_watermark", false]]);
  });

  test("ads at document_top, document_bottom and between pages (after each step), none for the wrong positions", async () => {
    getDb().insert(advertisement).values([
      { position: "document_top", content: "<b>顶部广告</b>" },
      { position: "document_bottom", content: "<b>底部广告</b>" },
      { position: "document_between", content: "<b>页间广告</b>" },
    ]).run();
    bumpContentVersion();
    const d = makeDoc({ userId: t.userId, pages: 12, preview: 12 });
    const r = await page(`/document/${d.uuid}?page=12`);
    expect(r.text).toContain('data-position="document_top"');
    expect(r.text).toContain("顶部广告");
    expect(r.text).toContain("底部广告");
    expect(islandProps(r.text, "ReaderPages").between).toBe('<div class="ad-item"><b>页间广告</b></div>');
    // After page 5 and page 10 of the 12 shown: twice in the HTML.
    const between = r.text.match(/data-position="document_between"/g) ?? [];
    expect(between.length).toBe(2);
    expect(r.text.indexOf('id="page-5"')).toBeLessThan(r.text.indexOf('data-position="document_between"'));
    expect(r.text.indexOf('data-position="document_between"')).toBeLessThan(r.text.indexOf('id="page-6"'));
    getDb().delete(advertisement).run();
    bumpContentVersion();
  });

  test("hidden documents are 404 for visitors; the owner and admins see the status and the conversion error", async () => {
    const failed = makeDoc({ userId: t.userId, status: 3, preview: 0, convert_error: "缺少转换工具 mutool：请安装 mupdf-tools" });
    expect((await page(`/document/${failed.uuid}`)).status).toBe(404);
    const other = await t.createUser("reader_page_other");
    expect((await page(`/document/${failed.uuid}`, other.token)).status).toBe(404);
    const own = await page(`/document/${failed.uuid}`, t.userToken);
    expect(own.status).toBe(200);
    expect(own.text).toContain("转换失败");
    expect(own.text).toContain("缺少转换工具 mutool：请安装 mupdf-tools");
    expect(own.text).toContain('<meta name="robots" content="noindex"/>');
    const admin = await page(`/document/${failed.uuid}`, t.rootToken);
    expect(admin.status).toBe(200);
    // Pending review but already converted: the reviewer sees the pages, and nothing counts a view.
    const review = makeDoc({ userId: t.userId, status: 6 });
    const rv = await page(`/document/${review.uuid}`, t.rootToken);
    expect(rv.text).toContain("待审核");
    expect(islandProps(rv.text, "ReaderPages")).toMatchObject({ count: false, preview: 3 });
    const deleted = makeDoc({ userId: t.userId, deleted: true });
    expect((await page(`/document/${deleted.uuid}`, t.userToken)).status).toBe(404);
    const miss = await page(`/document/nosuchdocument`);
    expect([miss.status, miss.text.includes("This page could not be found")]).toEqual([404, true]);
    expect((await page(`/document/${"x".repeat(100)}`)).status).toBe(404);
  });

  test("anonymous views come from the page cache; signed-in views render with their own state", async () => {
    const d = makeDoc({ userId: t.userId });
    const a = await page(`/document/${d.uuid}`);
    const b = await page(`/document/${d.uuid}`);
    expect([a.res.headers.get("x-cache"), b.res.headers.get("x-cache")]).toEqual(["MISS", "HIT"]);
    expect(islandProps(b.text, "DocumentActions")).toMatchObject({ documentId: d.id, loggedIn: false, favoriteId: 0, myScore: 0, reported: false });
    // Members get the kept page with their own parts rendered for them (views/personal.tsx).
    const me = await page(`/document/${d.uuid}`, t.userToken);
    expect(me.res.headers.get("x-cache")).toBe("SHARED");
    expect(islandProps(me.text, "DocumentActions")).toMatchObject({ loggedIn: true });
  });

  test("related documents: same top category, sharing keywords, best match first", async () => {
    const top = makeCategory("计算机");
    const sub = makeCategory("编程语言", top.id);
    const other = makeCategory("文学");
    const d = makeDoc({ userId: t.userId, title: "Python 编程入门教程", keywords: "Python,编程", categoryIds: [top.id, sub.id] });
    const best = makeDoc({ userId: t.userId, title: "Python 编程进阶", keywords: "Python", categoryIds: [top.id] });
    const weak = makeDoc({ userId: t.userId, title: "数据结构与算法", keywords: "编程", categoryIds: [top.id, sub.id] });
    const elsewhere = makeDoc({ userId: t.userId, title: "Python 编程诗集", keywords: "Python", categoryIds: [other.id] });
    const hidden = makeDoc({ userId: t.userId, title: "Python 编程草稿", status: 4, categoryIds: [top.id] });
    const r = await page(`/document/${d.uuid}`);
    const side = r.text.slice(r.text.indexOf("相关文档"));
    expect(side).toContain(`/document/${best.uuid}`);
    expect(side).toContain(`/document/${weak.uuid}`);
    expect(side.indexOf(best.uuid)).toBeLessThan(side.indexOf(weak.uuid));
    expect(side).not.toContain(elsewhere.uuid);
    expect(side).not.toContain(hidden.uuid);
    expect(side).not.toContain(`/document/${d.uuid}"`);
  });

  test("related documents from the title's words alone (jieba) when the document has no keywords", async () => {
    const top = makeCategory("考试");
    const d = makeDoc({ userId: t.userId, title: "2024年考研英语真题及答案解析", categoryIds: [top.id] });
    const popular = makeDoc({ userId: t.userId, title: "公务员行测模拟卷", categoryIds: [top.id] });
    getDb().update(document).set({ view_count: 9999 }).where(eq(document.id, popular.id)).run();
    const match = makeDoc({ userId: t.userId, title: "历年英语真题汇编", categoryIds: [top.id] });
    const side = (await page(`/document/${d.uuid}`)).text.split("相关文档")[1]!;
    // Matches first, then the category's most read fill the list.
    expect(side.indexOf(match.uuid)).toBeGreaterThan(-1);
    expect(side.indexOf(match.uuid)).toBeLessThan(side.indexOf(popular.uuid));
  });
});
