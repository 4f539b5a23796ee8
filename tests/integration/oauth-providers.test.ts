// The whole authorization-code flow of every provider against the loopback stand-in, each speaking
// that provider's documented protocol: first sign-in creates the account, the second one signs in to
// the same account. Also what GET /oauth/configs may show.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { userOauth } from "#db/schema/accounts.ts";
import { user } from "#db/schema/users.ts";
import { resetAll } from "#src/lib/rateLimit.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { startOAuthServer, type OAuthStandIn, type StandInProvider } from "../helpers/oauthServer.ts";
import { configure, runFlow, setCookies } from "../helpers/oauthFlow.ts";

const t = setupTestApp();
let idp: OAuthStandIn;
beforeAll(async () => {
  idp = await startOAuthServer();
});
afterAll(() => idp?.stop());

const userCount = () => getDb().select().from(user).all().length;

const CASES: { p: StandInProvider; label: string; withEmail: boolean }[] = [
  { p: "github", label: "GitHub", withEmail: true },
  { p: "gitee", label: "Gitee", withEmail: true },
  { p: "qq", label: "QQ", withEmail: false },
  { p: "wechat", label: "微信", withEmail: false },
  { p: "google", label: "Google", withEmail: true },
  { p: "custom", label: "OIDC (issuer discovery)", withEmail: true },
];

describe.each(CASES)("$label code flow", ({ p, withEmail }) => {
  const who = { id: `${p}-77${Math.floor(Math.random() * 1000)}`, name: `${p}测试者`, avatar: `http://avatars.example/${p}.png`, email: `${p}.person@example.com` };

  test("first sign-in creates an account with the nickname and avatar, and a session", async () => {
    resetAll();
    await configure(t, idp, p);
    idp.setUser(p, who);
    const before = userCount();
    const r = await runFlow(t, p);
    expect(r.callback.status).toBe(302);
    expect(r.callback.res.headers.get("location")).toBe("/me");
    expect(r.session).toBeTruthy();
    expect(setCookies(r.callback.res).wk_oauth_state).toBe("");
    expect(userCount()).toBe(before + 1);
    const me = await t.req("GET", "/api/v1/user", { headers: { cookie: `wk_token=${r.session}` } });
    expect(me.status).toBe(200);
    expect(me.body.user.username).toBe(`${p}测试者`);
    // Plain-http provider avatars are upgraded: pages only load https images.
    expect(me.body.user.avatar).toBe(`https://avatars.example/${p}.png`);
    expect(me.body.user.email).toBe(withEmail ? who.email : "");
    const row = getDb().select().from(userOauth).where(eq(userOauth.user_id, me.body.user.id)).get()!;
    expect(row).toMatchObject({ type: p, openid: p === "github" || p === "gitee" ? who.id.replace(/\D/g, "") : who.id, name: who.name });
    if (p === "wechat") expect(row.unionid).toBe(`u-${who.id}`);
  });

  test("second sign-in reaches the same account", async () => {
    resetAll();
    idp.setUser(p, { ...who, name: `${p}改了昵称` });
    const before = userCount();
    const r = await runFlow(t, p);
    expect(r.callback.status).toBe(302);
    expect(userCount()).toBe(before);
    const me = await t.req("GET", "/api/v1/user", { headers: { cookie: `wk_token=${r.session}` } });
    expect(me.body.user.username).toBe(`${p}测试者`);
    const row = getDb().select().from(userOauth).where(eq(userOauth.user_id, me.body.user.id)).get()!;
    expect(row.name).toBe(`${p}改了昵称`);
  });

  test("a forged code is refused by the provider, and the page says so in Chinese", async () => {
    resetAll();
    const r = await runFlow(t, p, { tamper: (u) => u.searchParams.set("code", "forged") });
    expect(r.callback.status).toBe(400);
    expect(r.callback.text).toMatch(/授权失败：授权码无效或已过期，请重新登录/);
    expect(r.session).toBeUndefined();
  });
});

describe("protocol details the stand-in checks", () => {
  test("GitHub: token request asks for JSON, the API gets a User-Agent and the bearer token", () => {
    const tokenReq = idp.requests.findLast((r) => r.provider === "github" && r.path === "/login/oauth/access_token")!;
    expect(tokenReq.headers.accept).toContain("application/json");
    expect(tokenReq.form).toMatchObject({ client_id: idp.clients.github.id, redirect_uri: "http://localhost/oauth/github" });
    const userReq = idp.requests.findLast((r) => r.provider === "github" && r.path === "/user")!;
    expect(userReq.headers["user-agent"]).toBeTruthy();
    expect(userReq.headers.authorization).toStartWith("Bearer ");
  });

  test("Gitee: the client secret travels in the body, not in the URL", () => {
    const tokenReq = idp.requests.findLast((r) => r.provider === "gitee" && r.path === "/oauth/token")!;
    expect(tokenReq.query.client_secret).toBeUndefined();
    expect(tokenReq.form.client_secret).toBe(idp.clients.gitee.secret);
  });

  test("QQ: fmt=json on token and me, get_user_info with oauth_consumer_key and openid", () => {
    const reqs = idp.requests.filter((r) => r.provider === "qq");
    expect(reqs.findLast((r) => r.path === "/oauth2.0/token")!.query.fmt).toBe("json");
    expect(reqs.findLast((r) => r.path === "/oauth2.0/me")!.query.fmt).toBe("json");
    expect(reqs.findLast((r) => r.path === "/user/get_user_info")!.query.oauth_consumer_key).toBe(idp.clients.qq.id);
  });

  test("WeChat: QR login authorize URL has scope snsapi_login and the #wechat_redirect fragment", async () => {
    const r = await t.req("GET", "/oauth/wechat", { headers: { accept: "text/html" } });
    const loc = r.res.headers.get("location")!;
    expect(loc).toStartWith(`${idp.base("wechat")}/connect/qrconnect?appid=${idp.clients.wechat.id}&redirect_uri=`);
    expect(loc).toContain("scope=snsapi_login");
    expect(loc).toEndWith("#wechat_redirect");
  });

  test("custom: PKCE S256 verifier checked by the token endpoint", () => {
    const tokenReq = idp.requests.findLast((r) => r.provider === "custom" && r.path === "/token")!;
    expect(tokenReq.form.code_verifier).toMatch(/^[\w-]{43,128}$/);
    expect(tokenReq.form.client_secret).toBe(idp.clients.custom.secret);
  });
});

describe("custom OAuth2 without discovery", () => {
  test("explicit URLs, HTTP Basic client auth and field paths into a nested profile", async () => {
    resetAll();
    const base = idp.base("custom");
    await configure(t, idp, "custom", {
      custom_issuer: "", custom_authorize_url: `${base}/authorize`, custom_token_url: `${base}/token`, custom_userinfo_url: `${base}/userinfo`,
      custom_token_auth: "basic", custom_field_id: "data.user.uid", custom_field_name: "$.data.user.nick", custom_field_email: "data.user.mail", custom_name: "内网账号",
    });
    idp.setUser("custom", { id: "emp-42", name: "张三", email: "zhangsan@corp.example" });
    const r = await runFlow(t, "custom");
    expect(r.callback.status).toBe(302);
    const me = await t.req("GET", "/api/v1/user", { headers: { cookie: `wk_token=${r.session}` } });
    expect(me.body.user.username).toBe("张三内网");
    expect(me.body.user.email).toBe("zhangsan@corp.example");
    expect(getDb().select().from(userOauth).where(eq(userOauth.user_id, me.body.user.id)).get()!.openid).toBe("n-emp-42");
    const tokenReq = idp.requests.findLast((x) => x.provider === "custom" && x.path === "/token")!;
    expect(tokenReq.headers.authorization).toStartWith("Basic ");
    expect(tokenReq.form.client_secret).toBeUndefined();
  });
});

describe("GET /api/v1/oauth/configs", () => {
  test("every enabled provider with an authorize URL; no ids of disabled ones, never a secret", async () => {
    for (const p of ["github", "gitee", "qq", "wechat", "google"] as const) await configure(t, idp, p);
    await configure(t, idp, "custom");
    const r = await t.req("GET", "/api/v1/oauth/configs?redirect=/document/9");
    expect(r.status).toBe(200);
    expect(r.body.map((x: { type: string }) => x.type)).toEqual(["github", "gitee", "qq", "wechat", "google", "custom"]);
    for (const item of r.body) expect(Object.keys(item).sort()).toEqual(["authorize_url", "icon", "name", "type"]);
    for (const p of Object.keys(idp.clients) as StandInProvider[]) expect(r.text).not.toContain(idp.clients[p].secret);
    expect(r.text).not.toContain(idp.mp.secret);
    const gh = new URL(r.body[0].authorize_url);
    expect(gh.searchParams.get("client_id")).toBe(idp.clients.github.id);
    expect(gh.searchParams.get("redirect_uri")).toBe("http://localhost/oauth/github");
    const state = gh.searchParams.get("state")!;
    expect(state.length).toBeGreaterThanOrEqual(32);
    const cookie = r.res.headers.getSetCookie().find((c) => c.startsWith("wk_oauth_state="))!;
    expect(cookie).toContain(`wk_oauth_state=${state}`);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    // One state per configs answer, shared by all its buttons.
    expect(new URL(r.body[1].authorize_url).searchParams.get("state")).toBe(state);
    expect(new URL(r.body[5].authorize_url).searchParams.get("code_challenge_method")).toBe("S256");
  });

  test("the admin's config list shows secrets only as set / not set; public settings have no oauth group", async () => {
    const list = await t.req("GET", "/api/v1/config/list?category=oauth", { token: t.rootToken });
    expect(list.status).toBe(200);
    const secret = list.body.config.find((c: { name: string }) => c.name === "github_client_secret");
    expect(secret).toMatchObject({ value: "", secret: true, has_value: true });
    expect(list.text).not.toContain(idp.clients.github.secret);
    const pub = await t.req("GET", "/api/v1/settings");
    expect(pub.body.oauth).toBeUndefined();
    expect(pub.text).not.toContain(idp.clients.github.id);
  });

  test("/admin/config/oauth is the admin screen of the group, secrets shown as set", async () => {
    const page = await t.req("GET", "/admin/config/oauth", { headers: { accept: "text/html", cookie: `wk_token=${t.rootToken}` } });
    expect(page.status).toBe(200);
    expect(page.text).toContain("第三方登录");
    expect(page.text).toContain("高级：GitHub 接口地址");
    expect(page.text).not.toContain(idp.clients.github.secret);
    expect((await t.req("GET", "/admin/config/oauth", { headers: { accept: "text/html", cookie: `wk_token=${t.userToken}` } })).status).toBe(302);
  });

  test("a custom provider whose discovery fails loses only its own button", async () => {
    await configure(t, idp, "custom", { custom_issuer: `${idp.url}/nowhere`, custom_authorize_url: "", custom_token_url: "", custom_userinfo_url: "" });
    const r = await t.req("GET", "/api/v1/oauth/configs");
    expect(r.status).toBe(200);
    expect(r.body.map((x: { type: string }) => x.type)).toEqual(["github", "gitee", "qq", "wechat", "google"]);
    const page = await t.req("GET", "/oauth/custom", { headers: { accept: "text/html" } });
    expect(page.status).toBe(503);
    expect(page.text).toContain("连接内网账号失败，请稍后重试");
  });

  test("a disabled provider disappears and its callback says so", async () => {
    await configure(t, idp, "qq", { qq_enable: false });
    const r = await t.req("GET", "/api/v1/oauth/configs");
    expect(r.body.map((x: { type: string }) => x.type)).not.toContain("qq");
    const page = await t.req("GET", "/oauth/qq", { headers: { accept: "text/html" } });
    expect(page.status).toBe(404);
    expect(page.text).toContain("网站未开启该第三方登录方式");
    const api = await t.req("POST", "/api/v1/oauth/login", { body: { type: "qq", code: "x", state: "y" } });
    expect(api.status).toBe(404);
    expect(api.body.message).toBe("网站未开启该第三方登录方式");
  });
});
