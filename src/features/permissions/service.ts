import { and, eq, inArray, sql } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { groupPermission, permission, userGroup } from "#db/schema/accounts.ts";
import { describe } from "./catalog.ts";

/** Group 1 is 超级管理员 (seeded by migration); it holds every permission. */
export const ADMIN_GROUP_ID = 1;

export interface RouteInfo { method: string; path: string }

/**
 * Upserts one permission per protected route (ids stay stable across restarts), removes
 * permissions whose route is gone, and grants all of them to the administrators' group.
 */
export function syncPermissions(routes: RouteInfo[]) {
  const db = getDb();
  const wanted = new Map(routes.map((r) => [`${r.method} ${r.path}`, r]));
  db.transaction((tx) => {
    const existing = tx.select().from(permission).all();
    for (const p of existing) if (!wanted.has(`${p.method} ${p.path}`)) tx.delete(permission).where(eq(permission.id, p.id)).run();
    for (const r of wanted.values()) {
      const d = describe(r.method, r.path);
      tx.insert(permission).values({ method: r.method, path: r.path, title: d.title, category: d.category, page: d.page })
        // A title an admin edited (updated_at moved off created_at) survives restarts.
        .onConflictDoUpdate({ target: [permission.method, permission.path], set: { title: sql`CASE WHEN ${permission.updated_at} = ${permission.created_at} THEN excluded.title ELSE ${permission.title} END`, category: d.category, page: d.page } }).run();
    }
    tx.run(sql`INSERT OR IGNORE INTO group_permission (group_id, permission_id) SELECT ${ADMIN_GROUP_ID}, id FROM permission`);
  });
  invalidatePermissions();
}

export interface Grants { keys: Set<string>; allowPages: string[]; ids: number[] }

// Per-user grants, cached until any group/permission change (cheap to rebuild).
const cache = new Map<number, Grants>();
export const invalidatePermissions = () => cache.clear();

export function grantsOf(userId: number): Grants {
  const hit = cache.get(userId);
  if (hit) return hit;
  const rows = getDb()
    .selectDistinct({ id: permission.id, method: permission.method, path: permission.path, page: permission.page })
    .from(userGroup)
    .innerJoin(groupPermission, eq(groupPermission.group_id, userGroup.group_id))
    .innerJoin(permission, eq(permission.id, groupPermission.permission_id))
    .where(eq(userGroup.user_id, userId))
    .all();
  const g: Grants = {
    keys: new Set(rows.map((r) => `${r.method} ${r.path}`)),
    // spec §6: pages come from permissions that carry a page group and a positive id
    allowPages: [...new Set(rows.filter((r) => r.id > 0 && r.page).map((r) => r.page))].sort(),
    ids: rows.map((r) => r.id),
  };
  if (cache.size > 10_000) cache.clear();
  cache.set(userId, g);
  return g;
}

export const listPermissions = () => getDb().select().from(permission).orderBy(permission.category, permission.path, permission.method).all();

export function setGroupPermissions(groupId: number, permissionIds: number[]) {
  getDb().transaction((tx) => {
    tx.delete(groupPermission).where(eq(groupPermission.group_id, groupId)).run();
    if (permissionIds.length) {
      const valid = tx.select({ id: permission.id }).from(permission).where(inArray(permission.id, permissionIds)).all();
      for (const p of valid) tx.insert(groupPermission).values({ group_id: groupId, permission_id: p.id }).run();
    }
  });
  invalidatePermissions();
}

export const groupPermissionIds = (groupId: number) =>
  getDb().select({ id: groupPermission.permission_id }).from(groupPermission).where(and(eq(groupPermission.group_id, groupId))).all().map((r) => r.id);
