import { and, eq, ne } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { user } from "#db/schema/users.ts";
import { badRequest, conflict, notFound, tooManyRequests, unauthorized } from "#src/lib/errors.ts";
import { hit, reset } from "#src/lib/rateLimit.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";
import { createSession, revokeUserSessions } from "./sessions.ts";
import { findUserById, findUserByLogin } from "./users.ts";

// Per IP and per account: enough for typos, too few for guessing.
const LOGIN_LIMIT_IP = 20;
const LOGIN_LIMIT_ACCOUNT = 10;
const LOGIN_WINDOW_MS = 15 * 60_000;

export async function login(username: string, password: string, ip: string, userAgent: string) {
  if (!hit(`login:ip:${ip}`, LOGIN_LIMIT_IP, LOGIN_WINDOW_MS) || !hit(`login:user:${username.toLowerCase()}`, LOGIN_LIMIT_ACCOUNT, LOGIN_WINDOW_MS)) {
    throw tooManyRequests("登录尝试过于频繁，请 15 分钟后再试");
  }
  const u = findUserByLogin(username);
  // Verify against a fixed hash when the user is unknown so timing does not reveal accounts.
  const ok = await verifyPassword(password, u?.password ?? DUMMY_HASH);
  if (!u || !ok) throw unauthorized("用户名或密码错误");
  if (u.status !== 0) throw unauthorized("账号已被禁用");
  reset(`login:user:${username.toLowerCase()}`);
  getDb().update(user).set({ login_at: Date.now(), last_login_ip: ip }).where(eq(user.id, u.id)).run();
  const s = createSession(u.id, ip, userAgent);
  return { token: s.token, expires_at: s.expires_at, user: u };
}

const DUMMY_HASH = await Bun.password.hash("wenku-dummy-password", { algorithm: "argon2id" });

export async function changePassword(userId: number, oldPassword: string, newPassword: string) {
  const u = findUserById(userId);
  if (!u) throw notFound("用户不存在");
  if (!(await verifyPassword(oldPassword, u.password))) throw badRequest("旧密码不正确");
  getDb().update(user).set({ password: await hashPassword(newPassword), updated_at: Date.now() }).where(eq(user.id, userId)).run();
  // Every other session ends; the caller gets a fresh one.
  revokeUserSessions(userId);
}

export function updateProfile(userId: number, patch: { username?: string; realname?: string; identity?: string; email?: string; address?: string; signature?: string }) {
  const u = findUserById(userId);
  if (!u) throw notFound("用户不存在");
  const set: Partial<typeof user.$inferInsert> = { updated_at: Date.now() };
  if (patch.username !== undefined && patch.username !== u.username) {
    const taken = getDb().select({ id: user.id }).from(user).where(and(eq(user.username, patch.username), ne(user.id, userId))).get();
    if (taken) throw conflict("用户名已被占用");
    set.username = patch.username;
  }
  // E-mail can be set once; afterwards it changes only through verification (accounts issue).
  if (patch.email && !u.email) {
    const taken = getDb().select({ id: user.id }).from(user).where(eq(user.email, patch.email)).get();
    if (taken) throw conflict("邮箱已被占用");
    set.email = patch.email;
  }
  for (const k of ["realname", "identity", "address", "signature"] as const) if (patch[k] !== undefined) set[k] = patch[k];
  getDb().update(user).set(set).where(eq(user.id, userId)).run();
  return findUserById(userId)!;
}
