// Find password by e-mail (spec §7): step one mails a single-use link through a real loopback SMTP
// server, step two sets the password, uses up the token and ends every session of the user.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { passwordReset } from "#db/schema/accounts.ts";
import { user } from "#db/schema/users.ts";
import { issueCaptcha, peekCaptchaAnswerForTests } from "#src/features/captcha/service.ts";
import { STEP_ONE_PER_IP_HOUR } from "#src/features/email/reset.ts";
import { resetAll } from "#src/lib/rateLimit.ts";
import { startSmtpSink, type SmtpSink } from "../helpers/smtpSink.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { BAD_EMAILS, configureEmail, userWithEmail } from "./email-fixtures.ts";

const t = setupTestApp();
let sink: SmtpSink;
const ip = { "x-forwarded-for": "192.0.2.50" };
const stepOne = (email: string, headers: Record<string, string> = ip) => t.req("POST", "/api/v1/user/findpassword/stepone", { body: { email }, headers });
const stepTwo = (body: Record<string, unknown>) => t.req("PUT", "/api/v1/user/findpassword/steptwo", { body, headers: ip });
const login = (username: string, password: string) => t.req("POST", "/api/v1/user/login", { body: { username, password }, headers: ip });
const sha256 = (s: string) => new Bun.CryptoHasher("sha256").update(s).digest("hex");

/** Runs step one for the address and reads token and email back from the link in the mail. */
async function mailedLink(email: string) {
  resetAll();
  const r = await stepOne(email);
  expect(r.status).toBe(200);
  expect(r.body.message).toBe("已发送，请查收邮件");
  const mail = await sink.waitFor(email);
  const href = /(http:\/\/[^\s"<]+\/findpassword\?[^\s"<]+)/.exec(mail.text)?.[1];
  expect(href).toBeString();
  const url = new URL(href!);
  return { mail, url, token: url.searchParams.get("token")!, email: url.searchParams.get("email")! };
}

beforeAll(async () => {
  sink = await startSmtpSink();
  await configureEmail(t, sink);
});
afterAll(() => sink?.close());

describe("find password by e-mail", () => {
  test("step one mails a link; the token is stored only as its hash", async () => {
    const u = await userWithEmail(t, "reader-one", "Reader.One@Example.com");
    const { mail, url, token, email } = await mailedLink("reader.one@example.com");
    expect(mail.subject).toBe("【魔豆文库】找回密码");
    expect(mail.html).toContain("重置密码");
    expect(mail.html).toContain(url.href.replace(/&/g, "&#38;"));
    expect(url.pathname).toBe("/findpassword");
    expect(email).toBe("Reader.One@Example.com");
    expect(token).toMatch(/^[\w-]{43}$/);
    const rows = getDb().select().from(passwordReset).where(eq(passwordReset.user_id, u.id)).all();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).toBe(sha256(token));
    expect(rows[0]!.expires_at).toBeGreaterThan(Date.now() + 9 * 60_000);
    expect(rows[0]!.expires_at).toBeLessThanOrEqual(Date.now() + 10 * 60_000);
  });

  test("the link opens step two on /findpassword; without it the page asks for the address", async () => {
    await userWithEmail(t, "reader-page", "page@example.com");
    const { url } = await mailedLink("page@example.com");
    const two = await t.req("GET", url.pathname + url.search, { headers: { accept: "text/html" } });
    expect(two.status).toBe(200);
    expect(two.text).toContain('data-island="FindPasswordForm"');
    expect(two.text).toContain("确认密码");
    expect(two.text).toContain("site-main");
    expect(two.res.headers.get("x-cache")).toBeNull();
    const one = await t.req("GET", "/findpassword", { headers: { accept: "text/html" } });
    expect(one.text).toContain("发送重置邮件");
    expect(one.text).not.toContain("确认密码");
    expect(one.text).toContain('href="/login"');
  });

  test("step two sets the password, uses the token up and ends every session", async () => {
    const u = await userWithEmail(t, "reader-two", "two@example.com", "old-password-2");
    const other = (await login("reader-two", "old-password-2")).body.token;
    expect((await t.req("GET", "/api/v1/user", { token: u.token })).status).toBe(200);
    const { token, email } = await mailedLink("two@example.com");
    const r = await stepTwo({ email, token, password: "new-password-2" });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe("密码重置成功");
    for (const s of [u.token, other]) expect((await t.req("GET", "/api/v1/user", { token: s })).status).toBe(401);
    resetAll();
    expect((await login("reader-two", "old-password-2")).status).toBe(401);
    expect((await login("reader-two", "new-password-2")).status).toBe(200);
    expect(getDb().select().from(passwordReset).where(eq(passwordReset.user_id, u.id)).get()!.used_at).toBeNumber();

    const again = await stepTwo({ email, token, password: "third-password" });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe("重置链接已使用，请重新找回密码");
    resetAll();
    expect((await login("reader-two", "new-password-2")).status).toBe(200);
  });

  test("step two refuses a common password or the username, and the link stays usable", async () => {
    await userWithEmail(t, "reader-weak", "weak@example.com", "old-password-3");
    const { token, email } = await mailedLink("weak@example.com");
    const common = await stepTwo({ email, token, password: "password" });
    expect(common.status).toBe(400);
    expect(common.body.message).toContain("密码过于常见");
    const same = await stepTwo({ email, token, password: "reader-weak" });
    expect(same.body.message).toBe("密码不能与用户名相同");
    expect((await stepTwo({ email, token, password: "a-better-password" })).status).toBe(200);
  });

  test("wrong, foreign, expired and superseded links are a Chinese 400 and change nothing", async () => {
    const u = await userWithEmail(t, "reader-three", "three@example.com", "keep-password-3");
    await userWithEmail(t, "reader-four", "four@example.com");
    const before = getDb().select({ password: user.password }).from(user).where(eq(user.id, u.id)).get()!.password;
    const first = await mailedLink("three@example.com");
    const { token, email } = await mailedLink("three@example.com");
    // Only the newest link works.
    expect((await stepTwo({ email, token: first.token, password: "x-password-1" })).body.message).toBe("重置链接无效，请重新找回密码");
    expect((await stepTwo({ email, token: "A".repeat(43), password: "x-password-1" })).body.message).toBe("重置链接无效，请重新找回密码");
    expect((await stepTwo({ email: "four@example.com", token, password: "x-password-1" })).body.message).toBe("重置链接无效，请重新找回密码");
    const short = await stepTwo({ email, token, password: "12345" });
    expect(short.status).toBe(400);
    expect(short.body.message).toBe("新密码至少 6 位");
    expect((await stepTwo({ email, password: "x-password-1" })).body.message).toBe("重置链接无效，请重新找回密码");
    getDb().update(passwordReset).set({ expires_at: Date.now() - 1 }).where(eq(passwordReset.user_id, u.id)).run();
    const expired = await stepTwo({ email, token, password: "x-password-1" });
    expect(expired.status).toBe(400);
    expect(expired.body.message).toBe("重置链接已过期，请重新找回密码");
    expect(getDb().select({ password: user.password }).from(user).where(eq(user.id, u.id)).get()!.password).toBe(before);
  });

  test("two parallel uses of one link: exactly one wins", async () => {
    await userWithEmail(t, "reader-race", "race@example.com");
    const { token, email } = await mailedLink("race@example.com");
    const [a, b] = await Promise.all([stepTwo({ email, token, password: "race-password-a" }), stepTwo({ email, token, password: "race-password-b" })]);
    expect([a.status, b.status].sort()).toEqual([200, 400]);
  });

  test("unknown address, disabled account, mail switched off", async () => {
    resetAll();
    const unknown = await stepOne("ghost@example.com");
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe("该邮箱未注册");
    const banned = await userWithEmail(t, "reader-banned", "banned@example.com");
    getDb().update(user).set({ status: 1 }).where(eq(user.id, banned.id)).run();
    const b = await stepOne("banned@example.com");
    expect(b.status).toBe(403);
    expect(b.body.message).toBe("账号已被禁用，无法找回密码");
    await configureEmail(t, sink, { enable: false });
    try {
      resetAll();
      const off = await stepOne("two@example.com");
      expect(off.status).toBe(503);
      expect(off.body.message).toBe("网站未开启邮件服务，请联系管理员");
    } finally {
      await configureEmail(t, sink);
    }
  });

  test("a failed send leaves no token behind", async () => {
    const u = await userWithEmail(t, "reader-fail", "fail@example.com");
    await configureEmail(t, sink, { password: "wrong" });
    try {
      resetAll();
      const r = await stepOne("fail@example.com");
      expect(r.status).toBe(503);
      expect(r.body.message).toStartWith("邮件发送失败：");
      expect(getDb().select().from(passwordReset).where(eq(passwordReset.user_id, u.id)).all()).toHaveLength(0);
    } finally {
      await configureEmail(t, sink);
    }
  });

  test("rate limits per address and per IP answer 429 in Chinese", async () => {
    await userWithEmail(t, "reader-limit", "limit@example.com");
    await mailedLink("limit@example.com");
    const again = await stepOne("limit@example.com", { "x-forwarded-for": "192.0.2.51" });
    expect(again.status).toBe(429);
    expect(again.body.message).toBe("邮件发送过于频繁，请 1 分钟后再试");
    resetAll();
    const from = { "x-forwarded-for": "192.0.2.52" };
    for (let i = 0; i < STEP_ONE_PER_IP_HOUR; i++) expect((await stepOne(`probe-${i}@example.com`, from)).status).toBe(400);
    const capped = await stepOne("limit@example.com", from);
    expect(capped.status).toBe(429);
    expect(capped.body.message).toBe("找回密码操作过于频繁，请一小时后再试");
  });

  test("hostile addresses are a Chinese 400 at both steps", async () => {
    resetAll();
    for (const email of BAD_EMAILS) {
      const one = await stepOne(email);
      expect(one.status).toBe(400);
      expect(one.body.message).toBe("请输入正确的邮箱");
      const two = await stepTwo({ email, token: "x".repeat(43), password: "whatever-1" });
      expect(two.status).toBe(400);
      expect(two.body.message).toBe("请输入正确的邮箱");
    }
    const page = await t.req("GET", `/findpassword?token=abc&email=${encodeURIComponent("<script>alert(1)</script>")}`, { headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(page.text).not.toContain("<script>alert(1)");
    expect(page.text).toContain("发送重置邮件");
  });

  test("step one needs a captcha when security.enable_captcha_find_password is on", async () => {
    const set = (value: boolean) => t.req("PUT", "/api/v1/config", { token: t.rootToken, body: { config: [{ category: "security", name: "enable_captcha_find_password", value }] } });
    await userWithEmail(t, "reader-captcha", "captcha@example.com");
    await set(true);
    try {
      resetAll();
      const page = await t.req("GET", "/findpassword", { headers: { accept: "text/html" } });
      expect(page.text).toContain("&quot;captcha&quot;:true");
      const none = await stepOne("captcha@example.com");
      expect(none.status).toBe(400);
      expect(none.body.message).toBe("请输入验证码");
      const issue = () => issueCaptcha("find_password").id;
      const wrongId = issue();
      const send = (captcha_id: string, captcha: string) =>
        t.req("POST", "/api/v1/user/findpassword/stepone", { body: { email: "captcha@example.com", captcha_id, captcha }, headers: ip });
      const wrong = await send(wrongId, "nope");
      expect(wrong.status).toBe(400);
      expect(wrong.body.message).toBe("验证码错误");
      const id = issue();
      const ok = await send(id, peekCaptchaAnswerForTests(id)!);
      expect(ok.status).toBe(200);
      expect((await sink.waitFor("captcha@example.com")).subject).toBe("【魔豆文库】找回密码");
    } finally {
      await set(false);
    }
  });

  test("reachable while the site requires login", async () => {
    const set = (value: boolean) => t.req("PUT", "/api/v1/config", { token: t.rootToken, body: { config: [{ category: "security", name: "login_required", value }] } });
    await set(true);
    try {
      expect((await t.req("GET", "/findpassword", { headers: { accept: "text/html" } })).status).toBe(200);
      resetAll();
      expect((await stepOne("ghost@example.com")).status).toBe(400);
    } finally {
      await set(false);
    }
  });
});
