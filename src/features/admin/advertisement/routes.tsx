import { Hono } from "hono";
import { z } from "zod";
import { adminPage } from "#src/http/adminOnly.ts";
import type { AppEnv } from "#src/http/context.ts";
import { badRequest, forbidden, unauthorized } from "#src/lib/errors.ts";
import { validate } from "#src/lib/validate.ts";
import { crudRoutes, isAdmin } from "../crud/routes.ts";
import { boolQuery, pageQuery } from "../crud/schema.ts";
import { renderTablePage } from "../page.tsx";
import { AD_POSITIONS, POSITION_VALUES } from "./positions.ts";
import { advertisementCreate, advertisementUpdate } from "./schema.ts";
import { advertisementService as svc, listAllAds } from "./service.ts";
import { adsFor } from "#src/features/site/layoutData.ts";

export const advertisementRoutes = new Hono<AppEnv>();
advertisementRoutes.route("/", crudRoutes("advertisement", svc, { create: advertisementCreate, update: advertisementUpdate }));

advertisementRoutes.get("/api/v1/advertisement/position", (c) => c.json({ position: AD_POSITIONS }));

const listQuery = z.object({ ...pageQuery(20), all: boolQuery, position: z.union([z.string(), z.array(z.string())]).optional() });

/**
 * Visitors: enabled ads of the repeated `position` params inside their time window.
 * `all=1` is the admin list (every ad, paged, with total).
 */
advertisementRoutes.get("/api/v1/advertisement/list", validate("query", listQuery), (c) => {
  const q = c.req.valid("query");
  const positions = (c.req.queries("position") ?? []).flatMap((p) => p.split(",")).filter(Boolean);
  if (positions.some((p) => !POSITION_VALUES.includes(p))) throw badRequest("广告位置无效");
  if (q.all) {
    if (!c.get("user")) throw unauthorized();
    if (!isAdmin(c, "advertisement")) throw forbidden();
    return c.json(listAllAds({ positions, page: q.page, size: q.size }));
  }
  return c.json({ advertisement: adsFor(positions) });
});

const GROUPS = AD_POSITIONS.map((g) => ({ label: g.label, options: g.children }));
const OPTIONS = AD_POSITIONS.flatMap((g) => g.children);

advertisementRoutes.get("/admin/advertisement", adminPage, (c) => {
  const initial = listAllAds({ positions: [], page: 1, size: 20 });
  return renderTablePage(c, {
    title: "广告管理",
    active: "advertisement",
    intro: <p>广告内容为 HTML，出于安全原因其中的脚本不会执行；开始、结束时间留空表示不限。VIP 用户不显示广告。</p>,
    table: {
      entity: "advertisement", listPath: "/advertisement/list", listKey: "advertisement", baseQuery: { all: 1 }, pageSize: 20, canCreate: true, toggle: "enable",
      filter: { name: "position", label: "位置", options: OPTIONS },
      initial: { total: initial.total, rows: initial.advertisement },
      columns: [
        { key: "id", label: "ID", width: 60 },
        { key: "title", label: "标题" },
        { key: "position", label: "位置", kind: "option", options: OPTIONS },
        { key: "content", label: "内容", kind: "code" },
        { key: "start_time", label: "开始时间", kind: "datetime" },
        { key: "end_time", label: "结束时间", kind: "datetime" },
        { key: "enable", label: "启用", width: 70 },
        { key: "remark", label: "备注" },
      ],
      fields: [
        { name: "title", label: "标题", kind: "text", required: true, maxLength: 64 },
        { name: "position", label: "广告位置", kind: "select", required: true, groups: GROUPS },
        { name: "content", label: "广告内容", kind: "textarea", required: true, placeholder: "HTML，如 <a href=\"https://...\"><img src=\"...\"></a>" },
        { name: "start_time", label: "开始时间", kind: "datetime", help: "留空表示立即生效" },
        { name: "end_time", label: "结束时间", kind: "datetime", help: "留空表示长期有效" },
        { name: "enable", label: "启用", kind: "switch" },
        { name: "remark", label: "备注", kind: "text", maxLength: 255 },
      ],
      defaults: { title: "", position: "", content: "", start_time: null, end_time: null, enable: true, remark: "" },
    },
  });
});
