// The article pages: /article (category filter, sorts, pages, hot articles, no footer),
// /article/{identifier} (JSON-LD, meta description, TOC, safe body, comments mount, related,
// views), /post (login, rights, editing one's own), /me/article, /user/{id}/article, the home
// blocks, the sitemap, and the admin screens.
import { beforeAll, describe, expect, test } from "bun:test";
import { getSqlite } from "#db/client.ts";
import { flushArticleViews, resetArticleViews } from "#src/features/articles/views.ts";
import { sitemapParts } from "#src/features/site/sitemap.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { MEMBERS, articleRow, cookie, html, joinGroup, makeArticleCategory, publish, uploadImage, useImageRoot } from "./articles-fixtures.ts";

const t = setupTestApp();
useImageRoot();
let cat = 0;
let sub = 0;
let img = "";
let main = { id: 0, identifier: "" };
let pending = { id: 0, identifier: "" };

const BODY = (image: string) => `# 安装

先安装依赖：

\`\`\`bash
bun install # 安装
\`\`\`

## 配置

访问 [官网](https://bun.sh) 或 [站内分类](/category)。公式 $E=mc^2$：

$$\\int_0^1 x\\,dx = \\frac{1}{2}$$

![架构图](${image})

<script>alert("xss")</script>

# 总结

完成。`;

beforeAll(async () => {
  joinGroup(t.userId, MEMBERS);
  cat = makeArticleCategory("教程").id;
  sub = makeArticleCategory("入门", { parent: cat }).id;
  img = await uploadImage(t, t.rootToken, 9);
  main = await publish(t, t.rootToken, { title: "Bun 入门指南", content: BODY(img), category_id: [cat, sub], keywords: "bun,运行时", description: "十分钟上手 Bun。", cover: img });
  for (let i = 1; i <= 22; i++) await publish(t, t.rootToken, { title: `填充文章 ${i}`, content: `第 ${i} 篇的正文`, category_id: [cat] });
  pending = await publish(t, t.userToken, { title: "会员的待审文章", content: "还在审核" });
  // Recommended: first in /article's default order, ahead of the 22 newer ones.
  await t.req("PUT", "/api/v1/article/recommend", { token: t.rootToken, body: { id: [main.id], type: 1 } });
});

const get = (path: string, token?: string) => t.req("GET", path, { headers: token ? cookie(token) : html });

describe("/article", () => {
  test("lists approved articles with pages, sorts and the category filter; no footer", async () => {
    const r = await get("/article");
    expect(r.status).toBe(200);
    expect(r.text).toContain("Bun 入门指南");
    expect(r.text).not.toContain("会员的待审文章");
    expect(r.text).toContain("热门文章");
    expect(r.text).not.toContain('class="site-footer"');
    expect(r.text).toContain('href="/article?page=2"');
    expect(r.text).toContain('href="/article?sort=hot"');
    expect(r.text).toContain('<link rel="canonical" href="http://localhost/article"/>');
    const p2 = await get("/article?page=2");
    expect(p2.status).toBe(200);
    expect((await get("/article?page=99")).status).toBe(404);
    const inSub = await get(`/article?category_id=${sub}`);
    expect(inSub.text).toContain("Bun 入门指南");
    expect(inSub.text).not.toContain("填充文章 1<");
    expect(inSub.text).toContain("<title>入门 - 教程");
    expect((await get("/article?category_id=999999")).status).toBe(404);
    // A bad sort or page falls back to the defaults instead of an error page.
    expect((await get("/article?sort=evil&page=abc")).status).toBe(200);
    // The header box searches articles here.
    expect(r.text).toContain('placeholder="搜索文章"');
  });
});

describe("/article/{identifier}", () => {
  test("renders the body safely with anchors, TOC, code colours, math and the site image", async () => {
    const r = await get(`/article/${main.identifier}`);
    expect(r.status).toBe(200);
    expect(r.text).toContain('<h1 class="art-title">Bun 入门指南</h1>');
    expect(r.text).toContain('<h2 id="h-安装">');
    expect(r.text).toContain('<a href="#h-配置">配置</a>');
    expect(r.text).toContain('<span class="hl-c"># 安装</span>');
    expect(r.text).toContain('<a href="https://bun.sh" target="_blank" rel="nofollow noopener noreferrer">官网</a>');
    expect(r.text).toContain('<a href="/category">站内分类</a>');
    expect(r.text).toMatch(/<math display="block" class="tml-display">/);
    expect(r.text).toContain(`<img src="${img}" alt="架构图" loading="lazy" />`);
    expect(r.text).toContain('&lt;script&gt;alert("xss")&lt;/script&gt;');
    expect(r.text).not.toContain('<script>alert("xss")');
    expect(r.text).toContain('<section id="comments"');
    expect(r.text).toContain("相关文章");
    expect(r.text).toContain('class="site-footer"');
  });

  test("meta description, keywords, canonical, og and Article JSON-LD", async () => {
    const r = await get(`/article/${main.identifier}`);
    expect(r.text).toContain('<meta name="description" content="十分钟上手 Bun。"/>');
    expect(r.text).toContain('<meta name="keywords" content="bun,运行时"/>');
    expect(r.text).toContain(`<link rel="canonical" href="http://localhost/article/${main.identifier}"/>`);
    expect(r.text).toContain('<meta property="og:type" content="article"/>');
    const m = /<script type="application\/ld\+json">(.*?)<\/script>/.exec(r.text);
    expect(m).not.toBeNull();
    const ld = JSON.parse(m![1]!);
    expect(ld).toMatchObject({ "@type": "Article", headline: "Bun 入门指南", description: "十分钟上手 Bun。", author: { "@type": "Person", name: "root" }, mainEntityOfPage: `http://localhost/article/${main.identifier}` });
    expect(ld.image).toEqual([`http://localhost${img}`]);
  });

  test("unknown identifiers are 404; identifiers are case-insensitive", async () => {
    expect((await get("/article/nope-nothing")).status).toBe(404);
    expect((await get("/article/a%3Cb")).status).toBe(404);
    expect((await get(`/article/${main.identifier.toUpperCase()}`)).status).toBe(200);
  });

  test("the view beacon counts a visitor once a day, never a bot", async () => {
    resetArticleViews();
    const before = articleRow(main.id)!.view_count;
    const ua = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120 Safari/537.36" };
    const beacon = (headers: Record<string, string>) => t.req("POST", "/api/v1/article/view", { body: JSON.stringify({ identifier: main.identifier }), headers: { "content-type": "text/plain", ...headers } });
    expect((await beacon(ua)).body).toEqual({ counted: true });
    expect((await beacon(ua)).body).toEqual({ counted: false });
    expect((await beacon({ "user-agent": "curl/8.0" })).body).toEqual({ counted: false });
    expect((await t.req("POST", "/api/v1/article/view", { body: JSON.stringify({ identifier: pending.identifier }), headers: ua })).status).toBe(404);
    expect((await t.req("POST", "/api/v1/article/view", { body: "{oops", headers: ua })).status).toBe(400);
    flushArticleViews();
    expect(articleRow(main.id)!.view_count).toBe(before + 1);
  });
});

describe("/post", () => {
  test("anonymous visitors go to login; members get the editor; no right shows why", async () => {
    const anon = await get("/post");
    expect(anon.status).toBe(302);
    expect(anon.res.headers.get("location")).toBe("/login?redirect=%2Fpost");
    const page = await get("/post", t.userToken);
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-island="ArticleEditor"');
    expect(page.text).toContain("提交后需要管理员审核");
    const loner = await t.createUser("post_loner");
    const refused = await get("/post", loner.token);
    expect(refused.text).toContain("您所在的用户组没有发布文章的权限");
    expect(refused.text).not.toContain('data-island="ArticleEditor"');
  });

  test("?id= edits one's own article (prefilled); someone else's is a 404", async () => {
    const mine = await get(`/post?id=${pending.id}`, t.userToken);
    expect(mine.status).toBe(200);
    expect(mine.text).toContain("编辑文章");
    expect(mine.text).toContain("还在审核");
    expect((await get(`/post?id=${main.id}`, t.userToken)).status).toBe(404);
    expect((await get("/post?id=abc", t.userToken)).status).toBe(404);
    expect((await get(`/post?id=${main.id}`, t.rootToken)).status).toBe(200);
  });
});

describe("personal pages, home and sitemap", () => {
  test("/me/article lists every status of one's own; /user/{id}/article only approved ones", async () => {
    const me = await get("/me/article", t.userToken);
    expect(me.status).toBe(200);
    expect(me.text).toContain('data-island="MyArticleList"');
    expect(me.text).toContain("会员的待审文章");
    const pub = await get(`/user/${t.userId}/article`);
    expect(pub.text).not.toContain("会员的待审文章");
    expect(pub.text).toContain("TA 还没有发布文章");
    const root = await get(`/user/${t.rootId}/article`);
    expect(root.text).toContain("填充文章 22");
    expect(root.text).toContain(`href="/user/${t.rootId}/article?page=2"`);
  });

  test("/me/favorite lists article favourites in their own tab beside documents; removing one works", async () => {
    expect((await t.req("POST", "/api/v1/article/favorite", { token: t.userToken, body: { article_id: main.id } })).status).toBe(200);
    const list = await t.req("GET", "/api/v1/article/favorite/list?page=1&size=10", { token: t.userToken });
    expect(list.body.total).toBe(1);
    expect(list.body.favorite[0]).toMatchObject({ article_id: main.id, identifier: main.identifier, title: "Bun 入门指南", visible: true });
    expect((await t.req("GET", "/api/v1/article/favorite/list")).status).toBe(401);
    expect((await t.req("GET", "/api/v1/article/favorite/list?size=101", { token: t.userToken })).body.message).toBe("每页最多 100 条");

    const tab = await get("/me/favorite?type=article", t.userToken);
    expect(tab.status).toBe(200);
    expect(tab.text).toContain('data-island="ReaderFavoriteList"');
    expect(tab.text).toContain(`href="/article/${main.identifier}"`);
    expect(tab.text).toContain('aria-current="page">文章<span class="fav-tab-count">1</span>');
    // The document tab stays the default and counts the other kind.
    const docs = await get("/me/favorite", t.userToken);
    expect(docs.text).toContain("还没有收藏文档");
    expect(docs.text).toContain('href="/me/favorite?type=article">文章<span class="fav-tab-count">1</span>');
    expect(docs.text).not.toContain("Bun 入门指南</a>");

    // Removing goes through the article favourite API (what the island's 取消收藏 calls).
    expect((await t.req("DELETE", `/api/v1/article/favorite?article_id=${main.id}`, { token: t.userToken })).status).toBe(200);
    expect((await t.req("GET", "/api/v1/article/favorite/list", { token: t.userToken })).body.total).toBe(0);
    expect((await get("/me/favorite?type=article", t.userToken)).text).toContain("还没有收藏文章");
  });

  test("home shows the latest and the recommended articles", async () => {
    const r = await get("/");
    expect(r.text).toContain("最新文章");
    expect(r.text).toContain("推荐文章");
    expect(r.text).toContain(`href="/article/${main.identifier}"`);
    expect(r.text).not.toContain("会员的待审文章");
  });

  test("the sitemap lists approved articles only", () => {
    const locs = sitemapParts.flatMap((p) => p.urls().map((u) => u.loc));
    expect(locs).toContain(`/article/${main.identifier}`);
    expect(locs).not.toContain(`/article/${pending.identifier}`);
  });
});

describe("admin screens", () => {
  test("root opens all four; members are sent away; the menu has 文章管理", async () => {
    for (const path of ["/admin/article/list", "/admin/article/category", "/admin/article/recycle", "/admin/article/set"]) {
      const r = await get(path, t.rootToken);
      expect({ path, status: r.status }).toEqual({ path, status: 200 });
      expect(r.text).toContain("文章管理");
      expect((await get(path, t.userToken)).status).toBe(302);
    }
    const set = await get("/admin/article/set", t.rootToken);
    expect(set.text).toContain("会员发布的文章需要审核");
    expect(set.text).toContain("评论设置");
    const list = await get("/admin/article/list", t.rootToken);
    expect(list.text).toContain('data-island="AdminArticleList"');
    expect(list.text).toContain("会员的待审文章");
  });

  test("the article routes are registered permissions of the 文章 group (/admin/article)", () => {
    const rows = getSqlite().query("SELECT method, path, category, page FROM permission WHERE path LIKE '/api/v1/article%' ORDER BY path, method").all() as { method: string; path: string; category: string; page: string }[];
    expect(rows.map((r) => `${r.method} ${r.path}`)).toEqual(expect.arrayContaining([
      "PUT /api/v1/article/check", "PUT /api/v1/article/recommend", "GET /api/v1/article/recycle/list", "PUT /api/v1/article/recycle/restore", "DELETE /api/v1/article/recycle",
    ]));
    expect(rows.every((r) => r.category === "article" && r.page === "/admin/article")).toBe(true);
  });
});
