// Shared pages with personal slots (views/personal.tsx, http/pageCache.ts): members are served the
// kept page with their own parts rendered for them. Nothing of one member may reach another, what
// depends on permissions or purchases must stay right, and content changes show at once.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { document } from "#db/schema/documents.ts";
import { searchRecord } from "#db/schema/search.ts";
import { advertisement } from "#db/schema/site.ts";
import { user } from "#db/schema/users.ts";
import { setDocumentsRoot } from "#src/features/documents/paths.ts";
import { flushSearchRecords } from "#src/features/search/records.ts";
import { clearPageCache } from "#src/http/pageCache.ts";
import { bumpContentVersion } from "#src/lib/contentVersion.ts";
import { setupOrders } from "./orders-fixtures.ts";
import { makeDoc, setConfig, useDocumentsRoot } from "./reader-fixtures.ts";
import { addDoc } from "./search-fixtures.ts";

const o = setupOrders();
const t = o.t;
let root = "";
beforeAll(() => void (root = useDocumentsRoot()));
afterAll(() => {
  setDocumentsRoot(null);
  rmSync(root, { recursive: true, force: true });
});

const html = { accept: "text/html" };
const page = (path: string, token?: string, headers: Record<string, string> = {}) => t.req("GET", path, { headers: { ...html, ...headers }, token });
const unescapeHtml = (s: string) => s.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
function islandProps(body: string, name: string): any {
  const m = new RegExp(`data-island="${name}" data-props="([^"]*)"`).exec(body);
  return m ? JSON.parse(unescapeHtml(m[1]!)) : null;
}
const cacheOf = (r: { res: Response }) => r.res.headers.get("x-cache");

describe("members on shared pages", () => {
  test("two members each get their own name and menu from the same kept page; visitors get none", async () => {
    clearPageCache();
    const a = await o.member();
    const b = await o.member();
    for (const path of ["/", "/category", "/article", "/search?wd=测试"]) {
      const anon = await page(path);
      const ra = await page(path, a.token);
      const rb = await page(path, b.token);
      const ra2 = await page(path, a.token);
      expect([path, cacheOf(ra), cacheOf(rb), cacheOf(ra2)]).toEqual([path, "SHARED", "SHARED", "SHARED"]);
      expect(ra.res.headers.get("cache-control")).toBe("private, no-cache");
      expect(islandProps(ra.text, "UserMenu").user).toMatchObject({ id: a.id, username: a.username });
      expect(islandProps(rb.text, "UserMenu").user).toMatchObject({ id: b.id, username: b.username });
      expect(islandProps(ra2.text, "MobileNav").user).toMatchObject({ id: a.id, username: a.username });
      expect(ra.text).not.toContain(b.username);
      expect(rb.text).not.toContain(a.username);
      expect(ra2.text).toBe(ra.text);
      expect(islandProps(anon.text, "UserMenu").user).toBeNull();
      expect(anon.text).not.toContain(a.username);
      expect(anon.text).not.toContain(b.username);
      // No marker of the shared render reaches anyone.
      for (const r of [anon, ra, rb]) expect(r.text).not.toMatch(/[\uE000-\uE002]/);
    }
  });

  test("gzip: the member's page (spliced deflate segments) decodes to the same bytes as the plain one", async () => {
    const a = await o.member();
    const plain = await t.app.request("/", { headers: { ...html, authorization: `Bearer ${a.token}` } });
    const zipped = await t.app.request("/", { headers: { ...html, authorization: `Bearer ${a.token}`, "accept-encoding": "gzip" } });
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    const body = new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await zipped.arrayBuffer())));
    expect(body).toBe(await plain.text());
    expect(body).toContain(a.username);
  });

  test("an admin sees 管理后台 in the menus, a member does not, on the same kept page", async () => {
    clearPageCache();
    const m = await o.member();
    for (const path of ["/", "/search?wd=文档"]) {
      const admin = await page(path, t.rootToken);
      const member = await page(path, m.token);
      expect([cacheOf(admin), cacheOf(member)]).toEqual(["SHARED", "SHARED"]);
      expect(islandProps(admin.text, "UserMenu").showAdmin).toBe(true);
      expect(islandProps(admin.text, "MobileNav").showAdmin).toBe(true);
      expect(admin.text).toContain('href="/admin"');
      expect(islandProps(member.text, "UserMenu").showAdmin).toBe(false);
      expect(member.text).not.toContain('href="/admin"');
    }
  });

  test("VIPs see no ads on a shared page; other members and visitors do", async () => {
    clearPageCache();
    getDb().insert(advertisement).values({ position: "index_1", title: "广告", content: "<b>AD-MARK-1</b>" }).run();
    bumpContentVersion();
    const vip = await o.member();
    getDb().update(user).set({ vip_until: Date.now() + 86400_000 }).where(eq(user.id, vip.id)).run();
    const plain = await o.member();
    const anon = await page("/");
    expect(anon.text).toContain("AD-MARK-1");
    expect((await page("/", plain.token)).text).toContain("AD-MARK-1");
    const v = await page("/", vip.token);
    expect(cacheOf(v)).toBe("SHARED");
    expect(v.text).not.toContain("AD-MARK-1");
  });
});

describe("the reader page for members", () => {
  test("favourite state is each member's own", async () => {
    const owner = await o.member();
    const a = await o.member();
    const b = await o.member();
    const d = makeDoc({ userId: owner.id });
    expect((await t.req("POST", "/api/v1/favorite", { token: a.token, body: { document_id: d.id } })).status).toBe(200);
    const ra = await page(`/document/${d.uuid}`, a.token);
    const rb = await page(`/document/${d.uuid}`, b.token);
    expect([cacheOf(ra), cacheOf(rb)]).toEqual(["SHARED", "SHARED"]);
    expect(islandProps(ra.text, "DocumentActions")).toMatchObject({ loggedIn: true });
    expect(islandProps(ra.text, "DocumentActions").favoriteId).toBeGreaterThan(0);
    expect(islandProps(ra.text, "DocumentActions").favoriteCount).toBe(1);
    expect(islandProps(rb.text, "DocumentActions")).toMatchObject({ loggedIn: true, favoriteId: 0, favoriteCount: 1 });
    expect(islandProps((await page(`/document/${d.uuid}`)).text, "DocumentActions")).toMatchObject({ loggedIn: false, favoriteId: 0 });
    // The comments island knows who is reading.
    expect(islandProps(ra.text, "Comments").viewer).toMatchObject({ id: a.id });
    expect(islandProps(rb.text, "Comments").viewer).toMatchObject({ id: b.id });
    expect(islandProps((await page(`/document/${d.uuid}`)).text, "Comments").viewer).toBeNull();
  });

  test("a paid document: the owner reads every page and gets 我上传的, a buyer reads every page, a stranger gets the preview and 购买", async () => {
    clearPageCache();
    const owner = await o.member();
    const buyer = await o.member(100);
    const stranger = await o.member(100);
    const d = makeDoc({ userId: owner.id, pages: 6, preview: 2, title: "付费全文测试" });
    getDb().update(document).set({ price: 10, rendered_pages: 6 }).where(eq(document.id, d.id)).run();
    bumpContentVersion();
    const anon = await page(`/document/${d.uuid}`);
    expect(islandProps(anon.text, "ReaderPages")).toMatchObject({ preview: 2 });
    const s = await page(`/document/${d.uuid}`, stranger.token);
    expect(cacheOf(s)).toBe("SHARED");
    expect(islandProps(s.text, "ReaderPages")).toMatchObject({ preview: 2 });
    expect(islandProps(s.text, "DownloadButton").buy).toMatchObject({ documentId: d.id, credits: 10 });
    expect(s.text).toContain("购买后即可阅读全文");
    const own = await page(`/document/${d.uuid}`, owner.token);
    expect(islandProps(own.text, "ReaderPages")).toMatchObject({ preview: 6 });
    expect(islandProps(own.text, "DownloadButton")).toMatchObject({ price: 0, note: "我上传的" });
    expect(islandProps(own.text, "DownloadButton").buy).toBeUndefined();
    expect(own.text).not.toContain("购买后即可阅读全文");

    const no = await o.create(buyer.token, { order_type: 1, product_id: d.id, quantity: 1 });
    expect((await t.req("POST", "/api/v1/order/pay", { token: buyer.token, body: { order_no: no, payment_type: 5 } })).body).toEqual({ payment_type: 5, status: 2 });
    const bought = await page(`/document/${d.uuid}`, buyer.token);
    expect(islandProps(bought.text, "ReaderPages")).toMatchObject({ preview: 6 });
    expect(islandProps(bought.text, "DownloadButton")).toMatchObject({ price: 0, note: "已购买" });
    // The stranger still gets the preview after someone else bought it.
    expect(islandProps((await page(`/document/${d.uuid}`, stranger.token)).text, "ReaderPages")).toMatchObject({ preview: 2 });
  });
});

describe("content changes show at once for members", () => {
  test("an edited title, a new document and a setting change", async () => {
    clearPageCache();
    const m = await o.member();
    const d = makeDoc({ userId: m.id, title: "改名之前的标题" });
    bumpContentVersion();
    expect((await page(`/document/${d.uuid}`, m.token)).text).toContain("改名之前的标题");
    expect((await page("/", m.token)).text).toContain("改名之前的标题");
    const edit = await t.req("PUT", "/api/v1/document", { token: t.rootToken, body: { id: d.id, title: "改名之后的标题" } });
    expect(edit.status).toBe(200);
    for (const path of [`/document/${d.uuid}`, "/"]) {
      const r = await page(path, m.token);
      expect(cacheOf(r)).toBe("SHARED");
      expect(r.text).toContain("改名之后的标题");
      expect(r.text).not.toContain("改名之前的标题");
    }
    const fresh = addDoc({ title: "刚刚上传的新文档", userId: m.id });
    bumpContentVersion();
    expect((await page("/", m.token)).text).toContain(fresh.uuid);
    setConfig([["system", "sitename", "改过名字的文库"]]);
    const after = await page("/", m.token);
    expect(after.text).toContain("改过名字的文库");
    expect(cacheOf(after)).toBe("SHARED");
  });
});

describe("/search", () => {
  const rows = () => {
    flushSearchRecords();
    return getDb().select().from(searchRecord).all();
  };
  test("kept per URL for visitors and members, and every search still reaches the log with its user", async () => {
    clearPageCache();
    const hit = addDoc({ title: "缓存搜索专用文档", userId: t.userId });
    bumpContentVersion();
    const m = await o.member();
    const before = rows().length;
    const first = await page("/search?wd=缓存搜索");
    const second = await page("/search?wd=缓存搜索");
    const mine = await page("/search?wd=缓存搜索", m.token);
    const mine2 = await page("/search?wd=缓存搜索", m.token);
    expect([cacheOf(first), cacheOf(second), cacheOf(mine), cacheOf(mine2)]).toEqual(["MISS", "HIT", "SHARED", "SHARED"]);
    expect(second.text.includes(hit.uuid)).toBe(true);
    expect(mine.text.includes(hit.uuid)).toBe(true);
    expect(islandProps(mine.text, "UserMenu").user).toMatchObject({ id: m.id });
    const logged = rows().slice(before).filter((r) => r.keywords === "缓存搜索");
    expect(logged.map((r) => r.user_id)).toEqual([0, 0, m.id, m.id]);
    expect(logged.every((r) => r.total === 1)).toBe(true);
    // Another page or filter is another entry; a member's first visit to it is logged once.
    const p2 = await page("/search?wd=缓存搜索&sort=latest", m.token);
    expect(cacheOf(p2)).toBe("SHARED");
    expect(rows().slice(before).filter((r) => r.keywords === "缓存搜索")).toHaveLength(5);
  });

  test("a document indexed after a search was kept shows at once", async () => {
    clearPageCache();
    const m = await o.member();
    expect((await page("/search?wd=后来才有", m.token)).text.includes("共找到 0 篇")).toBe(true);
    const later = addDoc({ title: "后来才有的文档", userId: t.userId });
    bumpContentVersion();
    expect((await page("/search?wd=后来才有", m.token)).text.includes(later.uuid)).toBe(true);
    expect((await page("/search?wd=后来才有")).text.includes(later.uuid)).toBe(true);
  });
});
