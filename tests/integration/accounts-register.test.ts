// Password registration (POST /user/register) and the /register and /login pages.
import { describe, expect, test } from "bun:test";
import { getSqlite } from "#db/client.ts";
import { resetAll } from "#src/lib/rateLimit.ts";
import { startSmtpSink } from "../helpers/smtpSink.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { codeIn, configureEmail } from "./email-fixtures.ts";
import { freshIp, INJECTIONS, register, setConfig } from "./accounts-fixtures.ts";

const t = setupTestApp();
const html = { accept: "text/html" };
const count = (sql: string, ...args: (string | number)[]) => (getSqlite().query(sql).get(...args) as { n: number }).n;
const users = () => count("select count(*) as n from user");

describe("POST /api/v1/user/register", () => {
  test("creates the account, signs in (cookie + token), joins the default group, pays the award, writes the feed", async () => {
    const r = await register(t, { username: "新用户_01", password: "secret-123", email: "New.User@Example.com" });
    expect(r.status).toBe(200);
    expect(r.body.token).toBeString();
    expect(r.body.user).toMatchObject({ username: "新用户_01", email: "new.user@example.com", credit_count: 10 });
    expect(r.body.user.password).toBeUndefined();
    const cookie = r.res.headers.get("set-cookie")!;
    expect(cookie).toContain(`wk_token=${r.body.token}`);
    expect(cookie).toContain("HttpOnly");
    const me = await t.req("GET", "/api/v1/user", { token: r.body.token });
    expect(me.body.user.username).toBe("新用户_01");
    const id = r.body.user.id;
    expect(count("select count(*) as n from user_group where user_id = ? and group_id = 2", id)).toBe(1);
    expect(count("select count(*) as n from credit_log where user_id = ? and amount = 10 and balance = 10", id)).toBe(1);
    expect(count("select count(*) as n from dynamic where user_id = ? and content = '注册成为会员'", id)).toBe(1);
    // The stored hash is argon2id, never the password.
    const row = getSqlite().query("select password from user where id = ?").get(id) as { password: string };
    expect(row.password).toStartWith("$argon2id$");
  });

  test("e-mail is optional", async () => {
    const r = await register(t, { username: "no_mail_user", password: "secret-123" });
    expect(r.status).toBe(200);
    expect(r.body.user.email).toBe("");
  });

  test("closed registration: 403 网站已关闭注册, nothing written", async () => {
    await setConfig(t, "security", { enable_register: false });
    try {
      const before = users();
      const r = await register(t, { username: "closed_try", password: "secret-123" });
      expect(r.status).toBe(403);
      expect(r.body.message).toBe("网站已关闭注册");
      expect(users()).toBe(before);
      const page = await t.req("GET", "/register", { headers: html });
      expect(page.text).toContain("网站已关闭注册");
      expect(page.text).not.toContain('data-island="RegisterForm"');
    } finally {
      await setConfig(t, "security", { enable_register: true });
    }
  });

  test("duplicate username or e-mail: 409 in Chinese", async () => {
    expect((await register(t, { username: "dup_user", password: "secret-123", email: "dup@example.com" })).status).toBe(200);
    const name = await register(t, { username: "dup_user", password: "secret-123" });
    expect(name.status).toBe(409);
    expect(name.body.message).toBe("用户名已被占用");
    const mail = await register(t, { username: "dup_user2", password: "secret-123", email: "DUP@example.com" });
    expect(mail.status).toBe(409);
    expect(mail.body.message).toBe("邮箱已被占用");
  });

  test("bad and over-long input: 400 with a Chinese message, nothing written", async () => {
    const before = users();
    const cases: [Record<string, unknown>, string][] = [
      [{ password: "secret-123" }, "请输入用户名"],
      [{ username: "", password: "secret-123" }, "请输入用户名"],
      [{ username: "a", password: "secret-123" }, "用户名长度为 2-64 个字符"],
      [{ username: "x".repeat(65), password: "secret-123" }, "用户名长度为 2-64 个字符"],
      [{ username: "bad name!", password: "secret-123" }, "用户名只能包含字母、数字、下划线和汉字"],
      [{ username: "good_name", password: "" }, "请输入密码"],
      [{ username: "good_name", password: "12345" }, "密码长度为 6-64 个字符"],
      [{ username: "good_name", password: "p".repeat(65) }, "密码长度为 6-64 个字符"],
      [{ username: "good_name", password: "secret-123", email: "not-an-email" }, "请输入正确的邮箱"],
      [{ username: "good_name", password: "secret-123", email: `${"m".repeat(250)}@x.com` }, "邮箱不能超过 254 个字符"],
    ];
    for (const [body, message] of cases) {
      const r = await register(t, body);
      expect({ status: r.status, message: r.body.message }).toEqual({ status: 400, message });
    }
    expect(users()).toBe(before);
  });

  test("SQL and script injection in every field is refused by the rules, and the table survives", async () => {
    const before = users();
    for (const bad of INJECTIONS) {
      const r = await register(t, { username: bad, password: "secret-123", email: bad });
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(/用户名|邮箱/);
    }
    // A password is free text: it is hashed, never interpreted.
    const r = await register(t, { username: "pw_injection", password: INJECTIONS[0] });
    expect(r.status).toBe(200);
    expect(users()).toBe(before + 1);
    resetAll();
    const login = await t.req("POST", "/api/v1/user/login", { body: { username: "pw_injection", password: INJECTIONS[0] }, headers: { "x-forwarded-for": freshIp() } });
    expect(login.status).toBe(200);
  });

  test("per-IP limit: the 11th attempt within an hour is 429 in Chinese", async () => {
    resetAll();
    const ip = freshIp();
    for (let i = 0; i < 10; i++) expect((await register(t, { username: "x" }, ip)).status).toBe(400);
    const r = await register(t, { username: "limited_user", password: "secret-123" }, ip);
    expect(r.status).toBe(429);
    expect(r.body.message).toBe("注册过于频繁，请一小时后再试");
    expect((await register(t, { username: "limited_user", password: "secret-123" })).status).toBe(200);
  });

  test("with e-mail verification on: e-mail and its code are required, and the code is used up", async () => {
    await setConfig(t, "security", { enable_verify_register_email: true });
    let code = "";
    try {
      expect((await register(t, { username: "verify_me", password: "secret-123" })).body.message).toBe("请输入邮箱");
      expect((await register(t, { username: "verify_me", password: "secret-123", email: "v@example.com" })).body.message).toBe("请输入邮箱验证码");
      expect((await register(t, { username: "verify_me", password: "secret-123", email: "v@example.com", code: "123456" })).body.message).toBe("请先获取验证码");
      // A real code, e-mailed through the local SMTP sink as a user would receive it.
      const sink = await startSmtpSink();
      try {
        await configureEmail(t, sink);
        const sent = await t.req("POST", "/api/v1/user/email/code", { body: { email: "v@example.com", type: 0 }, headers: { "x-forwarded-for": freshIp() } });
        expect(sent.status).toBe(200);
        code = codeIn((await sink.waitFor("v@example.com")).text);
      } finally {
        await sink.close();
      }
      expect(code).toMatch(/^\d{6}$/);
      const wrong = await register(t, { username: "verify_me", password: "secret-123", email: "v@example.com", code: code === "000000" ? "111111" : "000000" });
      expect(wrong.body.message).toBe("验证码错误");
      const ok = await register(t, { username: "verify_me", password: "secret-123", email: "V@example.com", code });
      expect(ok.status).toBe(200);
      const again = await register(t, { username: "verify_me2", password: "secret-123", email: "v@example.com", code });
      expect(again.status).toBe(409);
    } finally {
      await setConfig(t, "security", { enable_verify_register_email: false });
    }
  });
});

describe("pages", () => {
  test("/register shows the form with confirm field; the agreement link appears when configured", async () => {
    const page = await t.req("GET", "/register", { headers: html });
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-island="RegisterForm"');
    expect(page.text).toContain('name="confirm_password"');
    expect(page.text).not.toContain("用户协议");
    await setConfig(t, "footer", { agreement: "/page/agreement" });
    const withAgreement = await t.req("GET", "/register", { headers: html });
    expect(withAgreement.text).toContain('href="/page/agreement"');
    expect(withAgreement.text).toContain("《用户协议》");
    await setConfig(t, "footer", { agreement: "" });
  });

  test("/login links to register and password recovery; captcha only when switched on", async () => {
    const page = await t.req("GET", "/login", { headers: html });
    expect(page.text).toContain('href="/register"');
    expect(page.text).toContain('href="/findpassword"');
    expect(page.text).not.toContain('name="captcha"');
    await setConfig(t, "security", { enable_captcha_login: true });
    const withCaptcha = await t.req("GET", "/login", { headers: html });
    expect(withCaptcha.text).toContain('name="captcha"');
    await setConfig(t, "security", { enable_captcha_login: false });
  });

  test("mobile tabs (SMS feature's MobileCodeForm) when mobile sign-up is on; OAuth buttons under the login form", async () => {
    expect((await t.req("GET", "/login", { headers: html })).text).not.toContain("手机号登录");
    await setConfig(t, "sms", { enable: true });
    await setConfig(t, "security", { enable_register_mobile: true });
    await setConfig(t, "oauth", { github_enable: true, github_client_id: "id-1", github_client_secret: "secret-1" });
    try {
      const login = await t.req("GET", "/login?redirect=%2Fme%2Fvip", { headers: html });
      expect(login.text).toContain('href="/login?tab=mobile&amp;redirect=%2Fme%2Fvip"');
      expect(login.text).toContain('data-island="LoginForm"');
      expect(login.text).toContain('data-island="OAuthButtons"');
      expect(login.text).toContain('href="/oauth/github?redirect=%2Fme%2Fvip"');
      expect(login.text).toContain('href="/findpassword-mobile"');
      const mobile = await t.req("GET", "/login?tab=mobile", { headers: html });
      expect(mobile.text).toContain('data-island="MobileCodeForm"');
      expect(mobile.text).toContain("&quot;mode&quot;:&quot;login&quot;");
      const reg = await t.req("GET", "/register?tab=mobile", { headers: html });
      expect(reg.text).toContain("&quot;mode&quot;:&quot;register&quot;");
      expect(reg.text).toContain("手机号注册");
    } finally {
      await setConfig(t, "sms", { enable: false });
      await setConfig(t, "security", { enable_register_mobile: false });
      await setConfig(t, "oauth", { github_enable: false });
    }
  });

  test("signed-in users on /login or /register go to their homepage", async () => {
    for (const path of ["/login", "/register"]) {
      const r = await t.req("GET", path, { headers: { ...html, cookie: `wk_token=${t.userToken}` } });
      expect(r.status).toBe(302);
      expect(r.res.headers.get("location")).toBe(`/user/${t.userId}`);
    }
  });
});
