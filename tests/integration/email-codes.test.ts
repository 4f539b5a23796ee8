// E-mail settings, SMTP sending through a real loopback SMTP server, verification codes and
// consumeEmailCode, the admin test mail, and hostile input in the e-mail field.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, desc, eq, sql } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { permission } from "#db/schema/accounts.ts";
import { verifyCode } from "#db/schema/accounts.ts";
import { user } from "#db/schema/users.ts";
import { consumeEmailCode, MAX_PER_ADDRESS_HOUR, MAX_PER_IP_HOUR, MAX_REQUESTS_PER_IP_HOUR } from "#src/features/email/codes.ts";
import { resetAll } from "#src/lib/rateLimit.ts";
import { startSmtpSink, type SmtpSink } from "../helpers/smtpSink.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { BAD_EMAILS, codeIn, configureEmail, userWithEmail } from "./email-fixtures.ts";

const t = setupTestApp();
let sink: SmtpSink;
let ipSeq = 0;
// Every test gets its own address so the database-backed limits of one never touch another.
const nextIp = () => `198.51.100.${++ipSeq}`;
const sendCode = (email: string, type: number, ip = nextIp(), token?: string) =>
  t.req("POST", "/api/v1/user/email/code", { body: { email, type }, headers: { "x-forwarded-for": ip }, token });
const rowsFor = (email: string) => getDb().select().from(verifyCode).where(eq(verifyCode.target, email)).orderBy(desc(verifyCode.id)).all();
// Moves an address's rows back in time, as if the resend interval had passed.
const age = (email: string, ms: number) =>
  getDb().update(verifyCode).set({ created_at: sql`${verifyCode.created_at} - ${ms}` }).where(eq(verifyCode.target, email)).run();

beforeAll(async () => {
  sink = await startSmtpSink();
  await configureEmail(t, sink);
});
afterAll(() => sink?.close());

describe("email settings group", () => {
  test("is admin-only, with the password kept secret", async () => {
    const list = await t.req("GET", "/api/v1/config/list?category=email", { token: t.rootToken });
    expect(list.status).toBe(200);
    const byName = Object.fromEntries(list.body.config.map((i: any) => [i.name, i]));
    expect(Object.keys(byName).sort()).toEqual(["duration", "enable", "from_name", "host", "is_tls", "password", "port", "username"]);
    expect(byName.password).toMatchObject({ secret: true, value: "", has_value: true });
    expect(byName.host.value).toBe("127.0.0.1");
    const pub = await t.req("GET", "/api/v1/settings");
    expect(pub.body.email).toBeUndefined();
    expect(pub.text).not.toContain(sink.pass);
  });

  test("bad values are refused in Chinese", async () => {
    const r = await t.req("PUT", "/api/v1/config", { token: t.rootToken, body: { config: [{ category: "email", name: "port", value: 70000 }] } });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe("「SMTP 端口」不能大于 65535");
  });
});

describe("POST /api/v1/user/email/code", () => {
  test("sends a 6-digit code; the row keeps only its hash and ends as sent", async () => {
    const before = Date.now();
    const r = await sendCode("new-reader@example.com", 0, "192.0.2.10");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ message: "验证码已发送，请查收邮件", interval: 60 });
    const mail = await sink.waitFor("new-reader@example.com");
    expect(mail.subject).toBe("【魔豆文库】注册账号验证码");
    expect(mail.from).toBe(`魔豆文库 <${sink.user}>`);
    const code = codeIn(mail.text);
    expect(code).toMatch(/^\d{6}$/);
    expect(mail.html).toContain(code);
    const [row] = rowsFor("new-reader@example.com");
    expect(row).toMatchObject({ channel: "email", type: 0, status: 1, error: "", ip: "192.0.2.10", attempts: 0, used_at: null });
    expect(row!.code_hash).not.toContain(code);
    expect(row!.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.expires_at).toBeGreaterThanOrEqual(before + 10 * 60_000);
    expect(row!.expires_at).toBeLessThanOrEqual(Date.now() + 10 * 60_000);
  });

  test("a second request within 60 s is 429; the address and IP hourly caps hold", async () => {
    const ip = nextIp();
    expect((await sendCode("again@example.com", 0, ip)).status).toBe(200);
    const again = await sendCode("again@example.com", 0, nextIp());
    expect(again.status).toBe(429);
    expect(again.body.message).toMatch(/^验证码发送过于频繁，请 \d+ 秒后再试$/);
    // Past the interval, the address's hourly cap is next.
    for (let i = 1; i < MAX_PER_ADDRESS_HOUR; i++) {
      age("again@example.com", 61_000);
      expect((await sendCode("again@example.com", 0, nextIp())).status).toBe(200);
    }
    age("again@example.com", 61_000);
    const capped = await sendCode("again@example.com", 0, nextIp());
    expect(capped.status).toBe(429);
    expect(capped.body.message).toBe("该邮箱获取验证码次数过多，请一小时后再试");

    const shared = "203.0.113.77";
    for (let i = 0; i < MAX_PER_IP_HOUR; i++) expect((await sendCode(`ipcap-${i}@example.com`, 0, shared)).status).toBe(200);
    const ipCapped = await sendCode("ipcap-last@example.com", 0, shared);
    expect(ipCapped.status).toBe(429);
    expect(ipCapped.body.message).toBe("获取验证码次数过多，请一小时后再试");
    expect(rowsFor("ipcap-last@example.com")).toHaveLength(0);
  }, 30_000);

  test("register codes refuse a used address; find-password codes an unknown one; verify needs login", async () => {
    await userWithEmail(t, "taken-user", "Taken@Example.com");
    const taken = await sendCode("taken@example.com", 0);
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe("邮箱已被注册");
    const unknown = await sendCode("nobody@example.com", 2);
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe("该邮箱未注册");
    expect((await sendCode("taken@example.com", 2)).status).toBe(200);
    const anon = await sendCode("verify-me@example.com", 3);
    expect(anon.status).toBe(401);
    expect((await sendCode("verify-me@example.com", 3, nextIp(), t.userToken)).status).toBe(200);
    const other = await sendCode("taken@example.com", 3, nextIp(), t.userToken);
    expect(other.status).toBe(409);
    expect(other.body.message).toBe("邮箱已被其他账号使用");
    const badType = await sendCode("x@example.com", 1);
    expect(badType.status).toBe(400);
    expect(badType.body.message).toBe("验证码类型不正确");
  });

  test("probing which addresses are registered is capped per IP too", async () => {
    const from = "203.0.113.90";
    for (let i = 0; i < MAX_REQUESTS_PER_IP_HOUR; i++) expect((await sendCode(`probe-${i}@example.com`, 2, from)).status).toBe(400);
    const r = await sendCode("taken@example.com", 0, from);
    expect(r.status).toBe(429);
    expect(r.body.message).toBe("获取验证码次数过多，请一小时后再试");
  });

  test("SMTP auth rejected: 503 邮件发送失败, row failed with the server's answer", async () => {
    await configureEmail(t, sink, { password: "wrong-password" });
    try {
      const r = await sendCode("auth-fail@example.com", 0);
      expect(r.status).toBe(503);
      expect(r.body).toEqual({ code: "mail_failed", message: "邮件发送失败：SMTP 认证失败，请检查发件邮箱与密码（授权码）" });
      const [row] = rowsFor("auth-fail@example.com");
      expect(row!.status).toBe(2);
      expect(row!.error).toContain("535");
      // A failed send does not block an immediate retry once SMTP works again.
      await configureEmail(t, sink);
      expect((await sendCode("auth-fail@example.com", 0)).status).toBe(200);
    } finally {
      await configureEmail(t, sink);
    }
  });

  test("connection refused: 503 in Chinese naming the server, row failed", async () => {
    const closed = await startSmtpSink();
    const port = closed.port;
    await closed.close();
    await configureEmail(t, sink, { port });
    try {
      const r = await sendCode("refused@example.com", 0);
      expect(r.status).toBe(503);
      expect(r.body.message).toBe(`邮件发送失败：无法连接邮件服务器 127.0.0.1:${port}`);
      const [row] = rowsFor("refused@example.com");
      expect(row).toMatchObject({ status: 2 });
      expect(row!.error).toContain("ECONNREFUSED");
    } finally {
      await configureEmail(t, sink);
    }
  });

  test("TLS: implicit TLS against a plain server fails clearly; STARTTLS is used whenever offered", async () => {
    await configureEmail(t, sink, { is_tls: true });
    try {
      const r = await sendCode("tls@example.com", 0);
      expect(r.status).toBe(503);
      expect(r.body.message).toBe("邮件发送失败：TLS 加密连接失败，请检查端口与 SSL/TLS 设置");
    } finally {
      await configureEmail(t, sink);
    }
    // The STARTTLS sink's certificate is self-signed: the client upgrading and then refusing it
    // proves both that it upgraded and that certificates are verified.
    const tls = await startSmtpSink({ starttls: true });
    await configureEmail(t, tls);
    try {
      const r = await sendCode("starttls@example.com", 0);
      expect(r.status).toBe(503);
      expect(r.body.message).toBe("邮件发送失败：TLS 加密连接失败，请检查端口与 SSL/TLS 设置");
      expect(rowsFor("starttls@example.com")[0]!.error).toMatch(/certificate/i);
      expect(tls.messages).toHaveLength(0);
    } finally {
      await configureEmail(t, sink);
      await tls.close();
    }
  });

  test("switched off: 503 and nothing written", async () => {
    await configureEmail(t, sink, { enable: false });
    try {
      const r = await sendCode("off@example.com", 0);
      expect(r.status).toBe(503);
      expect(r.body.message).toBe("网站未开启邮件服务，请联系管理员");
      expect(rowsFor("off@example.com")).toHaveLength(0);
    } finally {
      await configureEmail(t, sink);
    }
  });

  test("hostile or malformed addresses are a Chinese 400 and touch nothing", async () => {
    const users = getDb().select({ n: sql<number>`count(*)` }).from(user).get()!.n;
    for (const email of BAD_EMAILS) {
      const r = await sendCode(email, 0);
      expect(r.status).toBe(400);
      expect(r.body.message).toBe("请输入正确的邮箱");
    }
    expect((await sendCode("", 0)).body.message).toBe("请输入邮箱");
    expect((await t.req("POST", "/api/v1/user/email/code", { body: { type: 0 } })).body.message).toBe("请输入邮箱");
    expect((await sendCode(`${"a".repeat(250)}@x.com`, 0)).body.message).toBe("邮箱不能超过 254 个字符");
    // A valid address containing SQL is only ever a bound parameter.
    const sqlish = await sendCode("o'brien--@example.com", 2);
    expect(sqlish.body.message).toBe("该邮箱未注册");
    expect(getDb().select({ n: sql<number>`count(*)` }).from(user).get()!.n).toBe(users);
    expect(sink.messages.some((m) => m.raw.includes("evil@x.com"))).toBe(false);
  });
});

describe("consumeEmailCode", () => {
  const fresh = async (email: string, type: 0 | 2 | 3 = 0) => {
    expect((await sendCode(email, type)).status).toBe(200);
    return codeIn((await sink.waitFor(email)).text);
  };
  const rejects = (p: Promise<unknown>, message: string) => expect(p).rejects.toMatchObject({ status: 400, message });

  test("right code once; then 验证码已使用", async () => {
    const code = await fresh("consume@example.com");
    await rejects(consumeEmailCode("consume@example.com", 0, code === "000000" ? "000001" : "000000"), "验证码错误");
    await consumeEmailCode("Consume@Example.com ", 0, code);
    await rejects(consumeEmailCode("consume@example.com", 0, code), "验证码已使用");
    expect(rowsFor("consume@example.com")[0]).toMatchObject({ attempts: 2 });
    expect(rowsFor("consume@example.com")[0]!.used_at).toBeNumber();
  });

  test("wrong type, no code, expired code", async () => {
    await rejects(consumeEmailCode("never-sent@example.com", 0, "123456"), "请先获取验证码");
    const code = await fresh("expire@example.com");
    await rejects(consumeEmailCode("expire@example.com", 2, code), "请先获取验证码");
    getDb().update(verifyCode).set({ expires_at: Date.now() - 1 }).where(eq(verifyCode.target, "expire@example.com")).run();
    await rejects(consumeEmailCode("expire@example.com", 0, code), "验证码已过期");
  });

  test("five wrong attempts burn the code, even for the right one after", async () => {
    const code = await fresh("guess@example.com");
    const wrong = code === "111111" ? "222222" : "111111";
    for (let i = 0; i < 5; i++) await rejects(consumeEmailCode("guess@example.com", 0, wrong), "验证码错误");
    await rejects(consumeEmailCode("guess@example.com", 0, code), "验证码错误次数过多，请重新获取");
    // Parallel guesses cannot exceed the cap either.
    age("guess@example.com", 61_000);
    const next = await fresh("guess@example.com");
    const racers = await Promise.allSettled(Array.from({ length: 12 }, () => consumeEmailCode("guess@example.com", 0, next === "333333" ? "444444" : "333333")));
    expect(racers.every((r) => r.status === "rejected")).toBe(true);
    expect(rowsFor("guess@example.com")[0]!.attempts).toBe(5);
  });

  test("a newer code retires the older one; a failed send does not", async () => {
    const first = await fresh("newer@example.com");
    age("newer@example.com", 61_000);
    const second = await fresh("newer@example.com");
    if (first !== second) await rejects(consumeEmailCode("newer@example.com", 0, first), "验证码错误");
    await consumeEmailCode("newer@example.com", 0, second);

    const kept = await fresh("kept@example.com");
    age("kept@example.com", 61_000);
    await configureEmail(t, sink, { password: "wrong-password" });
    try {
      expect((await sendCode("kept@example.com", 0)).status).toBe(503);
    } finally {
      await configureEmail(t, sink);
    }
    expect(rowsFor("kept@example.com").map((r) => r.status)).toEqual([2, 1]);
    await consumeEmailCode("kept@example.com", 0, kept);
  });
});

describe("POST /api/v1/email/test", () => {
  test("anonymous 401, ordinary user 403, registered as a permission", async () => {
    expect((await t.req("POST", "/api/v1/email/test", { body: { email: "a@example.com" } })).status).toBe(401);
    expect((await t.req("POST", "/api/v1/email/test", { token: t.userToken, body: { email: "a@example.com" } })).status).toBe(403);
    const p = getDb().select().from(permission).where(and(eq(permission.method, "POST"), eq(permission.path, "/api/v1/email/test"))).get();
    expect(p).toMatchObject({ category: "email", page: "/admin/config" });
  });

  test("root sends a test mail; a failure shows the server's answer to the admin", async () => {
    resetAll();
    const ok = await t.req("POST", "/api/v1/email/test", { token: t.rootToken, body: { email: "admin-box@example.com" } });
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe("测试邮件已发送，请查收");
    const mail = await sink.waitFor("admin-box@example.com");
    expect(mail.subject).toBe("【魔豆文库】测试邮件");
    expect(mail.text).toContain("邮件服务配置正确");
    await configureEmail(t, sink, { password: "nope" });
    try {
      const bad = await t.req("POST", "/api/v1/email/test", { token: t.rootToken, body: { email: "admin-box@example.com" } });
      expect(bad.status).toBe(503);
      expect(bad.body.message).toStartWith("邮件发送失败：SMTP 认证失败");
      expect(bad.body.message).toContain("535");
      const junk = await t.req("POST", "/api/v1/email/test", { token: t.rootToken, body: { email: "<script>@x" } });
      expect(junk.status).toBe(400);
      expect(junk.body.message).toBe("请输入正确的邮箱");
    } finally {
      await configureEmail(t, sink);
    }
  });

  test("the config screen shows the test panel under the form", async () => {
    const page = await t.req("GET", "/admin/config/email", { token: t.rootToken, headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-island="AdminConfigForm"');
    expect(page.text).toContain('data-island="AdminEmailTest"');
    expect(page.text).toContain("发送测试邮件");
    const other = await t.req("GET", "/admin/config/system", { token: t.rootToken, headers: { accept: "text/html" } });
    expect(other.text).not.toContain('data-island="AdminEmailTest"');
  });
});
