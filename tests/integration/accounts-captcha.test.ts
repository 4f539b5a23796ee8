// Captchas: configured type/length/size, one-time, five-minute life, purpose-bound, rate-limited,
// and required on login/register only while the matching security switch is on.
import { describe, expect, test } from "bun:test";
import sharp from "sharp";
import { STRING_ALPHABET } from "#src/features/captcha/glyphs.ts";
import { CAPTCHA_TTL_MS, captchaCount, checkCaptcha, clearCaptchas, issueCaptcha, MAX_CAPTCHAS, peekCaptchaAnswerForTests } from "#src/features/captcha/service.ts";
import { resetAll } from "#src/lib/rateLimit.ts";
import { ROOT, setupTestApp } from "../helpers/testApp.ts";
import { freshIp, register, setConfig } from "./accounts-fixtures.ts";

const t = setupTestApp();

const getCaptcha = async (type = "login", ip = freshIp()) => {
  const r = await t.req("GET", `/api/v1/user/captcha?type=${type}`, { headers: { "x-forwarded-for": ip } });
  expect(r.status).toBe(200);
  return r.body as { enable: boolean; id: string; captcha: string; type: string };
};
const pngOf = (dataUrl: string) => Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ""), "base64");
const login = (body: Record<string, unknown>) => t.req("POST", "/api/v1/user/login", { body: { username: ROOT.username, password: ROOT.password, ...body }, headers: { "x-forwarded-for": freshIp() } });

describe("GET /api/v1/user/captcha", () => {
  test("a form whose switch is off needs none: enable false, nothing stored", async () => {
    clearCaptchas();
    const r = await getCaptcha("login");
    expect(r).toEqual({ enable: false, id: "", captcha: "", type: "" });
    expect(captchaCount()).toBe(0);
  });

  test("unknown purpose: 400 in Chinese", async () => {
    const r = await t.req("GET", "/api/v1/user/captcha?type=nope");
    expect(r.status).toBe(400);
    expect(r.body.message).toBe("验证码用途不正确");
  });

  for (const [type, length] of [["digit", 4], ["string", 6], ["math", 5]] as const) {
    test(`type ${type}: a PNG image of the configured size (no source to read the answer from)`, async () => {
      await setConfig(t, "captcha", { type, length, width: 200, height: 50 });
      await setConfig(t, "security", { enable_captcha_login: true });
      const c = await getCaptcha("login");
      expect(c.enable).toBe(true);
      expect(c.type).toBe(type);
      expect(c.captcha).toStartWith("data:image/png;base64,");
      const meta = await sharp(pngOf(c.captcha)).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(["png", 200, 50]);
      const answer = peekCaptchaAnswerForTests(c.id)!;
      if (type === "digit") expect(answer).toMatch(/^\d{4}$/);
      if (type === "string") {
        expect(answer).toHaveLength(6);
        for (const ch of answer) expect(STRING_ALPHABET.toLowerCase()).toContain(ch);
      }
      if (type === "math") expect(Number(answer)).toBeGreaterThanOrEqual(0);
      // Answerable: the right answer signs in (string answers in any case).
      const r = await login({ captcha_id: c.id, captcha: type === "string" ? answer.toUpperCase() : answer });
      expect(r.status).toBe(200);
    });
  }

  test("rate limited per address: the 31st within a minute is 429", async () => {
    resetAll();
    const ip = freshIp();
    for (let i = 0; i < 30; i++) await getCaptcha("login", ip);
    const r = await t.req("GET", "/api/v1/user/captcha?type=login", { headers: { "x-forwarded-for": ip } });
    expect(r.status).toBe(429);
    expect(r.body.message).toBe("获取验证码过于频繁，请稍后再试");
  });

  test("the store is capped: the oldest challenges make room", () => {
    clearCaptchas();
    const first = issueCaptcha("login").id;
    for (let i = 0; i < MAX_CAPTCHAS + 10; i++) issueCaptcha("login");
    expect(captchaCount()).toBe(MAX_CAPTCHAS);
    expect(peekCaptchaAnswerForTests(first)).toBeUndefined();
    clearCaptchas();
  });
});

describe("captcha on login", () => {
  test("missing → 请输入验证码; wrong → 验证码错误; reused → 验证码错误", async () => {
    await setConfig(t, "captcha", { type: "digit", length: 5 });
    await setConfig(t, "security", { enable_captcha_login: true });
    expect((await login({})).body).toEqual({ code: "bad_request", message: "请输入验证码" });
    const c1 = await getCaptcha();
    expect((await login({ captcha_id: c1.id, captcha: "" })).body.message).toBe("请输入验证码");
    // An empty answer did not use it up; a wrong one does.
    const wrong = await login({ captcha_id: c1.id, captcha: "abcde" });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe("验证码错误");
    const c2 = await getCaptcha();
    const answer = peekCaptchaAnswerForTests(c2.id)!;
    expect((await login({ captcha_id: c2.id, captcha: answer })).status).toBe(200);
    const reused = await login({ captcha_id: c2.id, captcha: answer });
    expect(reused.status).toBe(400);
    expect(reused.body.message).toBe("验证码错误");
    // The first one was used up by the wrong guess even though its answer is right.
    expect((await login({ captcha_id: "0".repeat(32), captcha: "12345" })).body.message).toBe("验证码错误");
  });

  test("a wrong password still uses the captcha up", async () => {
    const c = await getCaptcha();
    const answer = peekCaptchaAnswerForTests(c.id)!;
    const r = await t.req("POST", "/api/v1/user/login", { body: { username: ROOT.username, password: "wrong-password", captcha_id: c.id, captcha: answer }, headers: { "x-forwarded-for": freshIp() } });
    expect(r.status).toBe(401);
    expect(peekCaptchaAnswerForTests(c.id)).toBeUndefined();
  });

  test("expired after five minutes: 400", () => {
    const c = issueCaptcha("login");
    const answer = peekCaptchaAnswerForTests(c.id)!;
    expect(() => checkCaptcha(c.id, answer, "login", Date.now() + CAPTCHA_TTL_MS + 1)).toThrow("验证码已过期，请刷新后重试");
    // and gone afterwards
    expect(() => checkCaptcha(c.id, answer, "login")).toThrow("验证码错误");
  });

  test("a captcha issued for another form does not count", async () => {
    await setConfig(t, "security", { enable_captcha_register: true });
    const c = await getCaptcha("register");
    const r = await login({ captcha_id: c.id, captcha: peekCaptchaAnswerForTests(c.id)! });
    expect(r.body.message).toBe("验证码错误");
  });

  test("switched off again: no captcha needed", async () => {
    await setConfig(t, "security", { enable_captcha_login: false });
    expect((await login({})).status).toBe(200);
  });
});

describe("captcha on register", () => {
  test("required while security.enable_captcha_register is on", async () => {
    await setConfig(t, "security", { enable_captcha_register: true });
    expect((await register(t, { username: "cap_user", password: "secret-123" })).body.message).toBe("请输入验证码");
    const bad = await getCaptcha("register");
    expect((await register(t, { username: "cap_user", password: "secret-123", captcha_id: bad.id, captcha: "zzzzz" })).body.message).toBe("验证码错误");
    const c = await getCaptcha("register");
    const ok = await register(t, { username: "cap_user", password: "secret-123", captcha_id: c.id, captcha: peekCaptchaAnswerForTests(c.id) });
    expect(ok.status).toBe(200);
    await setConfig(t, "security", { enable_captcha_register: false });
  });
});
