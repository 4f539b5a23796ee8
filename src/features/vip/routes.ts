import { Hono } from "hono";
import { z } from "zod";
import { crudRoutes, isAdmin } from "#src/features/admin/crud/routes.ts";
import { boolQuery, pageQuery } from "#src/features/admin/crud/schema.ts";
import type { AppEnv } from "#src/http/context.ts";
import { validate } from "#src/lib/validate.ts";
import { listPlans, vipPlanService } from "./plans.ts";
import { vipPlanCreate, vipPlanUpdate } from "./schema.ts";

/** VIP plans: admin CRUD at /api/v1/vip, and GET /api/v1/vip/list for /joinvip and the back office. */
export const vipRoutes = new Hono<AppEnv>();
vipRoutes.route("/", crudRoutes("vip", vipPlanService, { create: vipPlanCreate, update: vipPlanUpdate }));

const listQuery = z.object({ ...pageQuery(100), enable: boolQuery });

// Visitors see enabled plans only (asking for disabled ones answers nothing); whoever manages plans
// sees all and may filter by enable. Plans are a handful of rows: paging happens in memory.
vipRoutes.get("/api/v1/vip/list", validate("query", listQuery), (c) => {
  const q = c.req.valid("query");
  const admin = isAdmin(c, "vip");
  const rows = !admin && q.enable === false ? [] : listPlans({ enable: admin ? q.enable : true });
  return c.json({ total: rows.length, vip: rows.slice((q.page - 1) * q.size, q.page * q.size) });
});
