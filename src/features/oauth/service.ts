import { and, eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { userOauth } from "#db/schema/accounts.ts";
import { user } from "#db/schema/users.ts";
import { assertRegisterOpen, createAccount, uniqueUsername } from "#src/features/auth/accounts.ts";
import { findUserById, publicUser } from "#src/features/auth/users.ts";
import { AppError, conflict, notFound, tooManyRequests } from "#src/lib/errors.ts";
import { hit } from "#src/lib/rateLimit.ts";
import type { Profile, ProviderType } from "./providers/common.ts";
import { enabledProvider, type EnabledProvider } from "./registry.ts";
import type { Pending } from "./state.ts";
import { assertCanSignIn } from "#src/features/auth/service.ts";

// Third-party identities: a code becomes a profile (through the provider), a profile signs in,
// creates an account, or is bound to the signed-in one. One identity belongs to one account, and an
// account holds at most one identity per provider (both unique in the table).

const EXCHANGE_LIMIT = 60;
const EXCHANGE_WINDOW_MS = 10 * 60_000;

export type Binding = typeof userOauth.$inferSelect;

/** The enabled provider of `type`, or a Chinese 400 naming the problem. */
export function requireProvider(type: string): EnabledProvider {
  const p = enabledProvider(type);
  if (!p) throw new AppError(404, "oauth_disabled", "网站未开启该第三方登录方式");
  return p;
}

export const callbackUrl = (origin: string, type: string) => `${origin}/oauth/${type}`;

/** Exchanges the authorization code with the provider; the redirect_uri repeats the one of the authorize step. */
export async function fetchProfile(p: EnabledProvider, code: string, st: Pending, ip: string): Promise<Profile> {
  if (!hit(`oauth:ip:${ip}`, EXCHANGE_LIMIT, EXCHANGE_WINDOW_MS)) throw tooManyRequests("第三方登录过于频繁，请 10 分钟后再试");
  const profile = await p.provider.exchange(p.cfg, { code, redirectUri: callbackUrl(st.origin, p.type), codeVerifier: st.verifier });
  return { ...profile, openid: profile.openid.slice(0, 191), name: profile.name.trim().slice(0, 64) };
}

const findByOpenid = (type: string, openid: string) =>
  getDb().select().from(userOauth).where(and(eq(userOauth.type, type), eq(userOauth.openid, openid))).get();

function refresh(row: Binding, profile: Profile) {
  getDb().update(userOauth).set({ name: profile.name, avatar: profile.avatar, email: profile.email, unionid: profile.unionid || row.unionid, updated_at: Date.now() })
    .where(eq(userOauth.id, row.id)).run();
}

const isUniqueViolation = (err: unknown) => /UNIQUE constraint failed/i.test(String((err as Error)?.message ?? err));

/**
 * Signs in with a third-party identity: the bound account if there is one, else a new account
 * (when registration is open) named after the nickname, with the avatar and a free e-mail address.
 */
export async function signInWithProfile(type: ProviderType, profile: Profile, ip: string) {
  const db = getDb();
  let row = findByOpenid(type, profile.openid);
  let created = false;
  if (!row) {
    assertRegisterOpen();
    const emailFree = profile.email && !db.select({ id: user.id }).from(user).where(eq(user.email, profile.email)).get();
    const u = await createAccount({
      username: uniqueUsername(profile.name || `${type}用户`), avatar: profile.avatar, email: emailFree ? profile.email : null, ip,
    });
    try {
      row = db.insert(userOauth).values({ user_id: u.id, type, openid: profile.openid, unionid: profile.unionid, name: profile.name, avatar: profile.avatar, email: profile.email }).returning().get();
      created = true;
    } catch (err) {
      // Two first sign-ins of one identity raced: the other one's account wins, this one is dropped.
      if (!isUniqueViolation(err)) throw err;
      db.delete(user).where(eq(user.id, u.id)).run();
      row = findByOpenid(type, profile.openid)!;
    }
  } else refresh(row, profile);
  const u = findUserById(row.user_id);
  if (!u) throw notFound("用户不存在");
  assertCanSignIn(u);
  db.update(user).set({ login_at: Date.now(), last_login_ip: ip }).where(eq(user.id, u.id)).run();
  return { user: u, created };
}

/** Binds an identity to the signed-in account; binding the same identity again just refreshes it. */
export function bindProfile(userId: number, type: ProviderType, profile: Profile, providerName: string): Binding {
  const db = getDb();
  const existing = findByOpenid(type, profile.openid);
  if (existing) {
    if (existing.user_id !== userId) throw conflict("该账号已绑定其他用户");
    refresh(existing, profile);
    return findByOpenid(type, profile.openid)!;
  }
  const mine = db.select().from(userOauth).where(and(eq(userOauth.user_id, userId), eq(userOauth.type, type))).get();
  if (mine) throw conflict(`你已绑定其他${providerName}账号，请先解绑`);
  try {
    return db.insert(userOauth).values({ user_id: userId, type, openid: profile.openid, unionid: profile.unionid, name: profile.name, avatar: profile.avatar, email: profile.email }).returning().get();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict("该账号已绑定其他用户");
    throw err;
  }
}

/** The owner's view of a binding: no openid/unionid, they identify the person at the provider. */
export const bindingView = (b: Binding) => ({ id: b.id, type: b.type, name: b.name, avatar: b.avatar, email: b.email, created_at: b.created_at, updated_at: b.updated_at });

export const listBindings = (userId: number) =>
  getDb().select().from(userOauth).where(eq(userOauth.user_id, userId)).orderBy(userOauth.id).all().map(bindingView);

/** Removes one of the caller's bindings by id or by provider; someone else's binding is simply not found. */
export function unbind(userId: number, by: { id?: number; type?: string }) {
  const db = getDb();
  const cond = by.id ? eq(userOauth.id, by.id) : eq(userOauth.type, by.type ?? "");
  const row = db.select().from(userOauth).where(and(cond, eq(userOauth.user_id, userId))).get();
  if (!row) throw notFound("绑定记录不存在");
  db.delete(userOauth).where(eq(userOauth.id, row.id)).run();
  return bindingView(row);
}

/** What the login API answers about the signed-in user (the account owner's own fields). */
export const selfUser = (u: typeof user.$inferSelect) => ({
  ...publicUser(u), realname: u.realname, email: u.email ?? "", mobile: u.mobile ?? "", address: u.address, identity: u.identity, credit_count: u.credit_count, login_at: u.login_at,
});
