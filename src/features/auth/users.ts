import { eq, sql } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { user } from "#db/schema/users.ts";
import { hashPassword, randomPassword } from "./passwords.ts";

export const findUserByLogin = (username: string) =>
  getDb().select().from(user).where(eq(user.username, username)).get();

export const findUserById = (id: number) => getDb().select().from(user).where(eq(user.id, id)).get();

/** is_vip is public (the VIP icon shows next to the name); when it ends is the member's own business. */
export const publicUser = (u: typeof user.$inferSelect) => ({
  id: u.id, username: u.username, avatar: u.avatar, signature: u.signature, is_root: u.is_root, is_vip: u.vip_until !== null && u.vip_until > Date.now(),
  created_at: u.created_at,
});

/**
 * On first start with no users, creates the root administrator from ADMIN_USERNAME/ADMIN_PASSWORD,
 * or with a random password that is returned so the caller prints it once.
 */
export async function ensureRootAdmin(username?: string, password?: string): Promise<{ username: string; password?: string; generated: boolean } | null> {
  const db = getDb();
  const count = db.select({ n: sql<number>`count(*)` }).from(user).get()!.n;
  if (count > 0) return null;
  const name = username || "admin";
  const generated = !password;
  const plain = password || randomPassword();
  db.insert(user).values({ username: name, password: await hashPassword(plain), is_root: true }).run();
  return { username: name, password: generated ? plain : undefined, generated };
}

/** What a user sees of their own account (never the password hash). */
export const selfView = (u: typeof user.$inferSelect) => ({
  ...publicUser(u), realname: u.realname, email: u.email ?? "", mobile: u.mobile ?? "", address: u.address, identity: u.identity,
  credit_count: u.credit_count, login_at: u.login_at, vip_until: u.vip_until,
});
