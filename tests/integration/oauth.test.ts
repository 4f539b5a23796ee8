// Third-party login semantics, with GitHub on the loopback stand-in: where the browser lands, binding
// while signed in and its conflicts, the state check, bad codes, cancelling, the JSON APIs, unbinding.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { userOauth } from "#db/schema/accounts.ts";
import { user } from "#db/schema/users.ts";
import { resetAll } from "#src/lib/rateLimit.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { startOAuthServer, type OAuthStandIn } from "../helpers/oauthServer.ts";
import { configure, cookieHeader, html, runFlow, setCookies } from "../helpers/oauthFlow.ts";

const t = setupTestApp();
let idp: OAuthStandIn;
let n = 0;
/** A fresh GitHub identity for the next authorize request. */
const nextGithubUser = (name = "octo") => {
  const who = { id: `gh-${++n}${Date.now() % 100000}`, name: `${name}${n}`, email: `${name}${n}@example.com` };
  idp.setUser("github", who);
  return who;
};
const bindingsOf = (userId: number) => getDb().select().from(userOauth).where(eq(userOauth.user_id, userId)).all();
const setRegister = (value: boolean) => t.req("PUT", "/api/v1/config", { token: t.rootToken, body: { config: [{ category: "security", name: "enable_register", value }] } });

beforeAll(async () => {
  idp = await startOAuthServer();
  await configure(t, idp, "github");
});
afterAll(() => idp?.stop());
beforeEach(() => resetAll());

describe("where the browser lands", () => {
  test("the redirect given at the start, kept with the state", async () => {
    nextGithubUser();
    const r = await runFlow(t, "github", { redirect: "/document/42?page=2" });
    expect(r.callback.res.headers.get("location")).toBe("/document/42?page=2");
  });

  test("only same-site paths: anything else goes to /me", async () => {
    for (const bad of ["https://evil.example/x", "//evil.example/x", "/\\evil.example", "javascript:alert(1)"]) {
      nextGithubUser();
      const r = await runFlow(t, "github", { redirect: bad });
      expect(r.callback.res.headers.get("location")).toBe("/me");
    }
  });
});

describe("binding while signed in", () => {
  test("binds to the signed-in account instead of creating one", async () => {
    const who = nextGithubUser("binder");
    const before = getDb().select().from(user).all().length;
    const r = await runFlow(t, "github", { session: t.userToken });
    expect(r.callback.status).toBe(302);
    expect(r.callback.res.headers.get("location")).toBe("/me");
    expect(r.session).toBeUndefined();
    expect(getDb().select().from(user).all().length).toBe(before);
    const list = await t.req("GET", "/api/v1/user/oauth", { token: t.userToken });
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(1);
    expect(list.body.oauth[0]).toMatchObject({ type: "github", name: who.name, email: who.email });
    expect(list.body.oauth[0].openid).toBeUndefined();
    // Signing in with that identity now reaches the member account.
    idp.setUser("github", who);
    const again = await runFlow(t, "github");
    const me = await t.req("GET", "/api/v1/user", { headers: { cookie: `wk_token=${again.session}` } });
    expect(me.body.user.id).toBe(t.userId);
  });

  test("an identity already bound to someone else: 409 该账号已绑定其他用户", async () => {
    const who = nextGithubUser("taken");
    await runFlow(t, "github"); // creates its own account
    idp.setUser("github", who);
    const other = await t.createUser(`other-${n}`);
    const r = await runFlow(t, "github", { session: other.token });
    expect(r.callback.status).toBe(409);
    expect(r.callback.text).toContain("该账号已绑定其他用户");
    expect(bindingsOf(other.user.id)).toHaveLength(0);
  });

  test("a second GitHub identity for an account that has one: 409 asking to unbind first", async () => {
    const owner = await t.createUser(`two-gh-${n}`);
    nextGithubUser();
    expect((await runFlow(t, "github", { session: owner.token })).callback.status).toBe(302);
    nextGithubUser();
    const r = await runFlow(t, "github", { session: owner.token });
    expect(r.callback.status).toBe(409);
    expect(r.callback.text).toContain("你已绑定其他GitHub账号，请先解绑");
  });

  test("binding the same identity again is harmless", async () => {
    const owner = await t.createUser(`rebind-${n}`);
    const who = nextGithubUser();
    await runFlow(t, "github", { session: owner.token });
    idp.setUser("github", who);
    expect((await runFlow(t, "github", { session: owner.token })).callback.status).toBe(302);
    expect(bindingsOf(owner.user.id)).toHaveLength(1);
  });
});

describe("the state check", () => {
  test("a state that is not this browser's: Chinese error, nobody signed in, buttons to retry", async () => {
    nextGithubUser();
    const r = await runFlow(t, "github", { tamper: (u) => u.searchParams.set("state", "not-the-state-we-issued") });
    expect(r.callback.status).toBe(400);
    expect(r.callback.text).toContain("登录状态校验失败（state 不匹配或已过期），请重新发起第三方登录");
    expect(r.callback.text).toContain('data-island="OAuthButtons"');
    expect(r.callback.text).toContain('href="/oauth/github?redirect=%2Fme"');
    expect(r.session).toBeUndefined();
  });

  test("no state cookie (a code planted from another browser) is refused", async () => {
    nextGithubUser();
    const start = await t.req("GET", "/oauth/github", { headers: html });
    const back = new URL((await fetch(start.res.headers.get("location")!, { redirect: "manual" })).headers.get("location")!);
    const r = await t.req("GET", back.pathname + back.search, { headers: html });
    expect(r.status).toBe(400);
    expect(r.text).toContain("登录状态校验失败");
    expect(setCookies(r.res).wk_token).toBeUndefined();
  });

  test("a state works once: replaying the callback fails", async () => {
    nextGithubUser();
    const start = await t.req("GET", "/oauth/github", { headers: html });
    const cookie = `wk_oauth_state=${setCookies(start.res).wk_oauth_state}`;
    const back = new URL((await fetch(start.res.headers.get("location")!, { redirect: "manual" })).headers.get("location")!);
    expect((await t.req("GET", back.pathname + back.search, { headers: { ...html, cookie } })).status).toBe(302);
    const replay = await t.req("GET", back.pathname + back.search, { headers: { ...html, cookie } });
    expect(replay.status).toBe(400);
    expect(replay.text).toContain("登录状态校验失败");
  });
});

describe("bad codes and cancelling", () => {
  test("a wrong code: the provider refuses and the page says so in Chinese", async () => {
    nextGithubUser();
    const r = await runFlow(t, "github", { tamper: (u) => u.searchParams.set("code", "forged-code") });
    expect(r.callback.status).toBe(400);
    expect(r.callback.text).toContain("GitHub授权失败：授权码无效或已过期，请重新登录");
    expect(r.session).toBeUndefined();
  });

  test("a wrong client secret in the settings is reported as a configuration problem", async () => {
    await configure(t, idp, "github", { github_client_secret: "wrong-secret" });
    try {
      nextGithubUser();
      const r = await runFlow(t, "github");
      expect(r.callback.status).toBe(503);
      expect(r.callback.text).toContain("GitHub登录配置有误，请联系网站管理员");
    } finally {
      await configure(t, idp, "github");
    }
  });

  test("the user declined at the provider", async () => {
    const start = await t.req("GET", "/oauth/github", { headers: html });
    const state = new URL(start.res.headers.get("location")!).searchParams.get("state");
    const r = await t.req("GET", `/oauth/github?error=access_denied&state=${state}`, { headers: { ...html, cookie: `wk_oauth_state=${state}` } });
    expect(r.status).toBe(400);
    expect(r.text).toContain("你已取消GitHub授权，未完成登录");
  });
});

describe("accounts created by third-party login", () => {
  test("closed registration: no new accounts, but bound identities still sign in", async () => {
    const bound = nextGithubUser();
    await runFlow(t, "github");
    await setRegister(false);
    try {
      nextGithubUser();
      const r = await runFlow(t, "github");
      expect(r.callback.status).toBe(403);
      expect(r.callback.text).toContain("网站已关闭注册");
      idp.setUser("github", bound);
      expect((await runFlow(t, "github")).session).toBeTruthy();
    } finally {
      await setRegister(true);
    }
  });

  test("an e-mail address another account uses is not copied; the account is still created", async () => {
    const who = nextGithubUser("mailclash");
    getDb().update(user).set({ email: who.email }).where(eq(user.id, t.userId)).run();
    const r = await runFlow(t, "github");
    const me = await t.req("GET", "/api/v1/user", { headers: { cookie: `wk_token=${r.session}` } });
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe("");
    expect(me.body.user.id).not.toBe(t.userId);
  });

  test("a disabled account cannot sign in through its binding", async () => {
    const who = nextGithubUser();
    const first = await runFlow(t, "github");
    const id = (await t.req("GET", "/api/v1/user", { headers: { cookie: `wk_token=${first.session}` } })).body.user.id;
    getDb().update(user).set({ status: 1 }).where(eq(user.id, id)).run();
    idp.setUser("github", who);
    const r = await runFlow(t, "github");
    expect(r.callback.status).toBe(403);
    expect(r.callback.text).toContain("账号已被禁用");
  });
});

/** GET /oauth/configs then the provider's authorize step, as a client of the JSON API would. */
async function apiCode() {
  const cfg = await t.req("GET", "/api/v1/oauth/configs");
  const cookie = `wk_oauth_state=${setCookies(cfg.res).wk_oauth_state}`;
  const gh = cfg.body.find((x: { type: string }) => x.type === "github");
  const back = new URL((await fetch(gh.authorize_url, { redirect: "manual" })).headers.get("location")!);
  return { cookie, code: back.searchParams.get("code")!, state: back.searchParams.get("state")! };
}

describe("JSON APIs", () => {
  test("POST /oauth/login answers a token and the user; the token works as a bearer", async () => {
    const who = nextGithubUser("apilogin");
    const { cookie, code, state } = await apiCode();
    const r = await t.req("POST", "/api/v1/oauth/login", { body: { type: "github", code, state }, headers: { cookie } });
    expect(r.status).toBe(200);
    expect(r.body.user).toMatchObject({ username: who.name, email: who.email });
    expect(r.body.user.password).toBeUndefined();
    const me = await t.req("GET", "/api/v1/user", { token: r.body.token });
    expect(me.body.user.id).toBe(r.body.user.id);
  });

  test("POST /oauth/login with a mismatched state or a wrong code: 400 in Chinese", async () => {
    nextGithubUser();
    const a = await apiCode();
    const mismatch = await t.req("POST", "/api/v1/oauth/login", { body: { type: "github", code: a.code, state: "other" }, headers: { cookie: a.cookie } });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.message).toBe("登录状态校验失败（state 不匹配或已过期），请重新发起第三方登录");
    const b = await apiCode();
    const wrong = await t.req("POST", "/api/v1/oauth/login", { body: { type: "github", code: "nope", state: b.state }, headers: { cookie: b.cookie } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe("GitHub授权失败：授权码无效或已过期，请重新登录");
    const missing = await t.req("POST", "/api/v1/oauth/login", { body: { type: "github", state: "x" } });
    expect(missing.body.message).toBe("缺少授权码 code");
    const badType = await t.req("POST", "/api/v1/oauth/login", { body: { type: "weibo", code: "x", state: "y" } });
    expect(badType.body.message).toBe("不支持的第三方登录类型");
  });

  test("POST /oauth/bind: binds for the bearer's account; someone else's identity is 409", async () => {
    const owner = await t.createUser(`api-bind-${n}`);
    const who = nextGithubUser();
    const a = await apiCode();
    const r = await t.req("POST", "/api/v1/oauth/bind", { token: owner.token, body: { type: "github", code: a.code, state: a.state }, headers: { cookie: a.cookie } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ message: "绑定成功", oauth: { type: "github", name: who.name } });
    const intruder = await t.createUser(`api-intruder-${n}`);
    idp.setUser("github", who);
    const b = await apiCode();
    const clash = await t.req("POST", "/api/v1/oauth/bind", { token: intruder.token, body: { type: "github", code: b.code, state: b.state }, headers: { cookie: b.cookie } });
    expect(clash.status).toBe(409);
    expect(clash.body).toEqual({ code: "conflict", message: "该账号已绑定其他用户" });
  });

  test("owner-only routes answer 401 to anonymous callers", async () => {
    for (const [method, path] of [["POST", "/api/v1/oauth/bind"], ["GET", "/api/v1/user/oauth"], ["DELETE", "/api/v1/user/oauth"]] as const) {
      const r = await t.req(method, path, { body: method === "GET" ? undefined : { type: "github", code: "x", state: "y" } });
      expect(r.status).toBe(401);
      expect(r.body.message).toBe("请先登录");
    }
  });
});

describe("DELETE /api/v1/user/oauth", () => {
  test("unbinds by type or id; another user's binding is not found; nothing named is 400", async () => {
    const owner = await t.createUser(`unbind-${n}`);
    nextGithubUser();
    await runFlow(t, "github", { session: owner.token });
    const [row] = bindingsOf(owner.user.id);
    const stranger = await t.createUser(`stranger-${n}`);
    const foreign = await t.req("DELETE", "/api/v1/user/oauth", { token: stranger.token, body: { id: row!.id } });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe("绑定记录不存在");
    expect(bindingsOf(owner.user.id)).toHaveLength(1);
    const none = await t.req("DELETE", "/api/v1/user/oauth", { token: owner.token, body: {} });
    expect(none.status).toBe(400);
    expect(none.body.message).toBe("请指定要解绑的绑定 ID 或登录类型");
    const byType = await t.req("DELETE", "/api/v1/user/oauth?type=github", { token: owner.token });
    expect(byType.status).toBe(200);
    expect(byType.body.message).toBe("解绑成功");
    expect(bindingsOf(owner.user.id)).toHaveLength(0);
    nextGithubUser();
    await runFlow(t, "github", { session: owner.token });
    const byId = await t.req("DELETE", "/api/v1/user/oauth", { token: owner.token, body: { id: bindingsOf(owner.user.id)[0]!.id } });
    expect(byId.status).toBe(200);
    expect((await t.req("GET", "/api/v1/user/oauth", { token: owner.token })).body).toEqual({ total: 0, oauth: [] });
  });

  test("a cookie-authenticated unbind from another site is refused (CSRF)", async () => {
    const r = await t.req("DELETE", "/api/v1/user/oauth", { body: { type: "github" }, headers: { cookie: cookieHeader({ wk_token: t.userToken }), "sec-fetch-site": "cross-site" } });
    expect(r.status).toBe(403);
  });
});
