import { and, eq, or, sql } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { dynamic, group, userGroup } from "#db/schema/accounts.ts";
import { user } from "#db/schema/users.ts";
import { changeCredits } from "#src/features/credits/ledger.ts";
import { setting } from "#src/features/settings/service.ts";
import { conflict, forbidden } from "#src/lib/errors.ts";
import { assertPasswordAcceptable, hashPassword } from "./passwords.ts";

export interface NewAccount {
  username: string;
  /** omitted for accounts created by mobile code or OAuth: a random one is set */
  password?: string;
  email?: string | null;
  mobile?: string | null;
  avatar?: string;
  ip?: string;
  /** admin-created accounts choose groups; others join the default group */
  groupIds?: number[];
}

export function assertRegisterOpen() {
  if (!setting<boolean>("security", "enable_register")) throw forbidden("网站已关闭注册");
}

/** Usernames compare without case: "Admin" and "ADMIN" cannot sit beside "admin" (index user_username_lower). */
const sameName = (name: string) => sql`lower(${user.username}) = lower(${name})`;

/** Username (any case), e-mail and mobile are unique; the first clash found is reported in Chinese. */
export function assertAvailable(a: { username?: string; email?: string | null; mobile?: string | null }, exceptId = 0) {
  const db = getDb();
  const conds = [
    a.username ? sameName(a.username) : undefined,
    a.email ? eq(user.email, a.email) : undefined,
    a.mobile ? eq(user.mobile, a.mobile) : undefined,
  ].filter(Boolean);
  if (!conds.length) return;
  const rows = db.select({ id: user.id, username: user.username, email: user.email, mobile: user.mobile }).from(user).where(or(...conds)).all();
  for (const r of rows) {
    if (r.id === exceptId) continue;
    if (a.username && r.username.toLowerCase() === a.username.toLowerCase()) throw conflict("用户名已被占用");
    if (a.email && r.email === a.email) throw conflict("邮箱已被占用");
    if (a.mobile && r.mobile === a.mobile) throw conflict("手机号已被占用");
  }
}

export const defaultGroupId = () => getDb().select({ id: group.id }).from(group).where(eq(group.is_default, true)).get()?.id;

/**
 * Creates an account in one transaction: the user row, its groups (default group unless given),
 * the register award through the credit ledger, and a line in the activity feed.
 */
export async function createAccount(a: NewAccount) {
  if (a.password !== undefined) assertPasswordAcceptable(a.password, a.username);
  assertAvailable(a);
  const hash = await hashPassword(a.password ?? crypto.randomUUID());
  const award = Math.max(0, Math.floor(Number(setting("score", "register")) || 0));
  return getDb().transaction((tx) => {
    const u = tx.insert(user).values({
      username: a.username, password: hash, email: a.email || null, mobile: a.mobile || null, avatar: a.avatar ?? "", register_ip: a.ip ?? "",
    }).returning().get();
    const groups = a.groupIds?.length ? a.groupIds : [defaultGroupId()].filter((x): x is number => !!x);
    for (const g of groups) tx.insert(userGroup).values({ user_id: u.id, group_id: g }).onConflictDoNothing().run();
    if (award) changeCredits({ userId: u.id, amount: award, kind: "register", reason: "注册奖励" }, tx);
    tx.insert(dynamic).values({ user_id: u.id, type: 1, content: "注册成为会员" }).run();
    return tx.select().from(user).where(eq(user.id, u.id)).get()!;
  });
}

/** Username derived from a mobile number or an OAuth nickname, made unique with a suffix. */
export function uniqueUsername(base: string): string {
  const clean = base.replace(/[^\w\u4e00-\u9fa5-]/g, "").slice(0, 20) || "user";
  const db = getDb();
  for (let i = 0; i < 20; i++) {
    const name = i === 0 ? clean : `${clean}_${Math.random().toString(36).slice(2, 6)}`;
    if (!db.select({ id: user.id }).from(user).where(sameName(name)).get()) return name;
  }
  return `${clean}_${crypto.randomUUID().slice(0, 8)}`;
}

export const countUsers = () => getDb().select({ n: sql<number>`count(*)` }).from(user).get()!.n;
export const userInGroup = (userId: number, groupId: number) =>
  !!getDb().select().from(userGroup).where(and(eq(userGroup.user_id, userId), eq(userGroup.group_id, groupId))).get();
