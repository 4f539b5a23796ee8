// Third-party login in real Chromium, GitHub played by the loopback stand-in: an anonymous visitor
// clicks the GitHub button, approves at the "provider", comes back through /oauth/github and ends
// signed in at /me; a signed-in administrator binds a GitHub identity the same way.
// Run: bun test ./tests/e2e/oauth.e2e.ts
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { startOAuthServer, type OAuthStandIn } from "../helpers/oauthServer.ts";
import { ADMIN, launchBrowser, loginAsAdmin, openPage, screenshotCheck, startServer, type Server, type TrackedPage } from "./harness.ts";

const TEST_TIMEOUT_MS = 30_000;

let server: Server;
let browser: Browser;
let idp: OAuthStandIn;
const opened: TrackedPage[] = [];

beforeAll(async () => {
  idp = await startOAuthServer();
  server = await startServer();
  browser = await launchBrowser();
  // The admin points GitHub login at the stand-in, as /admin/config/oauth would save it.
  const login = await fetch(`${server.url}/api/v1/user/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(ADMIN) });
  const { token } = (await login.json()) as { token: string };
  const values = { github_enable: true, github_client_id: idp.clients.github.id, github_client_secret: idp.clients.github.secret, github_base_url: idp.base("github") };
  const saved = await fetch(`${server.url}/api/v1/config`, {
    method: "PUT",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ config: Object.entries(values).map(([name, value]) => ({ category: "oauth", name, value })) }),
  });
  if (saved.status !== 200) throw new Error(`config save failed: ${await saved.text()}`);
}, 60_000);

afterAll(async () => {
  // Only script failures count: a 400 error page or a not-yet-built /me logs a resource error by design.
  for (const p of opened) expect(p.errors.filter((e) => !e.startsWith("Failed to load resource"))).toEqual([]);
  await browser?.close();
  await server?.stop();
  idp?.stop();
});

async function track(width = 1280) {
  const p = await openPage(browser, width);
  opened.push(p);
  return p;
}

/** A page showing the OAuthButtons island: /oauth/github after a failed attempt offers the buttons again. */
async function buttonsPage(page: Page) {
  await page.goto(`${server.url}/oauth/github?code=stale&state=stale`);
  await page.waitForSelector('[data-island="OAuthButtons"][data-hydrated="1"]', { state: "attached" });
  return page.locator('a[data-oauth="github"]');
}

describe("third-party login in the browser", () => {
  test("anonymous: GitHub button → provider → /oauth/github → signed in at /me", async () => {
    const { page } = await track();
    idp.setUser("github", { id: "4242", name: "浏览器用户", avatar: "https://avatars.example/e2e.png", email: "e2e-octo@example.com" });
    const button = await buttonsPage(page);
    expect(await page.locator(".oauth-page [role=alert]").innerText()).toContain("登录状态校验失败");
    const shot = await screenshotCheck(page, "oauth-retry-buttons");
    expect(shot.distinctColours).toBeGreaterThan(20);
    const visited: string[] = [];
    page.on("request", (r) => r.isNavigationRequest() && visited.push(r.url()));
    await button.click();
    await page.waitForURL((u) => u.pathname === "/me", { timeout: 15_000 });
    // The browser really went through the provider and back through the callback page.
    expect(visited.some((u) => u.startsWith(`${idp.base("github")}/login/oauth/authorize?`))).toBe(true);
    expect(visited.some((u) => /\/oauth\/github\?code=[^&]+&state=/.test(u))).toBe(true);
    const me = await page.request.get(`${server.url}/api/v1/user`);
    expect(me.status()).toBe(200);
    const { user } = (await me.json()) as { user: { username: string; email: string; avatar: string } };
    expect(user).toMatchObject({ username: "浏览器用户", email: "e2e-octo@example.com", avatar: "https://avatars.example/e2e.png" });
    const cookies = await page.context().cookies(server.url);
    expect(cookies.find((c) => c.name === "wk_token")?.httpOnly).toBe(true);
    expect(cookies.find((c) => c.name === "wk_oauth_state")).toBeUndefined();
  }, TEST_TIMEOUT_MS);

  test("signed-in administrator: 绑定 GitHub binds the identity to the admin account", async () => {
    const { page } = await track();
    await loginAsAdmin(page, server.url);
    idp.setUser("github", { id: "9001", name: "管理员的GitHub", email: "admin-gh@example.com" });
    const button = await buttonsPage(page);
    expect(await button.innerText()).toContain("绑定 GitHub");
    await button.click();
    await page.waitForURL((u) => u.pathname === "/me", { timeout: 15_000 });
    const me = (await (await page.request.get(`${server.url}/api/v1/user`)).json()) as { user: { username: string } };
    expect(me.user.username).toBe(ADMIN.username);
    const list = (await (await page.request.get(`${server.url}/api/v1/user/oauth`)).json()) as { total: number; oauth: { type: string; name: string }[] };
    expect(list.total).toBe(1);
    expect(list.oauth[0]).toMatchObject({ type: "github", name: "管理员的GitHub" });
  }, TEST_TIMEOUT_MS);
});
