import { asc, desc, eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { vipPlan } from "#db/schema/orders.ts";
import { crudService } from "#src/features/admin/crud/service.ts";
import { badRequest } from "#src/lib/errors.ts";

export type VipPlan = typeof vipPlan.$inferSelect;

export const vipPlanService = crudService({
  table: vipPlan,
  defaults: { original_price: 0, benefits: "", enable: true, sort: 0 },
  check: (row) => {
    const price = Number(row.price);
    const original = Number(row.original_price ?? 0);
    if (original > 0 && original < price) throw badRequest("原价不能低于价格");
  },
});

/** Plans as /joinvip shows them: larger sort first, then by id. `enable` picks enabled or disabled ones. */
export function listPlans(opts: { enabledOnly?: boolean; enable?: boolean } = {}): VipPlan[] {
  const enable = opts.enabledOnly ? true : opts.enable;
  return getDb().select().from(vipPlan).where(enable === undefined ? undefined : eq(vipPlan.enable, enable))
    .orderBy(desc(vipPlan.sort), asc(vipPlan.id)).all();
}

export const planById = (id: number): VipPlan | undefined => getDb().select().from(vipPlan).where(eq(vipPlan.id, id)).get();
