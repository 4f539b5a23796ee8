import { describe, expect, test } from "bun:test";
import { resetAll } from "#src/lib/rateLimit.ts";
import { ROOT, setupTestApp } from "../helpers/testApp.ts";

const t = setupTestApp();
const html = { accept: "text/html" };
const login = (username: string, password: string, ip = "198.51.100.1") =>
  t.req("POST", "/api/v1/user/login", { body: { username, password }, headers: { "x-forwarded-for": ip } });
const setSecurity = async (name: "login_required" | "is_close", value: boolean) => {
  const r = await t.req("PUT", "/api/v1/config", { token: t.rootToken, body: { config: [{ category: "security", name, value }] } });
  expect(r.status).toBe(200);
};

describe("login", () => {
  test("right password: token, HttpOnly SameSite=Lax cookie, and the user", async () => {
    resetAll();
    const r = await login(ROOT.username, ROOT.password);
    expect(r.status).toBe(200);
    expect(r.body.token).toBeString();
    expect(r.body.user).toMatchObject({ username: ROOT.username, is_root: true });
    expect(r.body.user.password).toBeUndefined();
    const cookie = r.res.headers.get("set-cookie")!;
    expect(cookie).toContain(`wk_token=${r.body.token}`);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    const me = await t.req("GET", "/api/v1/user", { token: r.body.token });
    expect(me.body.user.username).toBe(ROOT.username);
  });

  test("wrong password and unknown user answer the same 401 in Chinese", async () => {
    resetAll();
    const wrong = await login(ROOT.username, "not-the-password");
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ code: "unauthorized", message: "用户名或密码错误" });
    const unknown = await login("nobody-here", "whatever-123");
    expect(unknown.status).toBe(401);
    expect(unknown.body.message).toBe("用户名或密码错误");
    expect(wrong.res.headers.get("set-cookie")).toBeNull();
  });

  test("missing fields are 400 in Chinese", async () => {
    resetAll();
    const r = await t.req("POST", "/api/v1/user/login", { body: { password: "x" } });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe("请输入登录用户名");
    const p = await t.req("POST", "/api/v1/user/login", { body: { username: "root", password: "" } });
    expect(p.body.message).toBe("请输入密码");
  });

  // Issue 13 item 2: failures close the account at the address they come from, never everywhere
  // (tests/integration/security-auth-throttle.test.ts has the details).
  test("repeated failures on one account from one address are 429 there, even with the right password; the owner elsewhere is not", async () => {
    resetAll();
    await t.createUser("guess-me", { password: "right-password-1" });
    for (let i = 0; i < 10; i++) expect((await login("guess-me", `wrong-${i}`, `203.0.113.${i}`)).status).toBe(401);
    expect((await login("guess-me", "right-password-1", "203.0.113.200")).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await login("guess-me", `wrong-${i}`, "203.0.113.201")).status).toBe(401);
    const limited = await login("guess-me", "right-password-1", "203.0.113.201");
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe("登录尝试过于频繁，请 30 秒后再试");
    expect(limited.res.headers.get("retry-after")).toBe("30");
  });

  test("one address trying many accounts is rate limited too", async () => {
    resetAll();
    for (let i = 0; i < 20; i++) expect((await login(`user-${i}`, "x-password", "192.0.2.9")).status).toBe(401);
    expect((await login(ROOT.username, ROOT.password, "192.0.2.9")).status).toBe(429);
    // Another address is unaffected.
    expect((await login(ROOT.username, ROOT.password, "192.0.2.10")).status).toBe(200);
  });
});

describe("logout", () => {
  test("revokes the token", async () => {
    resetAll();
    const { token } = (await login(ROOT.username, ROOT.password)).body;
    expect((await t.req("GET", "/api/v1/user", { token })).status).toBe(200);
    const out = await t.req("DELETE", "/api/v1/user/logout", { token });
    expect(out.status).toBe(200);
    expect(out.body.message).toBe("退出成功");
    expect(out.res.headers.get("set-cookie")).toMatch(/wk_token=;.*Max-Age=0/);
    const after = await t.req("GET", "/api/v1/user", { token });
    expect(after.status).toBe(401);
    expect(after.body.message).toBe("请先登录");
    expect((await t.req("DELETE", "/api/v1/user/logout", { token })).status).toBe(401);
    // Other sessions of the same user stay.
    expect((await t.req("GET", "/api/v1/user", { token: t.rootToken })).status).toBe(200);
  });
});

describe("CSRF: cookie-authenticated writes must be same-origin", () => {
  const profile = (headers: Record<string, string>, token?: string) =>
    t.req("PUT", "/api/v1/user/profile", { body: { signature: "你好" }, headers, token });
  const cookie = () => ({ cookie: `wk_token=${t.userToken}` });

  test("no Sec-Fetch-Site and no Origin: refused", async () => {
    const r = await profile(cookie());
    expect(r.status).toBe(403);
    expect(r.body.message).toBe("跨站请求被拒绝");
  });

  test("cross-site and same-site requests: refused", async () => {
    expect((await profile({ ...cookie(), "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect((await profile({ ...cookie(), "sec-fetch-site": "same-site" })).status).toBe(403);
    expect((await profile({ ...cookie(), origin: "https://evil.example", host: "localhost" })).status).toBe(403);
    expect((await profile({ ...cookie(), origin: "null", host: "localhost" })).status).toBe(403);
  });

  test("same-origin by Sec-Fetch-Site or by Origin = Host: allowed", async () => {
    expect((await profile({ ...cookie(), "sec-fetch-site": "same-origin" })).status).toBe(200);
    expect((await profile({ ...cookie(), origin: "http://localhost", host: "localhost" })).status).toBe(200);
  });

  test("bearer requests carry no ambient credential and pass", async () => {
    const r = await profile({ "sec-fetch-site": "cross-site" }, t.userToken);
    expect(r.status).toBe(200);
    expect(r.body.user.signature).toBe("你好");
  });

  test("cookie reads are not blocked", async () => {
    expect((await t.req("GET", "/api/v1/user", { headers: cookie() })).status).toBe(200);
  });
});

describe("security.login_required", () => {
  test("pages redirect anonymous visitors to /login, but /login itself does not", async () => {
    await setSecurity("login_required", true);
    try {
      const home = await t.req("GET", "/?from=ad", { headers: html });
      expect(home.status).toBe(302);
      expect(home.res.headers.get("location")).toBe(`/login?redirect=${encodeURIComponent("/?from=ad")}`);
      const other = await t.req("GET", "/sitemap.xml", { headers: html });
      expect(other.status).toBe(302);
      const page = await t.req("GET", "/login", { headers: html });
      expect(page.status).toBe(200);
      expect(page.text).toContain("登录");
      for (const open of ["/register", "/findpassword", "/findpassword-mobile", "/oauth/github"]) {
        const r = await t.req("GET", open, { headers: html });
        expect(r.res.headers.get("location") ?? "").not.toStartWith("/login");
      }
      expect((await t.req("GET", "/healthz")).status).toBe(200);
      // APIs: the login page's own calls and /settings stay open; others need a session.
      expect((await t.req("GET", "/api/v1/settings")).status).toBe(200);
      const api = await t.req("GET", "/api/v1/settings/recharge");
      expect(api.status).toBe(401);
      expect(api.body.message).toBe("请先登录");
      // Logged-in users browse normally.
      expect((await t.req("GET", "/", { headers: { ...html, cookie: `wk_token=${t.userToken}` } })).status).toBe(200);
    } finally {
      await setSecurity("login_required", false);
    }
    expect((await t.req("GET", "/", { headers: html })).status).toBe(200);
  });
});

describe("security.is_close", () => {
  test("anonymous visitors and users without permissions reach only /login; root browses", async () => {
    await setSecurity("is_close", true);
    try {
      const home = await t.req("GET", "/", { headers: html });
      expect(home.status).toBe(302);
      expect(home.res.headers.get("location")).toStartWith("/login");
      // Closed is stricter than login_required: even registration is shut.
      expect((await t.req("GET", "/register", { headers: html })).status).toBe(302);
      expect((await t.req("GET", "/login", { headers: html })).status).toBe(200);
      expect((await t.req("GET", "/", { headers: { ...html, cookie: `wk_token=${t.userToken}` } })).status).toBe(302);
      expect((await t.req("GET", "/", { headers: { ...html, cookie: `wk_token=${t.rootToken}` } })).status).toBe(200);
      const api = await t.req("GET", "/api/v1/settings/recharge", { token: t.userToken });
      expect(api.status).toBe(401);
      expect(api.body.message).toBe("网站已关闭，请登录管理员账号");
      // Login still works so the administrator can get in.
      resetAll();
      expect((await login(ROOT.username, ROOT.password)).status).toBe(200);
    } finally {
      await setSecurity("is_close", false);
    }
    expect((await t.req("GET", "/", { headers: html })).status).toBe(200);
  });
});
