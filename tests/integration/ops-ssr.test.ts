// The ssr settings drive the anonymous page cache (on/off, lifetime, which pages), the purge
// button empties it; the miniprogram group keeps its secret on the server; both screens are in
// the admin menu with the same form machinery.
import { describe, expect, test } from "bun:test";
import { getSqlite } from "#db/client.ts";
import { updateConfig } from "#src/features/settings/service.ts";
import { cachedPath } from "#src/http/pageCache.ts";
import { setupTestApp } from "#tests/helpers/testApp.ts";

const t = setupTestApp();
const html = { accept: "text/html", "accept-encoding": "gzip" };
const get = async (path: string) => (await t.req("GET", path, { headers: html })).res.headers;

describe("page cache follows the ssr settings", () => {
  test("on by default: the second anonymous request is a hit; the marker header never leaks", async () => {
    await get("/");
    const h = await get("/");
    expect(h.get("x-cache")).toBe("HIT");
    expect(h.get("x-page-cache")).toBeNull();
  });

  test("off: no hits at all", async () => {
    updateConfig([{ category: "ssr", name: "enable_page_cache", value: false }]);
    for (let i = 0; i < 3; i++) {
      const h = await get("/");
      expect(h.get("x-cache")).toBeNull();
      expect(h.get("x-page-cache")).toBeNull();
    }
    updateConfig([{ category: "ssr", name: "enable_page_cache", value: true }]);
  });

  test("entries expire after the configured lifetime", async () => {
    updateConfig([{ category: "ssr", name: "page_cache_seconds", value: 1 }]);
    expect((await get("/")).get("x-cache")).toBe("MISS");
    expect((await get("/")).get("x-cache")).toBe("HIT");
    await Bun.sleep(1100);
    expect((await get("/")).get("x-cache")).toBe("MISS");
    updateConfig([{ category: "ssr", name: "page_cache_seconds", value: 60 }]);
  });

  test("a path outside the listed prefixes is rendered fresh every time", async () => {
    updateConfig([{ category: "ssr", name: "page_cache_paths", value: "/category\n/document" }]);
    await get("/");
    expect((await get("/")).get("x-cache")).toBeNull();
    await get("/category");
    expect((await get("/category")).get("x-cache")).toBe("HIT");
    updateConfig([{ category: "ssr", name: "page_cache_paths", value: "/\n/category" }]);
    await get("/");
    expect((await get("/")).get("x-cache")).toBe("HIT");
  });

  test("prefix rules: / is the home page only, others cover their subtree", () => {
    expect(cachedPath("/", ["/"])).toBe(true);
    expect(cachedPath("/search", ["/"])).toBe(false);
    expect(cachedPath("/document/abc", ["/document"])).toBe(true);
    expect(cachedPath("/documentx", ["/document"])).toBe(false);
  });

  test("the purge button's call empties the cache", async () => {
    await get("/");
    expect((await get("/")).get("x-cache")).toBe("HIT");
    const r = await t.req("DELETE", "/api/v1/ssr/cache", { token: t.rootToken });
    expect(r.status).toBe(200);
    expect(r.body.cleared).toBeGreaterThanOrEqual(1);
    expect((await get("/")).get("x-cache")).toBe("MISS");
    expect((await t.req("DELETE", "/api/v1/ssr/cache")).status).toBe(401);
    expect((await t.req("DELETE", "/api/v1/ssr/cache", { token: t.userToken })).status).toBe(403);
  });

  test("bad settings are refused like every other group", async () => {
    const r = await t.req("PUT", "/api/v1/config", { token: t.rootToken, body: { config: [{ category: "ssr", name: "page_cache_seconds", value: 0 }] } });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain("缓存有效期");
  });
});

describe("screens", () => {
  test("/admin/config/ssr has the form and the purge button", async () => {
    const page = await t.req("GET", "/admin/config/ssr", { token: t.rootToken, headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    for (const s of ["页面缓存", "为未登录访客缓存页面", "缓存有效期（秒）", "清空页面缓存"]) expect(page.text).toContain(s);
  });

  test("/admin/config/miniprogram never sends the secret; banners of the chosen type are counted", async () => {
    getSqlite().exec("INSERT INTO banner (title, path, url, type, enable) VALUES ('小程序一', '/uploads/a.png', '', 1, 1), ('网站', '/uploads/b.png', '', 0, 1)");
    const save = await t.req("PUT", "/api/v1/config", { token: t.rootToken, body: { config: [{ category: "miniprogram", name: "app_id", value: "wx1234567890abcdef" }, { category: "miniprogram", name: "secret", value: "mp-secret-value-123" }] } });
    expect(save.status).toBe(200);
    const page = await t.req("GET", "/admin/config/miniprogram", { token: t.rootToken, headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(page.text).toContain("wx1234567890abcdef");
    expect(page.text).not.toContain("mp-secret-value-123");
    expect(page.text).toContain("type=1&amp;enable=true");
    expect(page.text).toContain("当前 1 个");
    const list = await t.req("GET", "/api/v1/config/list?category=miniprogram", { token: t.rootToken });
    expect(list.text).not.toContain("mp-secret-value-123");
    expect(list.body.config.find((c: { name: string }) => c.name === "secret").has_value).toBe(true);
    const pub = await t.req("GET", "/api/v1/settings");
    expect(pub.body.miniprogram).toBeUndefined();
    expect(pub.body.ssr).toBeUndefined();
    expect(pub.body.system.release_source).toBeUndefined();
  });

  test("the menu lists 页面缓存 and 小程序设置 under 系统设置, and 系统管理 with backups and release", async () => {
    const page = await t.req("GET", "/admin/dashboard", { token: t.rootToken, headers: { accept: "text/html" } });
    for (const href of ["/admin/config/ssr", "/admin/config/miniprogram", "/admin/system/backup", "/admin/system/release"]) expect(page.text).toContain(`href="${href}"`);
    expect(page.text).toContain("系统管理");
    expect(page.text).not.toContain('href="/admin/config/backup"');
  });

  test("admin screens send visitors to login and members home", async () => {
    for (const p of ["/admin/system/backup", "/admin/system/release", "/admin/config/ssr", "/admin/config/miniprogram"]) {
      const anon = await t.req("GET", p, { headers: { accept: "text/html" } });
      expect(anon.status).toBe(302);
      expect(anon.res.headers.get("location")).toStartWith("/login");
      const member = await t.req("GET", p, { token: t.userToken, headers: { accept: "text/html" } });
      expect(member.status).toBe(302);
      expect(member.res.headers.get("location")).toBe("/");
    }
  });
});
