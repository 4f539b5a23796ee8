import { eq, inArray } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { navigation } from "#db/schema/site.ts";
import { badRequest } from "#src/lib/errors.ts";
import { crudService } from "../crud/service.ts";

/** The parent must exist, and walking up from it must never reach the row itself. */
function checkParent(row: Record<string, unknown>, id: number | null) {
  let parent = Number(row.parent_id ?? 0);
  if (!parent) return;
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
