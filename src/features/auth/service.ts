import { eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { user } from "#db/schema/users.ts";
import { badRequest, forbidden, notFound, unauthorized } from "#src/lib/errors.ts";
import { disabledMessage, liftExpiredDisable } from "#src/features/users/punishments/service.ts";
import { assertAvailable } from "./accounts.ts";
import { assertPasswordAcceptable, hashPassword, verifyPassword } from "./passwords.ts";
import { USERNAME_RE, type ProfileInput } from "./schema.ts";
import { createSession, revokeUserSessions } from "./sessions.ts";
import { beginLoginAttempt, loginSucceeded } from "./throttle.ts";
import { findUserById, findUserByLogin } from "./users.ts";

/**
 * Every way of signing in (password, mobile code, OAuth) ends here: a disabled account is refused
 * with its reason, and a disable punishment that ran out is lifted rather than waiting for the job.
 */
export function assertCanSignIn(u: { id: number; status: number }) {
  if (u.status !== 0 && !liftExpiredDisable(u.id)) throw forbidden(disabledMessage(u.id));
}

/**
 * Password sign-in. Failed attempts are throttled per (account, address) and per address with
 * growing waits (./throttle.ts); successes cost nothing.
 */
export async function login(username: string, password: string, ip: string, userAgent: string) {
  const u = findUserByLogin(username);
  // The account is the user row when it exists: "alice" and "ALICE" are different accounts.
  const attempt = beginLoginAttempt(u ? `u${u.id}` : `n:${username}`, ip);
  // Verify against a fixed hash when the user is unknown so timing does not reveal accounts.
  const ok = await verifyPassword(password, u?.password ?? DUMMY_HASH);
  if (!u || !ok) throw unauthorized("用户名或密码错误");
  loginSucceeded(attempt);
  assertCanSignIn(u);
  getDb().update(user).set({ login_at: Date.now(), last_login_ip: ip }).where(eq(user.id, u.id)).run();
  const s = createSession(u.id, ip, userAgent);
  return { token: s.token, expires_at: s.expires_at, user: u };
}

const DUMMY_HASH = await hashPassword("wenku-dummy-password");

export async function changePassword(userId: number, oldPassword: string, newPassword: string) {
  const u = findUserById(userId);
  if (!u) throw notFound("用户不存在");
  if (!(await verifyPassword(oldPassword, u.password))) throw badRequest("旧密码不正确");
  assertPasswordAcceptable(newPassword, u.username);
  getDb().update(user).set({ password: await hashPassword(newPassword), updated_at: Date.now() }).where(eq(user.id, userId)).run();
  // Every other session ends; the caller gets a fresh one.
  revokeUserSessions(userId);
}

/** Profile edit (spec §2/§5): e-mail and mobile can be set once here; later changes need verification. */
export function updateProfile(userId: number, patch: ProfileInput) {
  const u = findUserById(userId);
  if (!u) throw notFound("用户不存在");
  const set: Partial<typeof user.$inferInsert> = { updated_at: Date.now() };
  if (patch.username !== undefined && patch.username !== u.username) {
    if (patch.username.length < 2) throw badRequest("用户名长度为 2-64 个字符");
    if (!USERNAME_RE.test(patch.username)) throw badRequest("用户名只能包含字母、数字、下划线和汉字");
    set.username = patch.username;
  }
  if (patch.email && !u.email) set.email = patch.email;
  if (patch.mobile && !u.mobile) set.mobile = patch.mobile;
  assertAvailable({ username: set.username, email: set.email, mobile: set.mobile }, userId);
  for (const k of ["realname", "identity", "address", "signature"] as const) if (patch[k] !== undefined) set[k] = patch[k];
  getDb().update(user).set(set).where(eq(user.id, userId)).run();
  return findUserById(userId)!;
}
