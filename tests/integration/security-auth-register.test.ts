// Issue 13 item 7 (part): usernames unique without case, common passwords and password = username
// refused in Chinese, cross-site login/register refused (login CSRF), validation names nested paths.
import { describe, expect, test } from "bun:test";
import { Hono } from "hono";
import { z } from "zod";
import { COMMON_PASSWORDS } from "#src/features/auth/commonPasswords.ts";
import { validate } from "#src/lib/validate.ts";
import { resetAll } from "#src/lib/rateLimit.ts";
import { ROOT, setupTestApp } from "../helpers/testApp.ts";
import { freshIp, register } from "./accounts-fixtures.ts";

const t = setupTestApp();

describe("register: usernames compare without case", () => {
  test("Admin and ADMIN cannot register beside admin", async () => {
    expect((await register(t, { username: "admin", password: "good-pass-91" })).status).toBe(200);
    for (const name of ["Admin", "ADMIN", "aDmIn"]) {
      const r = await register(t, { username: name, password: "good-pass-91" });
      expect(r.status).toBe(409);
      expect(r.body.message).toBe("用户名已被占用");
    }
    // ROOT is "root": "Root" is taken too.
    expect((await register(t, { username: "Root", password: "good-pass-91" })).body.message).toBe("用户名已被占用");
  });

  test("an administrator creating Admin meets the same rule", async () => {
    const r = await t.req("POST", "/api/v1/user", { token: t.rootToken, body: { username: "ADMIN", password: "good-pass-92" } });
    expect(r.status).toBe(409);
    expect(r.body.message).toBe("用户名已被占用");
  });
});

describe("register: passwords", () => {
  test("the most common passwords are refused in Chinese", async () => {
    expect(COMMON_PASSWORDS.size).toBeGreaterThanOrEqual(100);
    for (const pw of ["123456", "password", "qwerty", "111111", "12345678", "abc123", "iloveyou", "000000", "123123", "woaini1314", "PASSWORD", "Qwerty123"]) {
      const r = await register(t, { username: "weak_pw_user", password: pw });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe("密码过于常见，容易被猜中，请换一个更复杂的密码");
    }
  });

  test("a password equal to the username (any case) is refused", async () => {
    const r = await register(t, { username: "Zhangsan88", password: "zhangsan88" });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe("密码不能与用户名相同");
    expect((await register(t, { username: "Zhangsan88", password: "zhangsan88-ok" })).status).toBe(200);
  });

  test("admin-created accounts and password changes follow the same rules", async () => {
    const a = await t.req("POST", "/api/v1/user", { token: t.rootToken, body: { username: "staff_x", password: "123456" } });
    expect(a.status).toBe(400);
    expect(a.body.message).toBe("密码过于常见，容易被猜中，请换一个更复杂的密码");
    const u = await t.createUser("changer", { password: "changer-pass-1" });
    const c = await t.req("PUT", "/api/v1/user/password", { token: u.token, body: { old_password: "changer-pass-1", new_password: "Changer" } });
    expect(c.status).toBe(400);
    expect(c.body.message).toBe("密码不能与用户名相同");
  });
});

describe("login CSRF: another site cannot sign a browser in", () => {
  const post = (path: string, body: unknown, headers: Record<string, string>) =>
    t.req("POST", path, { body, headers: { host: "wenku.test", "x-forwarded-for": freshIp(), ...headers } });
  const creds = { username: ROOT.username, password: ROOT.password };

  test("cross-site Origin or Sec-Fetch-Site: 403 for login and register", async () => {
    resetAll();
    const cases: Record<string, string>[] = [{ origin: "https://evil.example" }, { origin: "null" }, { "sec-fetch-site": "cross-site" }, { "sec-fetch-site": "same-site" }];
    for (const h of cases) {
      const l = await post("/api/v1/user/login", creds, h);
      expect(l.status).toBe(403);
      expect(l.body.message).toBe("跨站请求被拒绝");
      expect(l.res.headers.get("set-cookie")).toBeNull();
      const r = await post("/api/v1/user/register", { username: "csrf_user", password: "good-pass-93" }, h);
      expect(r.status).toBe(403);
    }
  });

  test("same-origin browsers and API clients without those headers still sign in", async () => {
    resetAll();
    expect((await post("/api/v1/user/login", creds, { origin: "http://wenku.test" })).status).toBe(200);
    expect((await post("/api/v1/user/login", creds, { "sec-fetch-site": "same-origin", origin: "http://wenku.test" })).status).toBe(200);
    expect((await post("/api/v1/user/login", creds, {})).status).toBe(200);
  });
});

describe("validation messages name the parameter", () => {
  const app = new Hono();
  app.onError((e, c) => c.json({ message: e.message }, 400));
  app.post("/x", validate("json", z.object({ document: z.array(z.object({ title: z.string().min(1) })) })), (c) => c.text("ok"));
  app.post("/u", validate("json", z.object({ a: z.union([z.object({ b: z.string() }), z.object({ c: z.number() })]) })), (c) => c.text("ok"));
  const send = async (path: string, body: string) =>
    ((await (await app.request(path, { method: "POST", body, headers: { "content-type": "application/json" } })).json()) as { message: string }).message;

  test("nested paths, unions and the whole body", async () => {
    expect(await send("/x", JSON.stringify({ document: [{ title: 5 }] }))).toBe("参数 document.0.title 格式不正确");
    expect(await send("/x", JSON.stringify({ document: [{ title: "ok" }, {}] }))).toBe("参数 document.1.title 格式不正确");
    expect(await send("/u", JSON.stringify({ a: { b: 1 } }))).toBe("参数 a.b 格式不正确");
    expect(await send("/x", "[1]")).toBe("请求参数格式不正确");
  });

  test("on a real route: malformed JSON is a Chinese 400", async () => {
    const r = await t.req("POST", "/api/v1/user/login", { body: "{bad", headers: { "content-type": "application/json" } });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe("请求格式不正确（不是有效的 JSON 或表单）");
  });
});
