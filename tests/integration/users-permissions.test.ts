// The permission matrix, generated from the running app's routes: every adminApi route answers
// 401 to anonymous visitors and 403 to an ordinary user, and lets the root administrator through.
// Then one group gets one permission and its member passes exactly that route.
import { beforeAll, describe, expect, test } from "bun:test";
import { permissionRoutes } from "#src/features/permissions/sync.ts";
import type { RouteInfo } from "#src/features/permissions/service.ts";
import { resetAll } from "#src/lib/rateLimit.ts";
import { setupTestApp } from "../helpers/testApp.ts";

const t = setupTestApp();
let routes: RouteInfo[] = [];
const MISSING_ID = 987654;

/** `:name{a|b}` takes its first alternative, any other parameter a number. */
const fill = (path: string) => path.replace(/:(\w+)(\{([^}]*)\})?/g, (_m, _name, _b, re?: string) => (re?.includes("|") ? re.split("|")[0]!.replace(/[^\w.-]/g, "") : "1"));

/** A minimal call: an id that does not exist for reads and deletes, an empty object for writes. */
function call(r: RouteInfo, token?: string) {
  const path = fill(r.path) + (r.method === "GET" || r.method === "DELETE" ? `?id=${MISSING_ID}` : "");
  return t.req(r.method, path, { token, body: r.method === "POST" || r.method === "PUT" || r.method === "PATCH" ? {} : undefined });
}
const key = (r: RouteInfo) => `${r.method} ${r.path}`;

beforeAll(() => {
  routes = permissionRoutes(t.app);
});

describe("permission matrix over every registered admin route", () => {
  test("the catalogue covers this feature's routes", () => {
    const keys = new Set(routes.map(key));
    for (const k of [
      "GET /api/v1/user/list", "POST /api/v1/user", "PUT /api/v1/user", "DELETE /api/v1/user",
      "GET /api/v1/group", "POST /api/v1/group", "PUT /api/v1/group", "DELETE /api/v1/group", "GET /api/v1/group/permission", "PUT /api/v1/group/permission",
      "GET /api/v1/permission/list", "PUT /api/v1/permission",
      "GET /api/v1/punishment", "POST /api/v1/punishment", "PUT /api/v1/punishment", "DELETE /api/v1/punishment", "GET /api/v1/punishment/list",
    ]) expect(keys.has(k)).toBe(true);
    // Public and self-service calls are not permissions.
    for (const k of ["GET /api/v1/group/list", "GET /api/v1/user/permission", "GET /api/v1/user/group", "GET /api/v1/user"]) expect(keys.has(k)).toBe(false);
    expect(routes.length).toBeGreaterThan(40);
  });

  test("anonymous → 401 with a Chinese message on every route", async () => {
    for (const r of routes) {
      const res = await call(r);
      expect([key(r), res.status]).toEqual([key(r), 401]);
      expect(res.body?.message).toMatch(/[\u4e00-\u9fa5]/);
    }
  });

  test("ordinary user → 403 on every route", async () => {
    for (const r of routes) {
      const res = await call(r, t.userToken);
      expect([key(r), res.status]).toEqual([key(r), 403]);
      expect(res.body?.message).toMatch(/[\u4e00-\u9fa5]/);
    }
  });

  test("root administrator passes the guard of every route (never 401/403, never a crash)", async () => {
    for (const r of routes) {
      const res = await call(r, t.rootToken);
      // The LLM connection test reports the provider's failure as 502/504 (no model is reachable here).
      const upstream = key(r) === "POST /api/v1/llm/test" && [502, 504].includes(res.status);
      expect([key(r), [401, 403].includes(res.status) || (res.status >= 500 && !upstream) ? res.text : "ok"]).toEqual([key(r), "ok"]);
    }
  });
});

describe("one group, one permission", () => {
  let memberToken = "";
  let groupId = 0;
  const target = "GET /api/v1/friendlink";

  beforeAll(async () => {
    const g = await t.req("POST", "/api/v1/group", { token: t.rootToken, body: { title: "友链编辑" } });
    expect(g.status).toBe(200);
    groupId = g.body.id;
    const perms = await t.req("GET", "/api/v1/permission/list?size=1000", { token: t.rootToken });
    const wanted = perms.body.permission.find((p: { method: string; path: string }) => `${p.method} ${p.path}` === target);
    const set = await t.req("PUT", "/api/v1/group/permission", { token: t.rootToken, body: { id: groupId, permission_id: [wanted.id] } });
    expect(set.status).toBe(200);
    expect(set.body.permission_id).toEqual([wanted.id]);
    const u = await t.req("POST", "/api/v1/user", { token: t.rootToken, body: { username: "link_editor", password: "editor-pass-1", group_id: [groupId] } });
    expect(u.status).toBe(200);
    resetAll();
    const login = await t.req("POST", "/api/v1/user/login", { body: { username: "link_editor", password: "editor-pass-1" } });
    expect(login.status).toBe(200);
    memberToken = login.body.token;
  });

  test("the member passes exactly that route and gets 403 everywhere else", async () => {
    for (const r of routes) {
      const res = await call(r, memberToken);
      if (key(r) === target) expect([key(r), res.status]).toEqual([key(r), 404]);
      else expect([key(r), res.status]).toEqual([key(r), 403]);
    }
  });

  test("GET /user/permission lists that one permission and allow_pages derive from its page", async () => {
    const r = await t.req("GET", "/api/v1/user/permission", { token: memberToken });
    expect(r.status).toBe(200);
    expect(r.body.permission.map(key)).toEqual([target]);
    expect(r.body.permission[0]).toMatchObject({ category: "friendlink", page: "/admin/friendlink" });
    expect(r.body.allow_pages).toEqual(["/admin/friendlink"]);
    const groups = await t.req("GET", "/api/v1/user/group", { token: memberToken });
    expect(groups.body.group.map((g: { title: string }) => g.title)).toEqual(["友链编辑"]);
  });

  test("admin pages: the allowed one opens, others go back to /admin, the menu shows only what is allowed", async () => {
    const html = { accept: "text/html" };
    expect((await t.req("GET", "/admin/friendlink", { token: memberToken, headers: html })).status).toBe(200);
    for (const p of ["/admin/banner", "/admin/user/list", "/admin/user/group", "/admin/config/system"]) {
      const r = await t.req("GET", p, { token: memberToken, headers: html });
      expect([p, r.status, r.res.headers.get("location")]).toEqual([p, 302, "/admin"]);
    }
    const dash = await t.req("GET", "/admin", { token: memberToken, headers: html });
    const menu = dash.text.slice(dash.text.indexOf('class="adm-menu"'), dash.text.indexOf("</nav>"));
    const labels = [...menu.matchAll(/<span class="adm-label">([^<]+)<\/span>/g)].map((m) => m[1]);
    // AI management is public to every admin (spec §6).
    expect(labels).toEqual(["控制面板", "AI 管理", "导航管理", "友情链接"]);
  });

  test("granting one more category adds its page and menu entry; revoking takes them away", async () => {
    const perms = await t.req("GET", "/api/v1/permission/list?category=user&size=1000", { token: t.rootToken });
    const ids = perms.body.permission.map((p: { id: number }) => p.id);
    // list, create, update, delete users, and set a user's AI quota
    expect(ids.length).toBe(5);
    const current = await t.req("GET", `/api/v1/group/permission?id=${groupId}`, { token: t.rootToken });
    await t.req("PUT", "/api/v1/group/permission", { token: t.rootToken, body: { id: groupId, permission_id: [...current.body.permission_id, ...ids] } });
    const mine = await t.req("GET", "/api/v1/user/permission", { token: memberToken });
    expect(mine.body.allow_pages).toEqual(["/admin/friendlink", "/admin/user/list"]);
    expect((await t.req("GET", "/api/v1/user/list", { token: memberToken })).status).toBe(200);
    const page = await t.req("GET", "/admin/user/list", { token: memberToken, headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(page.text).toContain("用户列表");
    expect(page.text).not.toContain('href="/admin/user/group"');

    await t.req("PUT", "/api/v1/group/permission", { token: t.rootToken, body: { id: groupId, permission_id: [] } });
    const none = await t.req("GET", "/api/v1/user/permission", { token: memberToken });
    expect(none.body).toMatchObject({ permission: [], allow_pages: [] });
    expect((await t.req("GET", "/api/v1/user/list", { token: memberToken })).status).toBe(403);
    const home = await t.req("GET", "/admin", { token: memberToken, headers: { accept: "text/html" } });
    expect([home.status, home.res.headers.get("location")]).toEqual([302, "/"]);
  });
});

describe("GET /user/permission and /user/group", () => {
  test("root holds every permission and every page", async () => {
    const r = await t.req("GET", "/api/v1/user/permission", { token: t.rootToken });
    expect(r.status).toBe(200);
    expect(r.body.is_root).toBe(true);
    expect(r.body.permission.map(key).sort()).toEqual(routes.map(key).sort());
    for (const p of ["/admin/user/list", "/admin/user/group", "/admin/user/permission", "/admin/user/punishment", "/admin/friendlink"]) expect(r.body.allow_pages).toContain(p);
  });

  test("an ordinary user has none; anonymous visitors must log in", async () => {
    const r = await t.req("GET", "/api/v1/user/permission", { token: t.userToken });
    expect(r.body).toEqual({ permission: [], allow_pages: [], is_root: false });
    expect((await t.req("GET", "/api/v1/user/group", { token: t.userToken })).body).toEqual({ group: [] });
    for (const p of ["/api/v1/user/permission", "/api/v1/user/group"]) {
      const anon = await t.req("GET", p);
      expect(anon.status).toBe(401);
      expect(anon.body.message).toBe("请先登录");
    }
  });
});

describe("the /admin/user screens", () => {
  const PAGES = ["/admin/user/list", "/admin/user/group", "/admin/user/permission", "/admin/user/punishment"];
  const html = { accept: "text/html" };

  test("anonymous visitors go to login, ordinary users go home, root gets each page uncached", async () => {
    for (const p of PAGES) {
      const anon = await t.req("GET", p, { headers: html });
      expect([p, anon.status, anon.res.headers.get("location")]).toEqual([p, 302, `/login?redirect=${encodeURIComponent(p)}`]);
      const user = await t.req("GET", p, { token: t.userToken, headers: html });
      expect([p, user.status, user.res.headers.get("location")]).toEqual([p, 302, "/"]);
      const root = await t.req("GET", p, { token: t.rootToken, headers: html });
      expect([p, root.status]).toEqual([p, 200]);
      expect(root.res.headers.get("cache-control")).toContain("no-store");
      expect(root.text).toContain('data-island="AdminTable"');
      // The menu group 用户管理 with its five children, this page marked current.
      for (const child of ["用户列表", "用户组", "权限管理", "惩罚管理", "短信记录"]) expect(root.text).toContain(`>${child}</a>`);
      expect(root.text).toContain(`href="${p}" aria-current="page"`);
    }
    expect((await t.req("GET", "/admin/user/group", { token: t.rootToken, headers: html })).text).toContain('data-island="AdminPermissionPicker"');
  });

  test("/admin/user opens the first screen of the group this user may see", async () => {
    const root = await t.req("GET", "/admin/user", { token: t.rootToken, headers: html });
    expect([root.status, root.res.headers.get("location")]).toEqual([302, "/admin/user/list"]);
    const g = await t.req("POST", "/api/v1/group", { token: t.rootToken, body: { title: "只管惩罚" } });
    const perms = await t.req("GET", "/api/v1/permission/list?category=punishment", { token: t.rootToken });
    await t.req("PUT", "/api/v1/group/permission", { token: t.rootToken, body: { id: g.body.id, permission_id: perms.body.permission.map((p: { id: number }) => p.id) } });
    await t.req("POST", "/api/v1/user", { token: t.rootToken, body: { username: "judge_only", password: "judge-only-1", group_id: [g.body.id] } });
    resetAll();
    const token = (await t.req("POST", "/api/v1/user/login", { body: { username: "judge_only", password: "judge-only-1" } })).body.token;
    const r = await t.req("GET", "/admin/user", { token, headers: html });
    expect(r.res.headers.get("location")).toBe("/admin/user/punishment");
    const none = await t.req("GET", "/admin/user", { token: t.userToken, headers: html });
    expect(none.res.headers.get("location")).toBe("/admin");
  });
});
