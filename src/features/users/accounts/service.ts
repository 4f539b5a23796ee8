import { and, asc, count, desc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { group, userGroup } from "#db/schema/accounts.ts";
import { user } from "#db/schema/users.ts";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { createdBetween } from "#src/features/admin/crud/service.ts";
import { assertAvailable, createAccount } from "#src/features/auth/accounts.ts";
import { hashPassword } from "#src/features/auth/passwords.ts";
import { revokeUserSessions } from "#src/features/auth/sessions.ts";
import { findUserById } from "#src/features/auth/users.ts";
import { ADMIN_GROUP_ID, invalidatePermissions } from "#src/features/permissions/service.ts";
import { bumpContentVersion } from "#src/lib/contentVersion.ts";
import { badRequest, forbidden, notFound } from "#src/lib/errors.ts";
import { endDisablePunishments, type Actor } from "../punishments/service.ts";

type UserRow = typeof user.$inferSelect;
interface GroupTag { id: number; title: string; color: string }

// Columns an admin list shows; the password hash is never among them.
const LISTED = {
  id: user.id, username: user.username, realname: user.realname, email: user.email, mobile: user.mobile, avatar: user.avatar, status: user.status,
  is_root: user.is_root, credit_count: user.credit_count, doc_count: user.doc_count, created_at: user.created_at, login_at: user.login_at, last_login_ip: user.last_login_ip,
  vip_until: user.vip_until,
};
type Listed = { [K in keyof typeof LISTED]: UserRow[K] };

function groupsOf(userIds: number[]): Map<number, GroupTag[]> {
  const out = new Map<number, GroupTag[]>();
  if (!userIds.length) return out;
  const rows = getDb().select({ user_id: userGroup.user_id, id: group.id, title: group.title, color: group.color }).from(userGroup)
    .innerJoin(group, eq(group.id, userGroup.group_id)).where(inArray(userGroup.user_id, userIds)).orderBy(asc(group.sort), asc(group.id)).all();
  for (const { user_id, ...g } of rows) out.set(user_id, [...(out.get(user_id) ?? []), g]);
  return out;
}

// group_id mirrors the write field so an edit form round-trips; enable is the list's switch.
const view = (u: Listed, groups: GroupTag[]) => {
  const ids = groups.map((g) => g.id);
  return { ...u, email: u.email ?? "", mobile: u.mobile ?? "", enable: u.status === 0, is_vip: u.vip_until !== null && u.vip_until > Date.now(), group_ids: ids, group_id: ids, groups };
};

export interface UserQuery { wd?: string; group_id?: number; status?: 0 | 1; start?: number; end?: number; page: number; size: number }

export function listUsers(q: UserQuery) {
  const has = (col: SQLiteColumn, wd: string) => sql`instr(lower(${col}), lower(${wd})) > 0`;
  const conds: (SQL | undefined)[] = [
    q.wd ? or(has(user.username, q.wd), has(user.email, q.wd), has(user.mobile, q.wd), has(user.realname, q.wd), /^\d{1,15}$/.test(q.wd) ? eq(user.id, Number(q.wd)) : undefined) : undefined,
    q.group_id ? inArray(user.id, getDb().select({ id: userGroup.user_id }).from(userGroup).where(eq(userGroup.group_id, q.group_id))) : undefined,
    q.status === undefined ? undefined : eq(user.status, q.status),
    createdBetween(user.created_at, q),
  ];
  const where = and(...conds);
  const db = getDb();
  const rows = db.select(LISTED).from(user).where(where).orderBy(desc(user.id)).limit(q.size).offset((q.page - 1) * q.size).all();
  const total = db.select({ n: count() }).from(user).where(where).get()!.n;
  const groups = groupsOf(rows.map((r) => r.id));
  return { total, user: rows.map((r) => view(r, groups.get(r.id) ?? [])) };
}

export function adminUserView(id: number) {
  const u = getDb().select(LISTED).from(user).where(eq(user.id, id)).get();
  if (!u) throw notFound("用户不存在");
  return view(u, groupsOf([id]).get(id) ?? []);
}

/** The groups must exist; only the root administrator may hand out the administrators' group. */
function assertGroups(ids: number[], actor: Actor, current: number[] = []) {
  const unique = [...new Set(ids)];
  const found = unique.length ? getDb().select({ id: group.id }).from(group).where(inArray(group.id, unique)).all() : [];
  if (found.length !== unique.length) throw badRequest("用户组不存在");
  if (!actor.is_root && unique.includes(ADMIN_GROUP_ID) && !current.includes(ADMIN_GROUP_ID)) throw forbidden("只有超级管理员可以把用户加入超级管理员分组");
  return unique;
}

export interface AdminCreate { username: string; password: string; email?: string; mobile?: string; realname?: string; group_id?: number[]; status?: 0 | 1 }

export async function createUserByAdmin(input: AdminCreate, actor: Actor) {
  const groupIds = input.group_id?.length ? assertGroups(input.group_id, actor) : undefined;
  const u = await createAccount({ username: input.username, password: input.password, email: input.email || null, mobile: input.mobile || null, groupIds });
  if (input.realname || input.status === 1) getDb().update(user).set({ realname: input.realname ?? "", status: input.status ?? 0 }).where(eq(user.id, u.id)).run();
  bumpContentVersion();
  return adminUserView(u.id);
}

export interface AdminUpdate { id: number; email?: string; mobile?: string; realname?: string; group_id?: number[]; status?: 0 | 1; enable?: boolean; password?: string }

export async function updateUserByAdmin(input: AdminUpdate, actor: Actor) {
  const target = findUserById(input.id);
  if (!target) throw notFound("用户不存在");
  if (target.is_root && !actor.is_root) throw forbidden("不能修改超级管理员");
  const status = input.status ?? (input.enable === undefined ? undefined : input.enable ? 0 : 1);
  if (status === 1 && target.id === actor.id) throw badRequest("不能禁用当前登录的账号");
  if (status === 1 && target.is_root) throw badRequest("不能禁用超级管理员");
  const current = getDb().select({ id: userGroup.group_id }).from(userGroup).where(eq(userGroup.user_id, target.id)).all().map((g) => g.id);
  const groupIds = input.group_id ? assertGroups(input.group_id, actor, current) : undefined;
  const set: Partial<typeof user.$inferInsert> = { updated_at: Date.now() };
  if (input.email !== undefined) set.email = input.email || null;
  if (input.mobile !== undefined) set.mobile = input.mobile || null;
  assertAvailable({ email: set.email, mobile: set.mobile }, target.id);
  if (input.realname !== undefined) set.realname = input.realname;
  if (status !== undefined) set.status = status;
  if (input.password) set.password = await hashPassword(input.password);
  getDb().transaction(() => {
    getDb().update(user).set(set).where(eq(user.id, target.id)).run();
    if (groupIds) {
      getDb().delete(userGroup).where(eq(userGroup.user_id, target.id)).run();
      for (const g of groupIds) getDb().insert(userGroup).values({ user_id: target.id, group_id: g }).run();
    }
    // Re-enabling by hand ends the disable punishments that would otherwise switch it back.
    if (status === 0 && target.status !== 0) endDisablePunishments(target.id);
    if (status === 1 || input.password) revokeUserSessions(target.id);
  });
  if (groupIds) invalidatePermissions();
  bumpContentVersion();
  return adminUserView(target.id);
}

export function deleteUsersByAdmin(ids: number[], actor: Actor): number {
  const rows = ids.length ? getDb().select({ id: user.id, is_root: user.is_root }).from(user).where(inArray(user.id, ids)).all() : [];
  if (!rows.length) throw notFound("用户不存在");
  if (rows.some((r) => r.is_root)) throw badRequest("不能删除超级管理员");
  if (rows.some((r) => r.id === actor.id)) throw badRequest("不能删除当前登录的账号");
  getDb().delete(user).where(inArray(user.id, rows.map((r) => r.id))).run();
  invalidatePermissions();
  bumpContentVersion();
  return rows.length;
}
