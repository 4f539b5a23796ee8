import { and, eq, isNull } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { passwordReset } from "#db/schema/accounts.ts";
import { session, user } from "#db/schema/users.ts";
import { assertPasswordAcceptable, hashPassword } from "#src/features/auth/passwords.ts";
import { assertCaptcha } from "#src/features/captcha/service.ts";
import { getSettings } from "#src/features/settings/service.ts";
import { badRequest, forbidden, tooManyRequests } from "#src/lib/errors.ts";
import { hit } from "#src/lib/rateLimit.ts";
import { userByEmail } from "./codes.ts";
import { assertMailEnabled, mailConfig, send } from "./mailer.ts";
import { resetMail } from "./templates.ts";

export const STEP_ONE_PER_IP_HOUR = 10;
export const STEP_ONE_PER_ADDRESS_HOUR = 5;
export const STEP_TWO_PER_IP_15MIN = 20;

const sha256 = (s: string) => new Bun.CryptoHasher("sha256").update(s).digest("hex");
const INVALID = "重置链接无效，请重新找回密码";

/**
 * Where links point: the configured site domain; without one, the origin the request came to.
 * (The latter trusts the Host header, so sites should set 系统设置 › 网站域名.)
 */
function siteBase(requestOrigin: string): string {
  const domain = String(getSettings().system!.domain ?? "").trim().replace(/\/+$/, "");
  return /^https?:\/\/[^/\s]+/i.test(domain) ? domain : requestOrigin;
}

/**
 * Step one (MOREDOC flow): after the captcha (when security.enable_captcha_find_password is on),
 * e-mails a single-use link /findpassword?token=…&email=… valid for `email.duration` minutes.
 * Only the newest link of a user works; if the mail fails, no token stays.
 */
export async function findPasswordStepOne(a: { email: string; ip: string; origin: string; captcha?: string; captcha_id?: string }): Promise<void> {
  assertMailEnabled();
  if (!hit(`findpwd:ip:${a.ip}`, STEP_ONE_PER_IP_HOUR, 3600_000)) throw tooManyRequests("找回密码操作过于频繁，请一小时后再试");
  assertCaptcha("find_password", a.captcha_id, a.captcha);
  if (!hit(`findpwd:interval:${a.email}`, 1, 60_000)) throw tooManyRequests("邮件发送过于频繁，请 1 分钟后再试");
  if (!hit(`findpwd:mail:${a.email}`, STEP_ONE_PER_ADDRESS_HOUR, 3600_000)) throw tooManyRequests("该邮箱找回密码次数过多，请一小时后再试");
  const u = userByEmail(a.email);
  if (!u) throw badRequest("该邮箱未注册");
  if (u.status !== 0) throw forbidden("账号已被禁用，无法找回密码");
  const minutes = mailConfig().duration;
  const token = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  const db = getDb();
  const row = db.transaction((tx) => {
    tx.delete(passwordReset).where(and(eq(passwordReset.user_id, u.id), isNull(passwordReset.used_at))).run();
    return tx.insert(passwordReset).values({ user_id: u.id, token_hash: sha256(token), expires_at: Date.now() + minutes * 60_000 }).returning({ id: passwordReset.id }).get();
  });
  const link = `${siteBase(a.origin)}/findpassword?token=${token}&email=${encodeURIComponent(u.email!)}`;
  const sitename = String(getSettings().system!.sitename);
  try {
    await send(resetMail({ to: u.email!, sitename, username: u.username, link, minutes }));
  } catch (err) {
    db.delete(passwordReset).where(eq(passwordReset.id, row.id)).run();
    throw err;
  }
}

/**
 * Step two: sets the new password, uses up the token and ends every session of the user, all in
 * one transaction. Wrong, expired or used links answer a Chinese 400.
 */
export async function findPasswordStepTwo(a: { email: string; token: string; password: string; ip: string }): Promise<void> {
  if (!hit(`findpwd2:ip:${a.ip}`, STEP_TWO_PER_IP_15MIN, 15 * 60_000)) throw tooManyRequests("操作过于频繁，请 15 分钟后再试");
  const db = getDb();
  const row = db.select({ id: passwordReset.id, user_id: passwordReset.user_id, expires_at: passwordReset.expires_at, used_at: passwordReset.used_at, email: user.email, username: user.username })
    .from(passwordReset).innerJoin(user, eq(user.id, passwordReset.user_id))
    .where(eq(passwordReset.token_hash, sha256(a.token))).get();
  if (!row || (row.email ?? "").toLowerCase() !== a.email) throw badRequest(INVALID);
  if (row.used_at) throw badRequest("重置链接已使用，请重新找回密码");
  if (row.expires_at <= Date.now()) throw badRequest("重置链接已过期，请重新找回密码");
  // Refused before the link is used up: the user may pick another password with the same link.
  assertPasswordAcceptable(a.password, row.username);
  const hash = await hashPassword(a.password);
  db.transaction((tx) => {
    const now = Date.now();
    const used = tx.update(passwordReset).set({ used_at: now, updated_at: now })
      .where(and(eq(passwordReset.id, row.id), isNull(passwordReset.used_at))).returning({ id: passwordReset.id }).get();
    // A parallel request with the same link won the race while the password was hashing.
    if (!used) throw badRequest("重置链接已使用，请重新找回密码");
    tx.update(user).set({ password: hash, updated_at: now }).where(eq(user.id, row.user_id)).run();
    tx.delete(session).where(eq(session.user_id, row.user_id)).run();
  });
}
