// Account actions unlocked by an SMS code (spec §7: register/login/find password by mobile), the send
// preconditions per code type, and the admin list of sent messages.
import { and, count, desc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { createdBetween } from "#src/features/admin/crud/service.ts";
import { getDb } from "#db/client.ts";
import { verifyCode } from "#db/schema/accounts.ts";
import { user } from "#db/schema/users.ts";
import { assertRegisterOpen, createAccount, uniqueUsername } from "#src/features/auth/accounts.ts";
import { assertPasswordAcceptable, hashPassword } from "#src/features/auth/passwords.ts";
import { revokeUserSessions } from "#src/features/auth/sessions.ts";
import { assertCaptcha } from "#src/features/captcha/service.ts";
import { setting } from "#src/features/settings/service.ts";
import { badRequest, conflict, forbidden, notFound, tooManyRequests } from "#src/lib/errors.ts";
import { isMobile } from "#src/lib/format.ts";
import { hit } from "#src/lib/rateLimit.ts";
import { CHANNEL, checkCode, consumeCode, issueCode, smsConfig } from "./codes.ts";
import type { SmsType } from "./providers/types.ts";
import { assertCanSignIn } from "#src/features/auth/service.ts";

export const SMS_TYPES = [{ value: 0, label: "注册" }, { value: 1, label: "登录" }, { value: 2, label: "找回密码" }];
export const SMS_STATUSES = [{ value: 0, label: "发送中" }, { value: 1, label: "已发送" }, { value: 2, label: "发送失败" }];

export const smsEnabled = () => !!smsConfig().enable;
/** Mobile register and login need the SMS service and the security switch; login/register pages can ask this. */
export const mobileAuthEnabled = () => smsEnabled() && !!setting<boolean>("security", "enable_register_mobile");

const findByMobile = (mobile: string) => getDb().select().from(user).where(eq(user.mobile, mobile)).get();

function assertSmsOn() {
  if (!smsEnabled()) throw forbidden("网站未开启短信验证码功能");
}
function assertMobileAuth() {
  assertSmsOn();
  if (!setting<boolean>("security", "enable_register_mobile")) throw forbidden("网站未开放手机号注册与登录");
}
function assertMobile(mobile: string) {
  if (!isMobile(mobile)) throw badRequest("请输入正确的手机号码");
}

// Per IP and per number, on top of the code's own five attempts: guessing stays hopeless. An unknown
// IP ("") gets no IP bucket: one shared bucket would let a single client lock everybody out.
const ACTION_WINDOW_MS = 15 * 60_000;
const ipHit = (key: string, ip: string, limit: number) => !ip || hit(`${key}:ip:${ip}`, limit, ACTION_WINDOW_MS);
function limitAction(action: string, ip: string, mobile: string) {
  if (!ipHit(`sms:${action}`, ip, 30) || !hit(`sms:${action}:mobile:${mobile}`, 10, ACTION_WINDOW_MS)) {
    throw tooManyRequests("操作过于频繁，请 15 分钟后再试");
  }
}

const CAPTCHA_PURPOSE = { 0: "register", 1: "login", 2: "find_password" } as const;

/**
 * Sends a code after the checks of its purpose: the image captcha when the site asks for one (MOREDOC
 * sends it with the code request), then a free number for registering, a known one otherwise.
 */
export async function sendCode(mobile: string, type: SmsType, ip: string, captcha: { id?: string; answer?: string } = {}) {
  assertSmsOn();
  assertMobile(mobile);
  if (!ipHit("sms:send", ip, 30)) throw tooManyRequests("操作过于频繁，请 15 分钟后再试");
  assertCaptcha(CAPTCHA_PURPOSE[type], captcha.id, captcha.answer);
  if (type === 0) {
    assertRegisterOpen();
    assertMobileAuth();
    if (findByMobile(mobile)) throw conflict("该手机号已注册，请直接登录");
  } else {
    if (type === 1) assertMobileAuth();
    if (!findByMobile(mobile)) throw notFound("该手机号未注册");
  }
  return issueCode(mobile, type, ip);
}

export interface RegisterInput { mobile: string; code: string; password: string; username?: string }

/**
 * Registers with a mobile code. createAccount hashes the password before its own transaction, so the
 * code is consumed right after it; the unique mobile index means no second account can reuse it.
 */
export async function registerByMobile<S>(input: RegisterInput, ip: string, start: (userId: number) => S) {
  assertRegisterOpen();
  assertMobileAuth();
  assertMobile(input.mobile);
  limitAction("register", ip, input.mobile);
  const codeId = checkCode(input.mobile, 0, input.code);
  if (findByMobile(input.mobile)) throw conflict("手机号已被占用");
  const username = input.username || uniqueUsername(`user${input.mobile.slice(-4)}`);
  const u = await createAccount({ username, password: input.password, mobile: input.mobile, ip });
  return getDb().transaction((tx) => {
    consumeCode(codeId, tx);
    return { user: u, session: start(u.id) };
  });
}

/** Signs in with a mobile code; the code is used and the session begins in one transaction. */
export function loginByMobile<S>(mobile: string, code: string, ip: string, start: (userId: number) => S) {
  assertMobileAuth();
  assertMobile(mobile);
  limitAction("login", ip, mobile);
  const codeId = checkCode(mobile, 1, code);
  const u = findByMobile(mobile);
  if (!u) throw notFound("用户不存在");
  assertCanSignIn(u);
  return getDb().transaction((tx) => {
    consumeCode(codeId, tx);
    tx.update(user).set({ login_at: Date.now(), last_login_ip: ip }).where(eq(user.id, u.id)).run();
    return { user: u, session: start(u.id) };
  });
}

/** Sets a new password with a mobile code; every session of the account ends in the same transaction. */
export async function resetPasswordByMobile(mobile: string, code: string, password: string, ip: string) {
  assertSmsOn();
  assertMobile(mobile);
  limitAction("findpassword", ip, mobile);
  const codeId = checkCode(mobile, 2, code);
  const u = findByMobile(mobile);
  if (!u) throw notFound("用户不存在");
  // Refused before the code is used up, so the user can try another password with it.
  assertPasswordAcceptable(password, u.username);
  const hash = await hashPassword(password);
  getDb().transaction((tx) => {
    consumeCode(codeId, tx);
    tx.update(user).set({ password: hash, updated_at: Date.now() }).where(eq(user.id, u.id)).run();
    revokeUserSessions(u.id);
  });
}

export interface SmsListQuery { page: number; size: number; type?: number; status?: number; keyword?: string; provider?: string; start?: number; end?: number }

/** Sent codes for admins: who, what, how it went; never the code or its hash. */
export function listSms(q: SmsListQuery) {
  const conds: (SQL | undefined)[] = [eq(verifyCode.channel, CHANNEL)];
  if (q.type !== undefined) conds.push(eq(verifyCode.type, q.type));
  if (q.status !== undefined) conds.push(eq(verifyCode.status, q.status));
  if (q.provider) conds.push(eq(verifyCode.provider, q.provider));
  conds.push(createdBetween(verifyCode.created_at, q));
  if (q.keyword) {
    const k = `%${q.keyword.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    const like = (col: AnySQLiteColumn) => sql`${col} LIKE ${k} ESCAPE '\\'`;
    conds.push(or(like(verifyCode.target), like(verifyCode.ip), like(verifyCode.error)));
  }
  const where = and(...conds);
  const db = getDb();
  const total = db.select({ n: count() }).from(verifyCode).where(where).get()!.n;
  const rows = db.select({
    id: verifyCode.id, mobile: verifyCode.target, type: verifyCode.type, status: verifyCode.status, provider: verifyCode.provider,
    error: verifyCode.error, ip: verifyCode.ip, attempts: verifyCode.attempts, used_at: verifyCode.used_at, expires_at: verifyCode.expires_at,
    created_at: verifyCode.created_at, updated_at: verifyCode.updated_at,
  }).from(verifyCode).where(where).orderBy(desc(verifyCode.id)).limit(q.size).offset((q.page - 1) * q.size).all();
  return { total, sms: rows };
}

export function deleteSms(ids: number[]) {
  return getDb().delete(verifyCode).where(and(eq(verifyCode.channel, CHANNEL), inArray(verifyCode.id, ids))).returning({ id: verifyCode.id }).all().length;
}
