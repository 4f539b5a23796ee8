// Every admin API: 401 for anonymous visitors, 403 for an ordinary user, 200 for the root admin.
// Public list calls answer everyone.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setStorageRoot } from "#src/features/admin/attachment/storage.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { pngBytes, uploadForm } from "./admin-fixtures.ts";

const t = setupTestApp();
const ids: Record<string, number> = {};
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "wk-admin-access-"));
  setStorageRoot(dir);
  const make = async (path: string, body: unknown) => {
    const r = await t.req("POST", `/api/v1/${path}`, { token: t.rootToken, body });
    expect(r.status).toBe(200);
    return r.body.id as number;
  };
  ids.navigation = await make("navigation", { title: "帮助" });
  ids.friendlink = await make("friendlink", { title: "友链", link: "https://example.com" });
  ids.banner = await make("banner", { title: "横幅", path: "https://example.com/a.png" });
  ids.advertisement = await make("advertisement", { title: "广告", position: "global_top", content: "<b>ad</b>" });
  const up = await t.req("POST", "/api/v1/upload/banner", { token: t.rootToken, body: uploadForm(pngBytes(2, 2), "a.png") });
  expect(up.status).toBe(200);
  ids.attachment = up.body.id;
});
afterAll(() => {
  setStorageRoot(null);
  rmSync(dir, { recursive: true, force: true });
});

type Call = { method: string; path: () => string; body?: () => unknown };
const ADMIN_CALLS: Call[] = [
  { method: "GET", path: () => "/api/v1/stats" },
  { method: "GET", path: () => "/api/v1/envs" },
  { method: "GET", path: () => "/api/v1/device" },
  ...["navigation", "friendlink", "banner", "advertisement"].flatMap((e): Call[] => [
    { method: "GET", path: () => `/api/v1/${e}?id=${ids[e]}` },
    { method: "PUT", path: () => `/api/v1/${e}`, body: () => ({ id: ids[e], sort: 1 }) },
  ]),
  { method: "POST", path: () => "/api/v1/navigation", body: () => ({ title: "新导航" }) },
  { method: "POST", path: () => "/api/v1/friendlink", body: () => ({ title: "新友链", link: "https://example.org" }) },
  { method: "POST", path: () => "/api/v1/banner", body: () => ({ title: "新横幅", path: "https://example.org/b.png" }) },
  { method: "POST", path: () => "/api/v1/advertisement", body: () => ({ title: "新广告", position: "search_top", content: "x" }) },
  { method: "GET", path: () => "/api/v1/advertisement/list?all=1" },
  { method: "GET", path: () => "/api/v1/attachment/list" },
  { method: "PUT", path: () => "/api/v1/attachment", body: () => ({ id: ids.attachment, description: "说明" }) },
  { method: "POST", path: () => "/api/v1/upload/banner", body: () => uploadForm(pngBytes(3, 3), "b.png") },
  // Deletes last: the rows above must still exist for the root pass.
  ...["navigation", "friendlink", "banner", "advertisement", "attachment"].map((e): Call => ({ method: "DELETE", path: () => `/api/v1/${e}?id=${ids[e]}` })),
];

describe("admin APIs are admin-only", () => {
  test("anonymous → 401 with a Chinese message", async () => {
    for (const c of ADMIN_CALLS) {
      const r = await t.req(c.method, c.path(), { body: c.body?.() });
      expect([c.method, c.path(), r.status]).toEqual([c.method, c.path(), 401]);
      expect(r.body.message).toMatch(/[\u4e00-\u9fa5]/);
    }
  });
  test("ordinary user → 403", async () => {
    for (const c of ADMIN_CALLS) {
      const r = await t.req(c.method, c.path(), { token: t.userToken, body: c.body?.() });
      expect([c.method, c.path(), r.status]).toEqual([c.method, c.path(), 403]);
    }
  });
  test("root → 200", async () => {
    for (const c of ADMIN_CALLS) {
      const r = await t.req(c.method, c.path(), { token: t.rootToken, body: c.body?.() });
      expect([c.method, c.path(), r.status, r.status === 200 ? "" : r.text]).toEqual([c.method, c.path(), 200, ""]);
    }
  });
});

describe("public lists answer everyone", () => {
  for (const path of ["/api/v1/navigation/list", "/api/v1/friendlink/list", "/api/v1/banner/list", "/api/v1/advertisement/list?position=global_top", "/api/v1/advertisement/position"]) {
    test(path, async () => {
      expect((await t.req("GET", path)).status).toBe(200);
      expect((await t.req("GET", path, { token: t.userToken })).status).toBe(200);
    });
  }
});

describe("admin pages", () => {
  const PAGES = ["/admin", "/admin/index", "/admin/dashboard", "/admin/config/system", "/admin/config/footer", "/admin/config/security", "/admin/config/display", "/admin/navigation", "/admin/friendlink", "/admin/banner", "/admin/advertisement", "/admin/attachment"];
  const html = { accept: "text/html" };
  test("anonymous visitors go to login, ordinary users go home", async () => {
    for (const p of PAGES) {
      const anon = await t.req("GET", p, { headers: html });
      expect([p, anon.status, anon.res.headers.get("location")]).toEqual([p, 302, `/login?redirect=${encodeURIComponent(p)}`]);
      const user = await t.req("GET", p, { token: t.userToken, headers: html });
      expect([p, user.status, user.res.headers.get("location")]).toEqual([p, 302, "/"]);
    }
  });
  test("root gets each page, never cached, noindex, with the admin layout", async () => {
    for (const p of PAGES) {
      const r = await t.req("GET", p, { token: t.rootToken, headers: html });
      expect([p, r.status]).toEqual([p, 200]);
      expect(r.res.headers.get("cache-control")).toContain("no-store");
      expect(r.text).toContain('<meta name="robots" content="noindex"/>');
      expect(r.text).toContain("adm-side");
      expect(r.text).toContain("控制面板");
      expect(r.text).toContain('data-island="AdminUserMenu"');
    }
  });
});
