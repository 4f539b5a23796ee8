import { and, count, eq, or, sql } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { permission } from "#db/schema/accounts.ts";
import { CATEGORIES } from "#src/features/permissions/catalog.ts";
import { grantsOf, invalidatePermissions, listPermissions } from "#src/features/permissions/service.ts";
import { notFound } from "#src/lib/errors.ts";

export type PermissionRow = typeof permission.$inferSelect;

const labelOf = (category: string) => CATEGORIES[category]?.label ?? category;
const view = (p: PermissionRow) => ({ ...p, category_label: labelOf(p.category) });

export function listPermissionPage(q: { wd?: string; category?: string; page: number; size: number }) {
  const where = and(
    q.category ? eq(permission.category, q.category) : undefined,
    q.wd ? or(sql`instr(lower(${permission.title}), lower(${q.wd})) > 0`, sql`instr(lower(${permission.path}), lower(${q.wd})) > 0`) : undefined,
  );
  const db = getDb();
  const rows = db.select().from(permission).where(where).orderBy(permission.category, permission.path, permission.method).limit(q.size).offset((q.page - 1) * q.size).all();
  return { total: db.select({ n: count() }).from(permission).where(where).get()!.n, permission: rows.map(view) };
}

/**
 * Titles and descriptions are the admin's words; method and path belong to the route. An edit
 * moves updated_at off created_at, which tells the start-up sync to keep the admin's title.
 */
export function updatePermission(id: number, patch: { title?: string; description?: string }) {
  const set = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  const row = getDb().update(permission).set({ ...set, updated_at: sql`max(${Date.now()}, ${permission.created_at} + 1)` }).where(eq(permission.id, id)).returning().get();
  if (!row) throw notFound("权限不存在");
  invalidatePermissions();
  return view(row);
}

/** The catalogue grouped by category for the picker, in the order of first appearance. */
export function permissionCategories() {
  const groups = new Map<string, { category: string; label: string; page: string; permissions: { id: number; title: string; method: string; path: string }[] }>();
  for (const p of listPermissions()) {
    let g = groups.get(p.category);
    if (!g) groups.set(p.category, (g = { category: p.category, label: labelOf(p.category), page: p.page, permissions: [] }));
    g.permissions.push({ id: p.id, title: p.title, method: p.method, path: p.path });
  }
  return [...groups.values()];
}

export const categoryOptions = () => permissionCategories().map((g) => ({ value: g.category, label: g.label }));

/**
 * The current user's permissions and the admin pages they open (spec §6): the root administrator
 * holds every permission.
 */
export function permissionsOfUser(u: { id: number; is_root: boolean }) {
  const all = listPermissions();
  const mine = u.is_root ? all : (() => {
    const ids = new Set(grantsOf(u.id).ids);
    return all.filter((p) => ids.has(p.id));
  })();
  const permissionList = mine.map((p) => ({ id: p.id, method: p.method, path: p.path, title: p.title, category: p.category, page: p.page }));
  const allowPages = u.is_root ? [...new Set(all.filter((p) => p.id > 0 && p.page).map((p) => p.page))].sort() : grantsOf(u.id).allowPages;
  return { permission: permissionList, allow_pages: allowPages, is_root: u.is_root };
}
