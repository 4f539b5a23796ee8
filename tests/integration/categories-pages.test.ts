// /category and /category/{id}: sorts, file-type filter, pagination keeping the query, only
// visible documents, the hide-empty-categories rule (pages, header card, home), 404s, and the
// home page's recommended / latest / per-category blocks.
import { beforeAll, describe, expect, test } from "bun:test";
import { getSqlite } from "#db/client.ts";
import { invalidateSettings } from "#src/features/settings/service.ts";
import { bumpContentVersion } from "#src/lib/contentVersion.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { addCategory, addDocument, refreshCounts } from "./categories-fixtures.ts";

const t = setupTestApp();
const page = async (path: string) => {
  const r = await t.req("GET", path, { headers: { accept: "text/html" } });
  // React's text separators are noise for these checks.
  return { status: r.status, html: r.text.replaceAll("<!-- -->", "") };
};
/** Document titles of the list rows, in page order. */
const rowTitles = (html: string) => [...html.matchAll(/<article class="doc-row">[\s\S]*?<a href="\/document\/[^"]+" title="([^"]+)"/g)].map((m) => m[1]);
const setHide = (on: boolean) => {
  getSqlite().query("INSERT INTO config (category, name, value) VALUES ('display', 'hide_category_without_document', ?) ON CONFLICT(category, name) DO UPDATE SET value = excluded.value").run(String(on));
  invalidateSettings();
  bumpContentVersion();
};

let top = 0;
let sub = 0;
let leaf = 0;
let empty = 0;
let other = 0;
beforeAll(() => {
  top = addCategory("教育专区", 0, { sort: 1, description: "中小学与高等教育资料", show_description: true });
  sub = addCategory("高中", top);
  leaf = addCategory("高考真题", sub);
  empty = addCategory("空分类", top);
  other = addCategory("办公文档", 0, { sort: 2 });
  const day = 86400_000;
  const base = Date.now() - 30 * day;
  addDocument("数学真题", leaf, { ext: "pdf", views: 50, downloads: 5, score: 480, createdAt: base + 1 * day });
  addDocument("语文讲义", sub, { ext: "docx", views: 300, downloads: 1, score: 350, createdAt: base + 2 * day });
  addDocument("英语课件", top, { ext: "pptx", views: 10, downloads: 40, score: 420, createdAt: base + 3 * day, recommendAt: base + 10 * day });
  addDocument("物理表格", leaf, { ext: "xls", views: 120, downloads: 12, score: 0, createdAt: base + 4 * day, recommendAt: base + 20 * day });
  addDocument("化学笔记", sub, { ext: "txt", views: 5, downloads: 0, score: 100, createdAt: base + 5 * day });
  addDocument("生物图谱", leaf, { ext: "epub", views: 1, downloads: 2, score: 0, createdAt: base + 6 * day });
  addDocument("历史文档", leaf, { ext: "doc", views: 2, downloads: 3, score: 200, createdAt: base + 7 * day });
  // Never listed: converting, failed, pending review, disabled, in the recycle bin.
  addDocument("转换中的文档", leaf, { status: 1, createdAt: base + 8 * day });
  addDocument("失败的文档", leaf, { status: 3, createdAt: base + 8 * day });
  addDocument("待审核文档", leaf, { status: 6, createdAt: base + 8 * day });
  addDocument("禁用的文档", leaf, { status: 4, createdAt: base + 8 * day, recommendAt: base + 30 * day });
  addDocument("回收站文档", leaf, { deleted: true, createdAt: base + 9 * day, recommendAt: base + 30 * day });
  addDocument("办公模板", other, { ext: "docx", createdAt: base + 10 * day });
  refreshCounts();
});

describe("/category/{id} list", () => {
  test("latest first by default; the subtree's documents; only visible ones", async () => {
    const r = await page(`/category/${top}`);
    expect(r.status).toBe(200);
    expect(rowTitles(r.html)).toEqual(["历史文档", "生物图谱", "化学笔记", "物理表格", "英语课件", "语文讲义", "数学真题"]);
    for (const hidden of ["转换中的文档", "失败的文档", "待审核文档", "禁用的文档", "回收站文档", "办公模板"]) expect(r.html).not.toContain(hidden);
    expect(rowTitles((await page(`/category/${leaf}`)).html)).toEqual(["历史文档", "生物图谱", "物理表格", "数学真题"]);
  });

  test("sort by downloads, views and score", async () => {
    expect(rowTitles((await page(`/category/${top}?sort=download`)).html)).toEqual(["英语课件", "物理表格", "数学真题", "历史文档", "生物图谱", "语文讲义", "化学笔记"]);
    expect(rowTitles((await page(`/category/${top}?sort=view`)).html)).toEqual(["语文讲义", "物理表格", "数学真题", "英语课件", "化学笔记", "历史文档", "生物图谱"]);
    expect(rowTitles((await page(`/category/${top}?sort=score`)).html).slice(0, 5)).toEqual(["数学真题", "英语课件", "语文讲义", "历史文档", "化学笔记"]);
    // An unknown sort falls back to latest.
    expect(rowTitles((await page(`/category/${top}?sort=drop`)).html)[0]).toBe("历史文档");
  });

  test("filter by file type, keeping the sort", async () => {
    expect(rowTitles((await page(`/category/${top}?ext=pdf`)).html)).toEqual(["数学真题"]);
    expect(rowTitles((await page(`/category/${top}?ext=doc&sort=view`)).html)).toEqual(["语文讲义", "历史文档"]);
    expect(rowTitles((await page(`/category/${top}?ext=ppt`)).html)).toEqual(["英语课件"]);
    expect(rowTitles((await page(`/category/${top}?ext=xls`)).html)).toEqual(["物理表格"]);
    expect(rowTitles((await page(`/category/${top}?ext=txt`)).html)).toEqual(["化学笔记"]);
    expect(rowTitles((await page(`/category/${top}?ext=other`)).html)).toEqual(["生物图谱"]);
    const none = await page(`/category/${empty}?ext=pdf`);
    expect(none.html).toContain("没有PDF类型的文档");
    // Links of the sort bar keep the file type; links of the type bar keep the sort.
    const r = await page(`/category/${top}?ext=doc&sort=view`);
    expect(r.html).toContain(`href="/category/${top}?ext=doc&amp;sort=download"`);
    expect(r.html).toContain(`href="/category/${top}?ext=pdf&amp;sort=view"`);
    expect(r.html).toContain(`<link rel="canonical" href="http://localhost/category/${top}?ext=doc"/>`);
  });

  test("page head: breadcrumb, description when enabled, chips, meta", async () => {
    const r = await page(`/category/${leaf}`);
    expect(r.html).toMatch(/<nav class="breadcrumb"[\s\S]*首页[\s\S]*文档分类[\s\S]*教育专区[\s\S]*高中[\s\S]*高考真题/);
    expect(r.html).toContain("<title>高考真题 - 高中 - 教育专区 - ");
    // A leaf shows its siblings, itself active.
    expect(r.html).toMatch(new RegExp(`class="chip active" href="/category/${leaf}"`));
    const t1 = await page(`/category/${top}`);
    expect(t1.html).toContain("中小学与高等教育资料");
    expect(t1.html).toMatch(new RegExp(`href="/category/${sub}">高中<span class="chip-count">6</span>`));
    expect(t1.html).toContain("本类热门");
  });

  test("unknown, disabled, article and non-numeric ids are 404; so is a page past the end", async () => {
    expect((await page("/category/99999")).status).toBe(404);
    expect((await page("/category/abc")).status).toBe(404);
    const art = addCategory("文章类", 0, { type: 1 });
    expect((await page(`/category/${art}`)).status).toBe(404);
    const off = addCategory("禁用类", 0, { enable: false });
    const under = addCategory("禁用类的子类", off);
    expect((await page(`/category/${off}`)).status).toBe(404);
    expect((await page(`/category/${under}`)).status).toBe(404);
    expect((await page(`/category/${top}?page=2`)).status).toBe(404);
    expect((await page(`/category/${empty}`)).status).toBe(200);
  });
});

describe("pagination", () => {
  test("20 per page; page links keep sort and type", async () => {
    const many = addCategory("分页测试", 0);
    for (let i = 1; i <= 25; i++) addDocument(`分页文档${String(i).padStart(2, "0")}`, many, { ext: "pdf", views: i, createdAt: Date.now() - 100_000 + i });
    refreshCounts();
    const p1 = await page(`/category/${many}?ext=pdf&sort=view`);
    expect(rowTitles(p1.html)).toHaveLength(20);
    expect(rowTitles(p1.html)[0]).toBe("分页文档25");
    expect(p1.html).toContain(`href="/category/${many}?ext=pdf&amp;sort=view&amp;page=2"`);
    const p2 = await page(`/category/${many}?ext=pdf&sort=view&page=2`);
    expect(rowTitles(p2.html)).toEqual(["分页文档05", "分页文档04", "分页文档03", "分页文档02", "分页文档01"]);
    expect(p2.html).toContain(`href="/category/${many}?ext=pdf&amp;sort=view"`);
    expect(p2.html).toContain(" - 第2页 - ");
  });
});

describe("/category index", () => {
  test("top-level document categories with children and counts", async () => {
    const r = await page("/category");
    expect(r.status).toBe(200);
    expect(r.html).toContain("<title>文档分类 - ");
    expect(r.html).toMatch(new RegExp(`<a href="/category/${top}">教育专区</a><span class="cat-count">7 篇</span>`));
    expect(r.html).toContain(`href="/category/${empty}">空分类`);
    const main = r.html.slice(r.html.indexOf('<main'));
    expect(main).not.toContain("文章类");
    expect(main).toContain("共 3 个大类，33 篇文档");
  });
});

describe("display.hide_category_without_document", () => {
  test("empty categories leave the pages, the header card and the home blocks", async () => {
    setHide(true);
    try {
      const idx = await page("/category");
      expect(idx.html).not.toContain(`href="/category/${empty}"`);
      expect(idx.html).toContain(`href="/category/${sub}"`);
      expect((await page(`/category/${empty}`)).status).toBe(404);
      expect((await page(`/category/${top}`)).html).not.toContain(`href="/category/${empty}"`);
      const home = await page("/");
      // The header card's island props and the home blocks both come from the visible tree.
      expect(home.html).not.toContain(`/category/${empty}`);
      expect(home.html).not.toContain("空分类");
      expect(home.html).toContain("教育专区");
    } finally {
      setHide(false);
    }
    expect((await page("/")).html).toContain("空分类");
  });
});

describe("home page", () => {
  test("recommended (newest recommendation first), latest, and per-category blocks of visible documents", async () => {
    const r = await page("/");
    expect(r.status).toBe(200);
    const side = r.html.slice(r.html.indexOf("推荐文档"), r.html.indexOf("最新文档"));
    const titles = [...side.matchAll(/title="([^"]+)">/g)].map((m) => m[1]);
    expect(titles).toEqual(["物理表格", "英语课件"]);
    const latest = r.html.slice(r.html.indexOf("最新文档"), r.html.indexOf("category-blocks"));
    expect(latest.indexOf("分页文档25")).toBeGreaterThan(-1);
    expect(latest).not.toContain("回收站文档");
    const block = r.html.slice(r.html.indexOf(`<a href="/category/${top}">教育专区</a>`));
    const blockEnd = block.indexOf('class="card category-block"', 10);
    const blockTitles = [...block.slice(0, blockEnd).matchAll(/href="\/document\/[^"]+" title="([^"]+)"/g)].map((m) => m[1]);
    expect(blockTitles).toEqual(["历史文档", "生物图谱", "化学笔记", "物理表格", "英语课件", "语文讲义", "数学真题"]);
    expect(r.html).not.toContain("转换中的文档");
  });

  test("block documents come from one statement, whatever the number of categories", async () => {
    const { blockDocuments } = await import("#src/features/categories/listing.ts");
    const ids = (getSqlite().query("select id from category where parent_id = 0 and type = 0").all() as { id: number }[]).map((r) => r.id);
    const sqlite = getSqlite();
    const prepare = sqlite.prepare.bind(sqlite);
    let statements = 0;
    sqlite.prepare = ((sql: string) => (statements++, prepare(sql))) as typeof sqlite.prepare;
    try {
      const map = blockDocuments(ids, 8);
      expect(map.get(top)!.map((d) => d.title)[0]).toBe("历史文档");
      expect(map.get(other)!.map((d) => d.title)).toEqual(["办公模板"]);
    } finally {
      sqlite.prepare = prepare;
    }
    expect(statements).toBe(1);
  });
});
