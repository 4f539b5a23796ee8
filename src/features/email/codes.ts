import { and, desc, eq, gt, isNull, lt, ne, sql } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { verifyCode } from "#db/schema/accounts.ts";
import { user } from "#db/schema/users.ts";
import { getSettings } from "#src/features/settings/service.ts";
import { badRequest, conflict, tooManyRequests, unauthorized } from "#src/lib/errors.ts";
import { hit } from "#src/lib/rateLimit.ts";
import { assertMailEnabled, mailConfig, MailError, send } from "./mailer.ts";
import type { EmailCodeType } from "./schema.ts";
import { codeMail } from "./templates.ts";
import { hashCode, sameHash } from "#src/features/auth/codeHash.ts";

export const RESEND_INTERVAL_MS = 60_000;
export const MAX_PER_ADDRESS_HOUR = 10;
export const MAX_PER_IP_HOUR = 20;
/** every request, refused ones included: answers like 邮箱已被注册 must not allow mass probing */
export const MAX_REQUESTS_PER_IP_HOUR = 30;
export const MAX_ATTEMPTS = 5;
const HOUR = 3600_000;


const status = { sending: 0, sent: 1, failed: 2 } as const;

function randomCode(): string {
  // Rejection sampling keeps all 10^6 codes equally likely.
  const buf = new Uint32Array(1);
  for (;;) {
    crypto.getRandomValues(buf);
    if (buf[0]! < 4_294_000_000) return String(buf[0]! % 1_000_000).padStart(6, "0");
  }
}

/**
 * The account owning an address, compared case-insensitively (addresses are stored as typed).
 * The exact match uses the unique index; only a miss falls back to scanning lower(email).
 */
export function userByEmail(email: string) {
  const lower = email.toLowerCase();
  const db = getDb();
  return db.select().from(user).where(eq(user.email, lower)).get() ?? db.select().from(user).where(sql`lower(${user.email}) = ${lower}`).get();
}

function assertLimits(email: string, ip: string, now: number) {
  const db = getDb();
  const mine = and(eq(verifyCode.channel, "email"), eq(verifyCode.target, email));
  // A failed send does not start the interval: the user may retry once the admin fixes SMTP.
  const last = db.select({ at: verifyCode.created_at }).from(verifyCode)
    .where(and(mine, ne(verifyCode.status, status.failed), gt(verifyCode.created_at, now - RESEND_INTERVAL_MS)))
    .orderBy(desc(verifyCode.created_at)).get();
  if (last) throw tooManyRequests(`验证码发送过于频繁，请 ${Math.ceil((last.at + RESEND_INTERVAL_MS - now) / 1000)} 秒后再试`);
  const count = (where: ReturnType<typeof and>) => db.select({ n: sql<number>`count(*)` }).from(verifyCode).where(where).get()!.n;
  if (count(and(mine, gt(verifyCode.created_at, now - HOUR))) >= MAX_PER_ADDRESS_HOUR) throw tooManyRequests("该邮箱获取验证码次数过多，请一小时后再试");
  if (ip && count(and(eq(verifyCode.ip, ip), gt(verifyCode.created_at, now - HOUR))) >= MAX_PER_IP_HOUR) throw tooManyRequests("获取验证码次数过多，请一小时后再试");
}

function assertPurpose(email: string, type: EmailCodeType, userId: number | null) {
  const owner = userByEmail(email);
  if (type === 0 && owner) throw conflict("邮箱已被注册");
  if (type === 2 && !owner) throw badRequest("该邮箱未注册");
  if (type === 3) {
    if (!userId) throw unauthorized();
    if (owner && owner.id !== userId) throw conflict("邮箱已被其他账号使用");
  }
}

/**
 * Sends a 6-digit code: the row is written (status sending) before SMTP is tried and ends as sent
 * or failed with the error, so the admin can see every attempt. Throws MailError on failure.
 */
export async function sendEmailCode(a: { email: string; type: EmailCodeType; ip: string; userId?: number | null }): Promise<{ expires_at: number }> {
  assertMailEnabled();
  if (!hit(`emailcode:ip:${a.ip}`, MAX_REQUESTS_PER_IP_HOUR, HOUR)) throw tooManyRequests("获取验证码次数过多，请一小时后再试");
  assertPurpose(a.email, a.type, a.userId ?? null);
  const now = Date.now();
  const minutes = mailConfig().duration;
  const code = randomCode();
  const code_hash = hashCode("email", a.email, a.type, code);
  const db = getDb();
  // Limits are checked after the await and inserted in the same synchronous step, so two
  // concurrent requests cannot both slip under them.
  const row = db.transaction((tx) => {
    assertLimits(a.email, a.ip, Date.now());
    return tx.insert(verifyCode).values({
      channel: "email", target: a.email, type: a.type, code_hash, status: status.sending, provider: "smtp", ip: a.ip, expires_at: now + minutes * 60_000,
    }).returning({ id: verifyCode.id, expires_at: verifyCode.expires_at }).get();
  });
  try {
    await send(codeMail({ to: a.email, sitename: String(getSettings().system!.sitename), code, minutes, type: a.type }));
  } catch (err) {
    const e = err instanceof MailError ? err : new MailError("未知错误", String(err));
    const error = `${e.reason}${e.detail ? `（${e.detail}）` : ""}`.slice(0, 500);
    db.update(verifyCode).set({ status: status.failed, error, updated_at: Date.now() }).where(eq(verifyCode.id, row.id)).run();
    throw e;
  }
  db.update(verifyCode).set({ status: status.sent, updated_at: Date.now() }).where(eq(verifyCode.id, row.id)).run();
  return { expires_at: row.expires_at };
}

/**
 * Checks and uses up the latest code sent to `email` for `type`. Throws a 400 in Chinese:
 * 请先获取验证码 (none sent), 验证码已使用, 验证码已过期, 验证码错误次数过多，请重新获取 (5 attempts
 * spent) or 验证码错误. Only the newest code counts: sending another retires the older ones.
 */
export async function consumeEmailCode(email: string, type: EmailCodeType, code: string): Promise<void> {
  const target = email.trim().toLowerCase();
  const db = getDb();
  const row = db.select().from(verifyCode)
    .where(and(eq(verifyCode.channel, "email"), eq(verifyCode.target, target), eq(verifyCode.type, type), eq(verifyCode.status, status.sent)))
    .orderBy(desc(verifyCode.created_at), desc(verifyCode.id)).get();
  if (!row) throw badRequest("请先获取验证码");
  if (row.used_at) throw badRequest("验证码已使用");
  if (row.expires_at <= Date.now()) throw badRequest("验证码已过期");
  // The attempt is counted before the check, so parallel guesses cannot exceed the cap.
  const taken = db.update(verifyCode).set({ attempts: sql`${verifyCode.attempts} + 1` })
    .where(and(eq(verifyCode.id, row.id), lt(verifyCode.attempts, MAX_ATTEMPTS))).returning({ id: verifyCode.id }).get();
  if (!taken) throw badRequest("验证码错误次数过多，请重新获取");
  const ok = /^\d{6}$/.test(code.trim()) && sameHash(row.code_hash, hashCode("email", target, type, code.trim()));
  if (!ok) throw badRequest("验证码错误");
  const used = db.update(verifyCode).set({ used_at: Date.now(), updated_at: Date.now() })
    .where(and(eq(verifyCode.id, row.id), isNull(verifyCode.used_at))).returning({ id: verifyCode.id }).get();
  if (!used) throw badRequest("验证码已使用");
}
