// Shared pages with personal slots (views/personal.tsx, http/pageCache.ts): members are served the
// kept page with their own parts rendered for them. Nothing of one member may reach another, what
// depends on permissions or purchases must stay right, and content changes show at once.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { eq } from "drizzle-orm";
import { Database } from "bun:sqlite";
import { getDb, handle } from "#db/client.ts";
import { group, userGroup } from "#db/schema/accounts.ts";
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
import { islandProps } from "#tests/helpers/islandProps.ts";

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

// The reader's toolbar, pages and comments are kept per member and the state they read (one
// statement a request, ReaderPersonal.tsx readerState): each change below must show on the very
// next request, with the member's previous page already kept.
describe("kept reader slots follow each member's state", () => {
  const gunzip = async (path: string, token: string) => {
    const r = await t.app.request(path, { headers: { ...html, authorization: `Bearer ${token}`, "accept-encoding": "gzip" } });
    expect(r.headers.get("content-encoding")).toBe("gzip");
    return new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await r.arrayBuffer())));
  };
  const actions = async (path: string, token: string) => islandProps((await page(path, token)).text, "DocumentActions");

  test("favourite, unfavourite, score and report show on the next request; another member keeps their own", async () => {
    clearPageCache();
    const owner = await o.member();
    const a = await o.member();
    const b = await o.member();
    const d = makeDoc({ userId: owner.id });
    const path = `/document/${d.uuid}`;
    expect(await actions(path, a.token)).toMatchObject({ favoriteId: 0, favoriteCount: 0, myScore: 0, reported: false });
    expect(await actions(path, b.token)).toMatchObject({ favoriteId: 0, favoriteCount: 0 });
    const fav = await t.req("POST", "/api/v1/favorite", { token: a.token, body: { document_id: d.id } });
    expect(fav.status).toBe(200);
    expect((await actions(path, a.token)).favoriteId).toBeGreaterThan(0);
    expect(await actions(path, a.token)).toMatchObject({ favoriteCount: 1 });
    // The count is everyone's; the favourite is a's alone.
    expect(await actions(path, b.token)).toMatchObject({ favoriteId: 0, favoriteCount: 1 });
    expect((await t.req("DELETE", `/api/v1/favorite?document_id=${d.id}`, { token: a.token })).status).toBe(200);
    expect(await actions(path, a.token)).toMatchObject({ favoriteId: 0, favoriteCount: 0 });
    expect((await t.req("POST", "/api/v1/document/score", { token: a.token, body: { document_id: d.id, score: 4 } })).status).toBe(200);
    expect(await actions(path, a.token)).toMatchObject({ myScore: 4 });
    expect((await t.req("POST", "/api/v1/report", { token: a.token, body: { document_id: d.id, reason: 1 } })).status).toBe(200);
    expect(await actions(path, a.token)).toMatchObject({ myScore: 4, reported: true });
    expect(await actions(path, b.token)).toMatchObject({ myScore: 0, reported: false, favoriteId: 0 });
  });

  test("buying a paid document shows on the buyer's next request (pages and 已购买), not on another member's", async () => {
    clearPageCache();
    const owner = await o.member();
    const buyer = await o.member(100);
    const other = await o.member(100);
    const d = makeDoc({ userId: owner.id, pages: 6, preview: 2 });
    getDb().update(document).set({ price: 10, rendered_pages: 6 }).where(eq(document.id, d.id)).run();
    bumpContentVersion();
    const path = `/document/${d.uuid}`;
    for (const m of [buyer, other]) {
      const r = await page(path, m.token);
      expect(islandProps(r.text, "ReaderPages")).toMatchObject({ preview: 2 });
      expect(islandProps(r.text, "DownloadButton").buy).toMatchObject({ credits: 10 });
    }
    const no = await o.create(buyer.token, { order_type: 1, product_id: d.id, quantity: 1 });
    expect((await t.req("POST", "/api/v1/order/pay", { token: buyer.token, body: { order_no: no, payment_type: 5 } })).status).toBe(200);
    const bought = await page(path, buyer.token);
    expect(islandProps(bought.text, "ReaderPages")).toMatchObject({ preview: 6 });
    expect(islandProps(bought.text, "DownloadButton")).toMatchObject({ price: 0, note: "已购买" });
    expect(bought.text).not.toContain("购买后即可阅读全文");
    const still = await page(path, other.token);
    expect(islandProps(still.text, "ReaderPages")).toMatchObject({ preview: 2 });
    expect(islandProps(still.text, "DownloadButton").buy).toMatchObject({ credits: 10 });
  });

  test("VIP expiry (no content change) brings the ads back on the next request", async () => {
    clearPageCache();
    getDb().insert(advertisement).values({ position: "document_top", title: "广告", content: "<b>AD-DOC-TOP</b>" }).run();
    bumpContentVersion();
    const vip = await o.member();
    getDb().update(user).set({ vip_until: Date.now() + 86400_000 }).where(eq(user.id, vip.id)).run();
    const d = makeDoc({ userId: t.userId });
    const path = `/document/${d.uuid}`;
    expect((await page(path)).text).toContain("AD-DOC-TOP");
    expect((await page(path, vip.token)).text).not.toContain("AD-DOC-TOP");
    expect((await page(path, vip.token)).text).not.toContain("AD-DOC-TOP");
    getDb().update(user).set({ vip_until: Date.now() - 1000 }).where(eq(user.id, vip.id)).run();
    const after = await page(path, vip.token);
    expect(cacheOf(after)).toBe("SHARED");
    expect(after.text).toContain("AD-DOC-TOP");
    expect(await gunzip(path, vip.token)).toBe(after.text);
  });

  test("becoming an administrator shows on the next request: 管理后台 and the whole paid document", async () => {
    clearPageCache();
    const owner = await o.member();
    const m = await o.member();
    const d = makeDoc({ userId: owner.id, pages: 6, preview: 2 });
    getDb().update(document).set({ price: 10, rendered_pages: 6 }).where(eq(document.id, d.id)).run();
    bumpContentVersion();
    const path = `/document/${d.uuid}`;
    const before = await page(path, m.token);
    expect(islandProps(before.text, "ReaderPages")).toMatchObject({ preview: 2 });
    expect(islandProps(before.text, "UserMenu").showAdmin).toBe(false);
    const r = await t.req("PUT", "/api/v1/user", { token: t.rootToken, body: { id: m.id, group_id: [1] } });
    expect(r.status).toBe(200);
    const after = await page(path, m.token);
    expect(islandProps(after.text, "ReaderPages")).toMatchObject({ preview: 6 });
    expect(islandProps(after.text, "UserMenu").showAdmin).toBe(true);
    // The stranger's view of the same kept page is unchanged.
    const s = await o.member();
    expect(islandProps((await page(path, s.token)).text, "ReaderPages")).toMatchObject({ preview: 2 });
  });

  test("a member's comment under review shows to them at once, not to another member", async () => {
    clearPageCache();
    setConfig([["comment", "enable", true], ["comment", "need_review", true], ["comment", "enable_captcha", false], ["comment", "min_interval", 0]]);
    const a = await o.member();
    const b = await o.member();
    const g = getDb().insert(group).values({ title: "评论需审核组", enable_comment: true, enable_comment_approval: true }).returning().get();
    for (const u of [a, b]) getDb().insert(userGroup).values({ user_id: u.id, group_id: g.id }).run();
    const d = makeDoc({ userId: t.userId });
    const path = `/document/${d.uuid}`;
    await page(path, a.token);
    await page(path, b.token);
    const c = await t.req("POST", "/api/v1/comment", { token: a.token, body: { document_id: d.id, content: "待审核的评论内容XYZ" } });
    expect([c.status, c.text]).toEqual([200, expect.stringContaining("审核")]);
    expect((await page(path, a.token)).text).toContain("待审核的评论内容XYZ");
    expect((await page(path, b.token)).text).not.toContain("待审核的评论内容XYZ");
    expect((await page(path)).text).not.toContain("待审核的评论内容XYZ");
  });

  test("gzip: every member's spliced document page decodes to their plain page, kept or not", async () => {
    clearPageCache();
    const owner = await o.member();
    const a = await o.member();
    const vip = await o.member();
    getDb().update(user).set({ vip_until: Date.now() + 86400_000 }).where(eq(user.id, vip.id)).run();
    const d = makeDoc({ userId: owner.id, pages: 6, preview: 2 });
    getDb().update(document).set({ price: 10, rendered_pages: 6 }).where(eq(document.id, d.id)).run();
    bumpContentVersion();
    const path = `/document/${d.uuid}`;
    // Twice each: the first deflates (and keeps) the member's fragments, the second reuses them;
    // the root administrator's comments render per request (moderator).
    for (const token of [owner.token, a.token, vip.token, t.rootToken, owner.token, a.token, vip.token, t.rootToken]) {
      const plain = await page(path, token);
      expect(await gunzip(path, token)).toBe(plain.text);
    }
    for (const p of ["/", "/category", "/search?wd=文档"]) for (const token of [a.token, vip.token, a.token]) expect(await gunzip(p, token)).toBe((await page(p, token)).text);
  });

  test("a disabled member or an ended session is a visitor on the next request", async () => {
    clearPageCache();
    const m = await o.member();
    expect(islandProps((await page("/", m.token)).text, "UserMenu").user).toMatchObject({ id: m.id });
    expect((await t.req("PUT", "/api/v1/user", { token: t.rootToken, body: { id: m.id, status: 1 } })).status).toBe(200);
    const after = await page("/", m.token);
    expect(islandProps(after.text, "UserMenu").user).toBeNull();
    expect(after.text).not.toContain(m.username);
    const n = await o.member();
    expect(islandProps((await page("/", n.token)).text, "UserMenu").user).toMatchObject({ id: n.id });
    expect((await t.req("DELETE", "/api/v1/user/logout", { token: n.token })).status).toBe(200);
    expect(islandProps((await page("/", n.token)).text, "UserMenu").user).toBeNull();
  });

  // Session rows are kept in memory while the database cannot have changed them (auth/sessions.ts).
  test("kept sessions: a write of this process shows on the next request, another process's within 100 ms", async () => {
    clearPageCache();
    const m = await o.member();
    expect(islandProps((await page("/", m.token)).text, "UserMenu").user).toMatchObject({ username: m.username });
    // Straight to the table, no content version bump: only the kept session row could hide it.
    getDb().update(user).set({ username: `${m.username}_renamed` }).where(eq(user.id, m.id)).run();
    expect(islandProps((await page("/", m.token)).text, "UserMenu").user).toMatchObject({ username: `${m.username}_renamed` });
    getDb().update(user).set({ is_root: true }).where(eq(user.id, m.id)).run();
    expect(islandProps((await page("/", m.token)).text, "UserMenu").showAdmin).toBe(true);
    // Another connection (as `bun scripts/admin.ts password` is another process) ends the session.
    const other = new Database(handle().file);
    other.query("DELETE FROM session WHERE user_id = ?").run(m.id);
    other.close();
    await Bun.sleep(120);
    expect(islandProps((await page("/", m.token)).text, "UserMenu").user).toBeNull();
  });
});

describe("renders in flight", () => {
  test("concurrent requests for a page not kept yet wait for one render (visitors and members), and a content change is rendered once again", async () => {
    const m = await o.member();
    for (const round of [0, 1]) {
      if (round === 0) clearPageCache();
      else bumpContentVersion();
      const rs = await Promise.all([
        ...Array.from({ length: 8 }, () => page("/category")),
        ...Array.from({ length: 4 }, () => page("/category", m.token)),
      ]);
      const states = rs.map(cacheOf);
      expect(states.filter((s) => s === "MISS")).toHaveLength(1);
      expect(states.filter((s) => s === "HIT")).toHaveLength(7);
      expect(states.slice(8)).toEqual(["SHARED", "SHARED", "SHARED", "SHARED"]);
      for (const r of rs.slice(1, 8)) expect(r.text).toBe(rs[0]!.text);
    }
  });
});
