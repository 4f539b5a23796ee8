import { and, asc, eq, inArray } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { navigation } from "#db/schema/site.ts";
import { badRequest } from "#src/lib/errors.ts";
import { crudService } from "../crud/service.ts";

export const FIXED_ONLY = "固定导航只能修改名称、颜色、排序、启用状态和描述";

/**
 * The parent must exist, and walking up from it must never reach the row itself. Fixed entries
 * (spec §3 `fixed`: home, document categories, article categories) keep their link and stay at the
 * top level, and cannot be parents: they open the category card, not a list of children.
 */
function checkParent(row: Record<string, unknown>, id: number | null) {
  if (id) {
    const current = getDb().select({ fixed: navigation.fixed, href: navigation.href }).from(navigation).where(eq(navigation.id, id)).get();
    if (current?.fixed && (row.href !== current.href || Number(row.parent_id ?? 0) !== 0)) throw badRequest(FIXED_ONLY);
  }
  let parent = Number(row.parent_id ?? 0);
  if (!parent) return;
  const parentRow = getDb().select({ fixed: navigation.fixed }).from(navigation).where(eq(navigation.id, parent)).get();
  if (parentRow?.fixed) throw badRequest("固定导航不能有下级导航");
  if (parent === id) throw badRequest("上级导航不能是自己");
  const parents = new Map(getDb().select({ id: navigation.id, parent_id: navigation.parent_id }).from(navigation).all().map((n) => [n.id, n.parent_id]));
  if (!parents.has(parent)) throw badRequest("上级导航不存在");
  // Bounded by the row count, so a cycle already in the data cannot loop forever.
  for (let steps = 0; parent && steps <= parents.size; steps++) {
    if (parent === id) throw badRequest("上级导航不能是自己的下级");
    parent = parents.get(parent) ?? 0;
  }
}

export const navigationService = crudService({
  table: navigation,
  defaults: { href: "", target: "", color: "", sort: 0, enable: true, parent_id: 0, description: "" },
  check: checkParent,
  // Children of a deleted entry move up to its parent instead of pointing at nothing.
  beforeDelete(ids) {
    const db = getDb();
    const fixed = db.select({ title: navigation.title }).from(navigation).where(and(inArray(navigation.id, ids), inArray(navigation.fixed, ["home", "category", "article"]))).get();
    if (fixed) throw badRequest(`「${fixed.title}」是固定导航，不能删除，可以禁用`);
    const gone = db.select({ id: navigation.id, parent_id: navigation.parent_id }).from(navigation).where(inArray(navigation.id, ids)).all();
    const goneIds = new Set(ids);
    const parentOf = new Map(gone.map((g) => [g.id, g.parent_id]));
    for (const g of gone) {
      let up = g.parent_id;
      for (let steps = 0; goneIds.has(up) && steps <= ids.length; steps++) up = parentOf.get(up) ?? 0;
      if (goneIds.has(up)) up = 0;
      db.update(navigation).set({ parent_id: up, updated_at: Date.now() }).where(eq(navigation.parent_id, g.id)).run();
    }
  },
});

export type NavRow = typeof navigation.$inferSelect;
export type NavNode = NavRow & { children: NavNode[] };

/**
 * The navigation as a tree (spec §7 list answers `children`), ordered by sort then id, paged over
 * the top-level entries. `enable` filters every level; with `publicOnly` the children of a hidden
 * entry are hidden too, otherwise (admin filters) they show at the top level so none is lost.
 */
export function navigationTree(q: { enable?: boolean; publicOnly?: boolean; page?: number; size?: number }): { total: number; navigation: NavNode[] } {
  const rows = getDb().select().from(navigation).where(q.enable === undefined ? undefined : eq(navigation.enable, q.enable)).orderBy(asc(navigation.sort), asc(navigation.id)).all();
  const byId = new Map(rows.map((r) => [r.id, { ...r, children: [] as NavNode[] }]));
  const roots: NavNode[] = [];
  for (const n of byId.values()) {
    const parent = n.parent_id ? byId.get(n.parent_id) : undefined;
    if (parent) parent.children.push(n);
    else if (!n.parent_id || !q.publicOnly) roots.push(n);
  }
  const size = q.size ?? 10_000;
  const page = q.page ?? 1;
  return { total: roots.length, navigation: roots.slice((page - 1) * size, page * size) };
}
