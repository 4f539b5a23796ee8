// Articles in real Chromium: the administrator writes an article with a heading, an uploaded image
// and a formula in /post, looks at the preview, publishes, and reads it at /article/{identifier}
// (anchored heading, the image from the site's attachments, MathML, table of contents, JSON-LD);
// the draft survives a reload; /article lists it and the header box suggests its title; the
// favourite shows in 我的收藏's article tab. Screenshots at 1280 and 375 px, axe on /article
// and /article/{identifier}, no console errors anywhere.
// The comments step (comment on the published article) belongs to the comments feature: it takes
// the article page that publishThroughEditor leaves open.
// Run: bun test ./tests/e2e/articles.e2e.ts
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import sharp from "sharp";
import { axe, hydrated, ADMIN, launchBrowser, loginAsAdmin, openPage, screenshotCheck, serverApi, startServer, type Server, type TrackedPage } from "./harness.ts";

const TEST_TIMEOUT_MS = 60_000;
let server: Server;
let browser: Browser;
let token = "";
let categoryId = 0;
const opened: TrackedPage[] = [];
let published = "";

const api = (method: string, path: string, body?: unknown) => serverApi(server.url, method, path, token, body);

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  token = (await serverApi(server.url, "POST", "/user/login", undefined, ADMIN)).token;
  const parent = (await api("POST", "/category", { title: "技术分享", type: 1 })).id;
  categoryId = (await api("POST", "/category", { title: "前端开发", type: 1, parent_id: parent })).id;
  await api("POST", "/category", { title: "站点公告", type: 1 });
  // Something to list beside the article written in the browser.
  const first = await api("POST", "/article", { title: "CSS 网格布局速查", content: "## 网格容器\n\n`display: grid` 开启网格布局。", category_id: [parent, categoryId], description: "常用网格属性一页看完。" });
  await api("POST", "/article", { title: "站点使用说明", content: "欢迎来到本站。", keywords: "公告,说明" });
  await api("PUT", "/article/recommend", { id: [first.id], type: 1 });
}, 90_000);

afterAll(async () => {
  try {
    for (const p of opened) expect(p.errors).toEqual([]);
  } finally {
    await browser?.close();
    await server?.stop();
  }
});

async function tracked(width: number, height = 900) {
  const p = await openPage(browser, width, height);
  opened.push(p);
  return p;
}

async function expectAccessible(page: Page) {
  const where = `${new URL(page.url()).pathname} at ${page.viewportSize()?.width}px`;
  const found = (await axe(page)).map((v) => `${where}: ${v.id} (${v.impact}: ${v.help}) on ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`);
  expect(found).toEqual([]);
}

async function diagramPng(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="200"><rect width="480" height="200" fill="#e6f4ff"/><rect x="30" y="60" width="120" height="80" rx="8" fill="#0958d9"/><rect x="330" y="60" width="120" height="80" rx="8" fill="#389e0d"/><path d="M150 100h180" stroke="#1f2329" stroke-width="4"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/**
 * Writes and publishes an article through /post as the signed-in page's user: a heading, an
 * uploaded image and a formula; checks the live preview on the way. Leaves the page on the
 * published article and answers its identifier (the comments step continues from there).
 */
export async function publishThroughEditor(page: Page, base: string): Promise<string> {
  await page.goto(`${base}/post`);
  await hydrated(page, "ArticleEditor");
  await page.locator('input[name="title"]').fill("用 Bun 搭建文库站点");
  await page.locator('select[name="category_id"]').selectOption(String(categoryId));
  const body = page.locator('textarea[name="content"]');
  await body.fill("# 准备工作\n\n质能方程 $E=mc^2$ 与积分：\n\n$$\\int_0^1 x^2\\,dx = \\frac{1}{3}$$\n\n## 架构\n\n");
  await body.press("End");
  await page.locator('.art-toolbar input[type="file"]').setInputFiles({ name: "架构图.png", mimeType: "image/png", buffer: await diagramPng() });
  await page.waitForFunction(() => (document.querySelector('textarea[name="content"]') as HTMLTextAreaElement).value.includes("](/uploads/article/"));
  await page.locator('input[name="keywords"]').fill("Bun,文库");
  // The live preview is the server's renderer: heading, MathML and the uploaded image.
  await page.locator(".art-preview .md-body img").waitFor();
  expect(await page.locator('.art-preview h2[id="h-准备工作"]').count()).toBe(1);
  expect(await page.locator(".art-preview math").count()).toBe(2);
  await page.getByRole("button", { name: "预览", exact: true }).click();
  expect(await page.locator(".art-editor-body.mode-preview").count()).toBe(1);
  expect(await page.locator(".art-write").isVisible()).toBe(false);
  await Promise.all([page.waitForURL((u) => u.pathname.startsWith("/article/")), page.getByRole("button", { name: "发布文章" }).click()]);
  return new URL(page.url()).pathname.split("/").pop()!;
}

describe("write → preview → publish → read", () => {
  test("at 1280 px", async () => {
    const { page } = await tracked(1280);
    await loginAsAdmin(page, server.url);
    await page.goto(`${server.url}/post`);
    await hydrated(page, "ArticleEditor");
    await page.locator('input[name="title"]').fill("截图用的标题");
    await page.locator('textarea[name="content"]').fill("## 小节\n\n正文与 `代码`，公式 $a^2+b^2=c^2$。\n\n```js\nconst ok = true; // 注释\n```");
    await page.locator(".art-preview .md-body pre").waitFor();
    expect((await screenshotCheck(page, "articles-post-1280")).distinctColours).toBeGreaterThan(50);
    await page.locator('textarea[name="content"]').fill("");
    await page.locator('input[name="title"]').fill("");

    published = await publishThroughEditor(page, server.url);
    await hydrated(page, "ArticleActions");
    expect(await page.locator("h1.art-title").textContent()).toBe("用 Bun 搭建文库站点");
    expect(await page.locator('.art-content h2[id="h-准备工作"]').count()).toBe(1);
    expect(await page.locator(".art-content math").count()).toBe(2);
    const img = page.locator(".art-content img");
    expect(await img.getAttribute("src")).toMatch(/^\/uploads\/article\/\d{4}\/\d{2}\/[0-9a-f]{64}\.png$/);
    await img.scrollIntoViewIfNeeded();
    await page.waitForFunction(() => (document.querySelector(".art-content img") as HTMLImageElement | null)?.naturalWidth === 480);
    expect(await page.locator('.art-toc-card a[href="#h-架构"]').count()).toBe(1);
    const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!);
    expect(ld).toMatchObject({ "@type": "Article", headline: "用 Bun 搭建文库站点" });
    expect(await page.locator("section#comments").count()).toBe(1);
    // The published message travels with the redirect.
    expect(await page.locator("#wk-toasts").textContent()).toContain("发布成功");
    await page.evaluate(() => scrollTo(0, 0));
    expect((await screenshotCheck(page, "articles-read-1280")).distinctColours).toBeGreaterThan(50);
    await expectAccessible(page);

    // Favourite from the page; the count follows.
    await page.locator(".art-actions .doc-fav").click();
    await page.locator('.art-actions .doc-fav[aria-pressed="true"]').waitFor();
    expect(await page.locator(".art-actions .doc-fav-count").textContent()).toBe("1");
    // 举报 loads its dialog on the first click, then posts the report for this article.
    await page.locator(".art-actions .doc-report").click();
    const dialog = page.locator('dialog[aria-labelledby="report-title"]');
    await dialog.waitFor();
    await dialog.getByText("垃圾广告").click();
    await dialog.getByRole("button", { name: "提交举报" }).click();
    await page.locator(".art-actions .doc-report", { hasText: "已举报" }).waitFor();
    expect(await page.locator(".art-actions .doc-report").isDisabled()).toBe(true);

    // The favourite is in 我的收藏's article tab, and 取消收藏 there removes it.
    await page.goto(`${server.url}/me/favorite?type=article`);
    await hydrated(page, "ReaderFavoriteList");
    expect(await page.locator(".fav-tabs a[aria-current=page]").textContent()).toBe("文章1");
    expect(await page.locator(".fav-title").first().textContent()).toBe("用 Bun 搭建文库站点");
    await page.getByRole("button", { name: "取消收藏" }).click();
    await page.getByText("还没有收藏文章").waitFor();
    expect(await page.locator(".fav-tabs a[aria-current=page]").textContent()).toBe("文章0");
  }, TEST_TIMEOUT_MS);

  test("/article lists it, recommended first; the header searches articles", async () => {
    const { page } = await tracked(1280);
    await page.goto(`${server.url}/article`);
    await hydrated(page, "HeaderSearch");
    const titles = await page.locator(".art-item-title a").allTextContents();
    expect(titles[0]).toBe("CSS 网格布局速查");
    expect(titles).toContain("用 Bun 搭建文库站点");
    expect(await page.locator(".header-search input[name=wd]").getAttribute("placeholder")).toBe("搜索文章");
    expect(await page.locator("footer.site-footer").count()).toBe(0);
    expect((await screenshotCheck(page, "articles-list-1280")).distinctColours).toBeGreaterThan(50);
    await expectAccessible(page);
    // Typing suggests article titles (not documents), and picking one opens the article.
    await page.locator(".header-search input[name=wd]").fill("搭建文库");
    await page.locator("#header-suggest [role=option]").first().waitFor();
    expect(await page.locator("#header-suggest [role=option]").allTextContents()).toEqual(["用 Bun 搭建文库站点"]);
    await Promise.all([page.waitForURL((u) => u.pathname === `/article/${published}`), page.locator("#header-suggest [role=option]").first().click()]);
    await page.goto(`${server.url}/article`);
    await hydrated(page, "HeaderSearch");
    // Search type 1 from the header box finds it by a body word.
    await page.locator(".header-search input[name=wd]").fill("质能方程");
    await Promise.all([page.waitForURL((u) => u.pathname === "/search"), page.locator(".header-search input[name=wd]").press("Enter")]);
    expect(new URL(page.url()).searchParams.get("type")).toBe("1");
    expect(await page.locator(`.search-hit a[href="/article/${published}"]`).count()).toBeGreaterThan(0);
  }, TEST_TIMEOUT_MS);
});

describe("at 375 px", () => {
  test("the list, the article and the editor fit a phone", async () => {
    const { page } = await tracked(375, 800);
    await page.goto(`${server.url}/article`);
    await hydrated(page, "MobileNav");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect((await screenshotCheck(page, "articles-list-375")).distinctColours).toBeGreaterThan(30);
    await expectAccessible(page);

    await page.goto(`${server.url}/article/${published}`);
    await hydrated(page, "ArticleActions");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    // The side table of contents gives way to the inline one.
    expect(await page.locator(".art-toc-inline").isVisible()).toBe(true);
    expect(await page.locator(".art-toc-card").isVisible()).toBe(false);
    expect((await screenshotCheck(page, "articles-read-375")).distinctColours).toBeGreaterThan(30);
    await expectAccessible(page);

    await loginAsAdmin(page, server.url);
    await page.goto(`${server.url}/post`);
    await hydrated(page, "ArticleEditor");
    await page.locator('input[name="title"]').fill("手机上写文章");
    await page.locator('textarea[name="content"]').fill("## 手机\n\n也能写 $x^2$。");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect((await screenshotCheck(page, "articles-post-375")).distinctColours).toBeGreaterThan(30);
    await page.getByRole("button", { name: "预览", exact: true }).click();
    await page.locator(".art-preview .md-body h3").waitFor();
    expect((await screenshotCheck(page, "articles-preview-375")).distinctColours).toBeGreaterThan(30);
  }, TEST_TIMEOUT_MS);
});

describe("the draft", () => {
  test("survives a reload, and can be discarded", async () => {
    const { page } = await tracked(1280);
    await loginAsAdmin(page, server.url);
    await page.goto(`${server.url}/post`);
    await hydrated(page, "ArticleEditor");
    await page.locator('input[name="title"]').fill("没写完的草稿");
    await page.locator('textarea[name="content"]').fill("写到一半……");
    await page.waitForFunction(() => localStorage.getItem("wk-article-draft:new")?.includes("没写完的草稿"));
    await page.reload();
    await hydrated(page, "ArticleEditor");
    await page.getByText("已恢复上次未发布的草稿").waitFor();
    expect(await page.locator('input[name="title"]').inputValue()).toBe("没写完的草稿");
    expect(await page.locator('textarea[name="content"]').inputValue()).toBe("写到一半……");
    await page.getByRole("button", { name: "丢弃草稿" }).click();
    expect(await page.locator('input[name="title"]').inputValue()).toBe("");
    expect(await page.evaluate(() => localStorage.getItem("wk-article-draft:new"))).toBeNull();
  }, TEST_TIMEOUT_MS);
});

describe("comment on the article", () => {
  test("the published article takes a comment, shown at once and after a reload", async () => {
    expect(published).not.toBe("");
    const { page } = await tracked(1280);
    await loginAsAdmin(page, server.url);
    await page.goto(`${server.url}/article/${published}#comments`);
    await hydrated(page, "Comments");
    expect(await page.locator("#comments-title").textContent()).toBe("评论 0");
    await page.locator(".cmt > .cmt-form textarea").fill("写得清楚，$E=mc^2$ 原样显示，<b>也不会变粗</b>。");
    await page.getByRole("button", { name: "发表评论" }).click();
    await page.getByText("评论成功").first().waitFor();
    const first = page.locator(".cmt-list > .cmt-item").first();
    expect(await first.locator(".cmt-text").textContent()).toBe("写得清楚，$E=mc^2$ 原样显示，<b>也不会变粗</b>。");
    expect(await first.locator(".cmt-text b").count()).toBe(0);
    expect(await page.locator("#comments-title").textContent()).toBe("评论 1");
    await page.reload();
    await hydrated(page, "Comments");
    expect(await page.locator(".cmt-list > .cmt-item").count()).toBe(1);
    await page.locator("#comments").scrollIntoViewIfNeeded();
    await screenshotCheck(page, "articles-comment-1280");
  }, TEST_TIMEOUT_MS);
});
