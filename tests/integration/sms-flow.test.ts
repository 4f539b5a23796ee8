// Mobile register / login / find password with codes delivered through the Aliyun stand-in; every bad
// input and limit answers a Chinese message with the right status and leaves nothing half-written.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { and, desc, eq, sql } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { verifyCode } from "#db/schema/accounts.ts";
import { user } from "#db/schema/users.ts";
import { updateConfig } from "#src/features/settings/service.ts";
import { startOfShanghaiDay } from "#src/features/sms/codes.ts";
import { issueCaptcha, peekCaptchaAnswerForTests } from "#src/features/captcha/service.ts";
import { resetAll } from "#src/lib/rateLimit.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { smsConfigFor, startSmsStandIn, type StandIn } from "../helpers/smsStandIn.ts";

const t = setupTestApp();
let standIn: StandIn;
let n = 0;
/** A fresh valid number and IP per call, so limits of one test never leak into another. */
const fresh = () => ({ mobile: `137${String(10_000_000 + ++n * 7919).slice(-8)}`, ip: `198.51.100.${n % 250}` });

beforeAll(() => {
  standIn = startSmsStandIn();
  updateConfig([...smsConfigFor("aliyun", standIn), { category: "security", name: "enable_register_mobile", value: true }]);
});
afterAll(() => standIn?.stop());
beforeEach(() => resetAll());

const post = (path: string, body: unknown, ip = "192.0.2.1", token?: string) => t.req("POST", path, { body, token, headers: { "x-forwarded-for": ip } });
const sendCode = async (mobile: string, type: number, ip = "192.0.2.1") => {
  const r = await post("/api/v1/sms", { mobile, type }, ip);
  return { r, code: standIn.lastCode(mobile) };
};
const rowsOf = (mobile: string) => getDb().select().from(verifyCode).where(eq(verifyCode.target, mobile)).orderBy(desc(verifyCode.id)).all();
/** Moves a number's send history back in time (past the resend interval). */
const age = (mobile: string, ms: number) => getDb().update(verifyCode).set({ created_at: sql`${verifyCode.created_at} - ${ms}` }).where(eq(verifyCode.target, mobile)).run();
const userByMobile = (mobile: string) => getDb().select().from(user).where(eq(user.mobile, mobile)).get();

async function registered(password = "mobile-pass-1") {
  const { mobile, ip } = fresh();
  const { code } = await sendCode(mobile, 0, ip);
  const r = await post("/api/v1/user/register/mobile", { mobile, code, password }, ip);
  expect(r.status).toBe(200);
  age(mobile, 120_000);
  return { mobile, ip, body: r.body, password };
}

describe("register by mobile", () => {
  test("send → register with the code → logged in, code used", async () => {
    const { mobile, ip } = fresh();
    const { r, code } = await sendCode(mobile, 0, ip);
    expect(r.status).toBe(200);
    expect(code).toMatch(/^\d{6}$/);
    const reg = await post("/api/v1/user/register/mobile", { mobile, code, password: "secret-123" }, ip);
    expect(reg.status).toBe(200);
    expect(reg.body.token).toBeString();
    expect(reg.body.user).toMatchObject({ mobile, username: `user${mobile.slice(-4)}` });
    expect(reg.res.headers.get("set-cookie")).toContain("HttpOnly");
    const me = await t.req("GET", "/api/v1/user", { token: reg.body.token });
    expect(me.status).toBe(200);
    expect(me.body.user.mobile).toBe(mobile);
    expect(rowsOf(mobile)[0]!.used_at).toBeNumber();
    // The password chosen at registration works for password login too.
    const login = await post("/api/v1/user/login", { username: reg.body.user.username, password: "secret-123" }, ip);
    expect(login.status).toBe(200);
  });

  test("a chosen username is kept; a taken one is a 409 and the code stays usable", async () => {
    const { mobile, ip } = fresh();
    const { code } = await sendCode(mobile, 0, ip);
    const taken = await post("/api/v1/user/register/mobile", { mobile, code, password: "secret-123", username: "member" }, ip);
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe("用户名已被占用");
    expect(userByMobile(mobile)).toBeUndefined();
    const ok = await post("/api/v1/user/register/mobile", { mobile, code, password: "secret-123", username: "手机用户_1" }, ip);
    expect(ok.status).toBe(200);
    expect(ok.body.user.username).toBe("手机用户_1");
  });

  test("a registered number gets no register code; registration switches are honoured", async () => {
    const { mobile } = await registered();
    const again = await sendCode(mobile, 0);
    expect(again.r.status).toBe(409);
    expect(again.r.body.message).toBe("该手机号已注册，请直接登录");
    updateConfig([{ category: "security", name: "enable_register_mobile", value: false }]);
    const off = await post("/api/v1/sms", { mobile: fresh().mobile, type: 0 });
    expect(off.status).toBe(403);
    expect(off.body.message).toBe("网站未开放手机号注册与登录");
    updateConfig([{ category: "security", name: "enable_register_mobile", value: true }, { category: "security", name: "enable_register", value: false }]);
    const closed = await post("/api/v1/user/register/mobile", { mobile: fresh().mobile, code: "123456", password: "secret-123" });
    expect(closed.status).toBe(403);
    expect(closed.body.message).toBe("网站已关闭注册");
    updateConfig([{ category: "security", name: "enable_register", value: true }, { category: "sms", name: "enable", value: false }]);
    const smsOff = await post("/api/v1/sms", { mobile: fresh().mobile, type: 0 });
    expect(smsOff.status).toBe(403);
    expect(smsOff.body.message).toBe("网站未开启短信验证码功能");
    updateConfig([{ category: "sms", name: "enable", value: true }]);
  });
});

describe("codes: wrong, expired, reused, too many attempts", () => {
  test("wrong code counts an attempt; after five the right code is refused too", async () => {
    const { mobile, ip } = await registered();
    const { code } = await sendCode(mobile, 1, ip);
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 1; i <= 5; i++) {
      const r = await post("/api/v1/user/login/mobile", { mobile, code: wrong }, ip);
      expect(r.status).toBe(400);
      expect(r.body.message).toBe("验证码错误");
      expect(rowsOf(mobile)[0]!.attempts).toBe(i);
    }
    const right = await post("/api/v1/user/login/mobile", { mobile, code }, ip);
    expect(right.status).toBe(429);
    expect(right.body.message).toBe("验证码错误次数过多，请重新获取");
    expect(rowsOf(mobile)[0]!.used_at).toBeNull();
  });

  test("expired code", async () => {
    const { mobile, ip } = await registered();
    const { code } = await sendCode(mobile, 1, ip);
    getDb().update(verifyCode).set({ expires_at: Date.now() - 1 }).where(eq(verifyCode.id, rowsOf(mobile)[0]!.id)).run();
    const r = await post("/api/v1/user/login/mobile", { mobile, code }, ip);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe("验证码已过期");
  });

  test("a code works once: the second login with it is refused", async () => {
    const { mobile, ip } = await registered();
    const { code } = await sendCode(mobile, 1, ip);
    const first = await post("/api/v1/user/login/mobile", { mobile, code }, ip);
    expect(first.status).toBe(200);
    expect(first.body.user.mobile).toBe(mobile);
    const second = await post("/api/v1/user/login/mobile", { mobile, code }, ip);
    expect(second.status).toBe(400);
    expect(second.body.message).toBe("验证码已使用");
  });

  test("a code is bound to its purpose: a register code does not log in", async () => {
    const { mobile, ip } = fresh();
    const { code } = await sendCode(mobile, 0, ip);
    const r = await post("/api/v1/user/login/mobile", { mobile, code }, ip);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe("验证码错误");
    expect(rowsOf(mobile)[0]!.used_at).toBeNull();
  });

  test("login code for an unknown number is refused before anything is sent", async () => {
    const { mobile, ip } = fresh();
    const before = standIn.requests.length;
    const r = await post("/api/v1/sms", { mobile, type: 1 }, ip);
    expect(r.status).toBe(404);
    expect(r.body.message).toBe("该手机号未注册");
    expect(standIn.requests.length).toBe(before);
  });

  test("a disabled account cannot log in by code", async () => {
    const { mobile, ip } = await registered();
    const { code } = await sendCode(mobile, 1, ip);
    getDb().update(user).set({ status: 1 }).where(eq(user.mobile, mobile)).run();
    const r = await post("/api/v1/user/login/mobile", { mobile, code }, ip);
    expect(r.status).toBe(403);
    expect(r.body.message).toBe("账号已被禁用");
  });
});

describe("find password by mobile", () => {
  test("new password set, old sessions revoked, new password logs in", async () => {
    const { mobile, ip, body, password } = await registered();
    const { code } = await sendCode(mobile, 2, ip);
    const r = await post("/api/v1/user/findpassword/mobile", { mobile, code, password: "brand-new-pass" }, ip);
    expect(r.status).toBe(200);
    expect(r.body.message).toBe("密码重置成功，请使用新密码登录");
    expect((await t.req("GET", "/api/v1/user", { token: body.token })).status).toBe(401);
    const oldPw = await post("/api/v1/user/login", { username: body.user.username, password }, ip);
    expect(oldPw.status).toBe(401);
    const newPw = await post("/api/v1/user/login", { username: body.user.username, password: "brand-new-pass" }, ip);
    expect(newPw.status).toBe(200);
  });

  test("with the find-password captcha on, the code request needs a right captcha", async () => {
    const { mobile, ip } = await registered();
    updateConfig([{ category: "security", name: "enable_captcha_find_password", value: true }]);
    const before = standIn.requests.length;
    const none = await post("/api/v1/sms", { mobile, type: 2 }, ip);
    expect(none.status).toBe(400);
    expect(none.body.message).toBe("请输入验证码");
    const wrong = issueCaptcha("find_password");
    expect((await post("/api/v1/sms", { mobile, type: 2, captcha_id: wrong.id, captcha: "zzzz" }, ip)).body.message).toBe("验证码错误");
    expect(standIn.requests.length).toBe(before);
    const right = issueCaptcha("find_password");
    const ok = await post("/api/v1/sms", { mobile, type: 2, captcha_id: right.id, captcha: peekCaptchaAnswerForTests(right.id) }, ip);
    expect(ok.status).toBe(200);
    updateConfig([{ category: "security", name: "enable_captcha_find_password", value: false }]);
  });

  test("short new password: 400 and the code is still unused", async () => {
    const { mobile, ip } = await registered();
    const { code } = await sendCode(mobile, 2, ip);
    const r = await post("/api/v1/user/findpassword/mobile", { mobile, code, password: "123" }, ip);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe("新密码至少 6 位");
    expect(rowsOf(mobile)[0]!.used_at).toBeNull();
  });

  test("a common password is refused and the code stays unused for another try", async () => {
    const { mobile, ip } = await registered();
    const { code } = await sendCode(mobile, 2, ip);
    const r = await post("/api/v1/user/findpassword/mobile", { mobile, code, password: "12345678" }, ip);
    expect(r.status).toBe(400);
    expect(r.body.message).toContain("密码过于常见");
    expect(rowsOf(mobile)[0]!.used_at).toBeNull();
    expect((await post("/api/v1/user/findpassword/mobile", { mobile, code, password: "brand-new-pass" }, ip)).status).toBe(200);
  });
});

describe("sending limits", () => {
  test("resend within the interval → 429 with the seconds left", async () => {
    const { mobile, ip } = fresh();
    expect((await sendCode(mobile, 0, ip)).r.status).toBe(200);
    const again = await sendCode(mobile, 0, ip);
    expect(again.r.status).toBe(429);
    expect(again.r.body.message).toMatch(/^发送过于频繁，请 (59|60) 秒后再试$/);
    expect(rowsOf(mobile)).toHaveLength(1);
  });

  const insertSent = (mobile: string, ip: string, at: number, count: number) => {
    for (let i = 0; i < count; i++) {
      getDb().insert(verifyCode).values({ channel: "mobile", target: mobile, type: 0, code_hash: "x".repeat(64), status: 1, ip, expires_at: at + 300_000, created_at: at, updated_at: at }).run();
    }
  };

  test("hourly cap per number", async () => {
    const { mobile, ip } = fresh();
    insertSent(mobile, ip, Date.now() - 10 * 60_000, 5);
    const r = await sendCode(mobile, 0, ip);
    expect(r.r.status).toBe(429);
    expect(r.r.body.message).toBe("该手机号 1 小时内最多获取 5 次验证码，请稍后再试");
  });

  test("daily cap per number (Asia/Shanghai day)", async () => {
    updateConfig([{ category: "sms", name: "mobile_hourly_limit", value: 1000 }]);
    const { mobile, ip } = fresh();
    const now = Date.now();
    insertSent(mobile, ip, Math.max(startOfShanghaiDay(now), now - 2 * 3_600_000), 10);
    const r = await sendCode(mobile, 0, ip);
    expect(r.r.status).toBe(429);
    expect(r.r.body.message).toBe("该手机号今日获取验证码次数已达上限（10 次），请明天再试");
    updateConfig([{ category: "sms", name: "mobile_hourly_limit", value: 5 }]);
  });

  test("daily cap per IP across numbers", async () => {
    const ip = "203.0.113.200";
    for (let i = 0; i < 20; i++) insertSent(fresh().mobile, ip, Date.now() - 5 * 60_000, 1);
    const r = await sendCode(fresh().mobile, 0, ip);
    expect(r.r.status).toBe(429);
    expect(r.r.body.message).toBe("当前网络今日获取验证码次数已达上限，请明天再试");
  });
});

describe("guessing", () => {
  test("code attempts are rate-limited per IP across numbers and per number", async () => {
    const ip = "203.0.113.99";
    for (let i = 0; i < 30; i++) expect((await post("/api/v1/user/login/mobile", { mobile: fresh().mobile, code: "123456" }, ip)).status).toBe(400);
    const blocked = await post("/api/v1/user/login/mobile", { mobile: fresh().mobile, code: "123456" }, ip);
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toBe("操作过于频繁，请 15 分钟后再试");
    const { mobile } = fresh();
    for (let i = 0; i < 10; i++) await post("/api/v1/user/findpassword/mobile", { mobile, code: "123456", password: "secret-123" }, `203.0.113.${100 + i}`);
    expect((await post("/api/v1/user/findpassword/mobile", { mobile, code: "123456", password: "secret-123" }, "203.0.113.120")).status).toBe(429);
  });
});

describe("bad input", () => {
  const BAD_MOBILES = ["12812345678", "1381234567", "138123456789", "23812345678", "+8613812345678", "1381234567a", " 1 3812345678", "13812345678' OR '1'='1", "<script>alert(1)</script>"];

  test.each(BAD_MOBILES)("mobile %p → 400 in Chinese on every endpoint", async (mobile) => {
    for (const [path, extra] of [["/api/v1/sms", { type: 0 }], ["/api/v1/user/register/mobile", { code: "123456", password: "secret-123" }], ["/api/v1/user/login/mobile", { code: "123456" }], ["/api/v1/user/findpassword/mobile", { code: "123456", password: "secret-123" }]] as const) {
      const r = await post(path, { mobile, ...extra });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe("请输入正确的手机号码");
    }
  });

  test("missing fields and a wrong type", async () => {
    expect((await post("/api/v1/sms", { type: 0 })).body.message).toBe("请输入手机号码");
    expect((await post("/api/v1/sms", { mobile: "13800138000", type: 3 })).body.message).toBe("短信类型不正确");
    expect((await post("/api/v1/user/login/mobile", { mobile: "13800138000" })).body.message).toBe("请输入短信验证码");
    const script = await post("/api/v1/user/login/mobile", { mobile: "13800138000", code: "<script>" });
    expect(script.status).toBe(400);
    expect(script.body.message).toBe("验证码错误");
  });

  test("injection in the username is refused; in the password it is only text", async () => {
    const { mobile, ip } = fresh();
    const { code } = await sendCode(mobile, 0, ip);
    for (const username of ["<script>alert(1)</script>", "robert'); DROP TABLE user;--"]) {
      const r = await post("/api/v1/user/register/mobile", { mobile, code, password: "secret-123", username }, ip);
      expect(r.status).toBe(400);
      expect(r.body.message).toBe("用户名只能包含中文、字母、数字、下划线和减号");
    }
    const password = "' OR 1=1; DROP TABLE user; -- <script>";
    const ok = await post("/api/v1/user/register/mobile", { mobile, code, password }, ip);
    expect(ok.status).toBe(200);
    expect((await post("/api/v1/user/login", { username: ok.body.user.username, password }, ip)).status).toBe(200);
    expect(getDb().select({ n: sql<number>`count(*)` }).from(user).get()!.n).toBeGreaterThan(2);
  });
});

describe("admin list of sent codes", () => {
  test("root sees rows (never the code), filters work; others are refused", async () => {
    const { mobile } = await registered();
    const list = await t.req("GET", `/api/v1/sms/list?keyword=${mobile}&type=0&status=1`, { token: t.rootToken });
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(1);
    expect(list.body.sms[0]).toMatchObject({ mobile, type: 0, status: 1, provider: "smsAliyun", error: "" });
    expect(JSON.stringify(list.body)).not.toMatch(/code_hash|"code"/);
    const none = await t.req("GET", `/api/v1/sms/list?keyword=${encodeURIComponent("%' OR 1=1 --")}`, { token: t.rootToken });
    expect(none.body).toEqual({ total: 0, sms: [] });
    expect((await t.req("GET", "/api/v1/sms/list?status=9", { token: t.rootToken })).body.message).toBe("发送状态不正确");
    expect((await t.req("GET", "/api/v1/sms/list")).status).toBe(401);
    expect((await t.req("GET", "/api/v1/sms/list", { token: t.userToken })).status).toBe(403);
    expect((await t.req("DELETE", `/api/v1/sms?id=${list.body.sms[0].id}`, { token: t.userToken })).status).toBe(403);
    const del = await t.req("DELETE", `/api/v1/sms?id=${list.body.sms[0].id}`, { token: t.rootToken });
    expect(del.body).toEqual({ message: "删除成功", deleted: 1 });
    expect(getDb().select().from(verifyCode).where(and(eq(verifyCode.target, mobile))).all()).toHaveLength(0);
  });

  test("the admin screen and the public page render", async () => {
    const admin = await t.req("GET", "/admin/user/sms", { token: t.rootToken, headers: { accept: "text/html" } });
    expect(admin.status).toBe(200);
    expect(admin.text).toContain("短信记录");
    expect(admin.text).toContain('data-island="AdminTable"');
    expect(admin.text).not.toContain("code_hash");
    const page = await t.req("GET", "/findpassword-mobile", { headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-island="MobileCodeForm"');
    expect(page.text).toContain("获取验证码");
    updateConfig([{ category: "sms", name: "enable", value: false }]);
    const off = await t.req("GET", "/findpassword-mobile", { headers: { accept: "text/html" } });
    expect(off.status).toBe(302);
    expect(off.res.headers.get("location")).toBe("/findpassword");
    updateConfig([{ category: "sms", name: "enable", value: true }]);
  });
});
