// Sections of the product (src/features/site/sections.ts): while one is off, no page links to it,
// whatever the stored navigation, banners and footer settings say. Both are built now (`vip` by the
// commerce issue, `articles` by the articles issue), so the stored links into them show again: the
// check below still runs over every page and would catch a link into a section switched off.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { getDb, getSqlite } from "#db/client.ts";
import { banner, category, navigation } from "#db/schema/site.ts";
import { setDocumentsRoot } from "#src/features/documents/paths.ts";
import { isBuilt, sectionOf, SECTIONS } from "#src/features/site/sections.ts";
import { sitemapParts } from "#src/features/site/sitemap.ts";
import { bumpContentVersion } from "#src/lib/contentVersion.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { makeCategory, makeDoc, setConfig, useDocumentsRoot } from "./reader-fixtures.ts";

const t = setupTestApp();
let docsRoot = "";
let docUuid = "";
let articleCat = 0;

beforeAll(() => {
  docsRoot = useDocumentsRoot();
  const top = makeCategory("教育专区");
  const leaf = makeCategory("小学", top.id);
  docUuid = makeDoc({ userId: t.userId, title: "小学数学口算练习题", categoryIds: [top.id, leaf.id], cover: true }).uuid;
  articleCat = getDb().insert(category).values({ title: "站点公告", parent_id: 0, type: 1 }).returning().get().id;
  // Stored entries into unbuilt sections, beside real ones; the fixed 文章资讯 entry is seeded by the migrations.
  const nav = (title: string, href: string, parent_id = 0, sort = 10) => getDb().insert(navigation).values({ title, href, parent_id, sort }).returning().get();
  nav("VIP 会员", "/joinvip");
  nav("投稿", "/post?from=nav");
  const more = nav("更多", "");
  nav("加入 VIP", "/joinvip", more.id, 0);
  nav("小学资料", `/category/${leaf.id}`, more.id, 1);
  const only = nav("资讯", "");
  nav("公告", "/article/1", only.id, 0);
  getDb().insert(banner).values({ title: "开通 VIP", path: "/uploads/banner/x.png", url: "/joinvip", type: 0, sort: 0 }).run();
  getDb().insert(banner).values({ title: "考研资料", path: "/uploads/banner/y.png", url: `/category/${top.id}`, type: 0, sort: 1 }).run();
  setConfig([["footer", "about", "/article/about"], ["footer", "agreement", "/category"], ["vip", "enable", true], ["recharge", "enable", true]]);
  bumpContentVersion();
});
afterAll(() => {
  setDocumentsRoot(null);
  rmSync(docsRoot, { recursive: true, force: true });
});

const cookie = (token: string) => ({ accept: "text/html", cookie: `wk_token=${token}` });
const get = (path: string, token?: string) => t.req("GET", path, { headers: token ? cookie(token) : { accept: "text/html" } });

/** Paths of the sections that are off, written out here rather than taken from sectionOf. */
const UNBUILT = [!SECTIONS.articles ? /^\/(?:post|article)(?:[/?#]|$)/i : null, !SECTIONS.vip ? /^\/joinvip(?:[/?#]|$)/i : null].filter((r): r is RegExp => !!r);
/** The patterns a switched-off section would have, to prove the check itself works. */
const ALL = [/^\/(?:post|article)(?:[/?#]|$)/i, /^\/joinvip(?:[/?#]|$)/i];

/** Every link in the HTML into an unbuilt section: attributes and island props (JSON) alike. */
function unbuiltLinks(html: string, patterns = UNBUILT): string[] {
  const decoded = html.replace(/&quot;/g, '"').replace(/&amp;/g, "&");
  const hrefs = [...decoded.matchAll(/href="([^"]*)"|"(?:href|url|link)":"([^"]*)"/g)].map((m) => (m[1] ?? m[2]!).trim());
  return hrefs.filter((h) => patterns.some((re) => re.test(h)));
}

describe("sections.ts", () => {
  test("both sections are on; they classify same-site paths only", () => {
    expect(SECTIONS).toEqual({ articles: true, vip: true });
    for (const h of ["/post", "/post?x=1", "/article", "/article?category_id=3", "/article/about", "/ARTICLE"]) expect(sectionOf(h)).toBe("articles");
    for (const h of ["/joinvip", "/joinvip?from=me"]) expect(sectionOf(h)).toBe("vip");
    for (const h of ["/", "/me/article", "/user/1/article", "/me/vip", "/posts", "/articles", "https://x.test/article", "//x.test/post", ""]) expect(sectionOf(h)).toBeNull();
    expect(isBuilt("/joinvip")).toBe(true);
    expect(isBuilt("/post")).toBe(true);
    expect(isBuilt("/category")).toBe(true);
  });
});

describe("no links into unbuilt sections", () => {
  const pages = () => ["/", "/category", `/document/${docUuid}`, `/search?wd=${encodeURIComponent("口算")}`, `/user/${t.userId}`, `/user/${t.userId}/article`, "/joinvip"];
  const mePages = ["/me", "/me/document", "/me/article", "/me/order", "/me/vip", "/me/profile"];

  test("the check itself finds such links", () => {
    expect(UNBUILT.length).toBe(0);
    expect(unbuiltLinks('<a href="/post">x</a><a href="/article?category_id=1">y</a><a href="/me/article">z</a><i data-props="{&quot;href&quot;:&quot;/post?a=1&quot;}"></i><a href="/joinvip">v</a>', ALL))
      .toEqual(["/post", "/article?category_id=1", "/post?a=1", "/joinvip"]);
  });

  test("anonymous visitor: public pages", async () => {
    for (const path of pages()) {
      const r = await get(path);
      expect({ path, status: r.status }).toEqual({ path, status: 200 });
      expect({ path, bad: unbuiltLinks(r.text) }).toEqual({ path, bad: [] });
    }
  });

  for (const who of ["member", "root"] as const) {
    test(`signed-in ${who}: public pages, /me pages and the own homepage`, async () => {
      const token = who === "root" ? t.rootToken : t.userToken;
      for (const path of [...pages(), ...mePages]) {
        const r = await get(path, token);
        expect({ path, status: r.status }).toEqual({ path, status: 200 });
        expect({ path, bad: unbuiltLinks(r.text) }).toEqual({ path, bad: [] });
      }
    });
  }

  test("what is left still shows: real navigation children, the real banner and footer link", async () => {
    const r = await get("/", t.userToken);
    expect(r.text).toContain(">小学资料</a>");
    // VIP is built: its navigation entry, the child inside 更多 and the banner link are back.
    expect(r.text).toMatch(/href="\/joinvip"[^>]*>VIP 会员<\/a>/);
    expect(r.text).toMatch(/href="\/joinvip"[^>]*>加入 VIP<\/a>/);
    // Articles are built: the stored entries into them, the fixed 文章资讯 entry and the home block show.
    expect(r.text).toContain(">更多<");
    expect(r.text).toContain(">资讯<");
    expect(r.text).toContain('href="/article/1"');
    expect(r.text).toContain('href="/post?from=nav"');
    expect(r.text).toContain("文章资讯");
    expect(r.text).toContain("最新文章");
    expect(r.text).toContain('href="/category">用户协议</a>');
    expect(r.text).toContain('href="/article/about"');
    expect(r.text).toMatch(/<a class="banner" href="\/joinvip" title="开通 VIP"/);
    expect(r.text).toMatch(/<a class="banner" href="\/category\/\d+" title="考研资料"/);
    // Stored values are untouched.
    expect(getSqlite().query("select value from config where category = 'footer' and name = 'about'").get()).toEqual({ value: "/article/about" });
    expect(getSqlite().query("select count(*) as n from navigation where fixed = 'article' and enable = 1").get()).toEqual({ n: 1 });
  });

  test("me and homepage tabs: 我的文章 and the 文章 tab", async () => {
    const me = await get("/me", t.userToken);
    expect(me.text).toContain("我的文章");
    const home = await get(`/user/${t.userId}`, t.userToken);
    expect(home.text).toContain(`href="/user/${t.userId}/article"`);
    expect((await get(`/user/${t.userId}/article`, t.userToken)).status).toBe(200);
  });

  test("the sitemap lists the article pages, and nothing unbuilt", () => {
    const locs = sitemapParts.flatMap((p) => p.urls().map((u) => u.loc));
    expect(locs).toContain("/category");
    expect(locs.filter((l) => !isBuilt(l))).toEqual([]);
    expect(locs).toContain("/article");
    expect(locs).toContain(`/article?category_id=${articleCat}`);
  });
});
