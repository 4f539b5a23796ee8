import { Hono } from "hono";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { navigation } from "#db/schema/site.ts";
import { adminPage } from "#src/http/adminOnly.ts";
import type { AppEnv } from "#src/http/context.ts";
import { validate } from "#src/lib/validate.ts";
import { crudRoutes, isAdmin } from "../crud/routes.ts";
import { boolQuery, pageQuery } from "../crud/schema.ts";
import { renderTablePage } from "../page.tsx";
import { navigationCreate, navigationUpdate } from "./schema.ts";
import { navigationService as svc } from "./service.ts";

export const navigationRoutes = new Hono<AppEnv>();
navigationRoutes.route("/", crudRoutes("navigation", svc, { create: navigationCreate, update: navigationUpdate }));

const listQuery = z.object({ ...pageQuery(10_000), enable: boolQuery });

/** Public: visitors get enabled entries only; admins see all and may filter by enable. */
function listNavigation(admin: boolean, q: z.infer<typeof listQuery>) {
  const enable = admin ? q.enable : true;
  const { total, rows } = svc.list({ where: [enable === undefined ? undefined : eq(navigation.enable, enable)], page: q.page, size: q.size });
  return { total, navigation: rows };
}

navigationRoutes.get("/api/v1/navigation/list", validate("query", listQuery), (c) => c.json(listNavigation(isAdmin(c, "navigation"), c.req.valid("query"))));

const TARGETS = [{ value: "", label: "默认" }, { value: "_blank", label: "新窗口 _blank" }, { value: "_self", label: "当前窗口 _self" }];

navigationRoutes.get("/admin/navigation", adminPage, (c) => {
  const initial = listNavigation(true, { page: 1, size: 1000, enable: undefined });
  return renderTablePage(c, {
    title: "导航管理",
    active: "navigation",
    intro: <p>顶部导航栏中「首页」「文档分类」「文章资讯」是固定项，这里管理其后的自定义导航；以 http(s) 开头的链接按外部链接打开。</p>,
    table: {
      entity: "navigation", listPath: "/navigation/list", listKey: "navigation", pageSize: 1000, canCreate: true, toggle: "enable", parentField: "parent_id",
      initial: { total: initial.total, rows: initial.navigation },
      columns: [
        { key: "id", label: "ID", width: 60 },
        { key: "title", label: "名称" },
        { key: "href", label: "链接" },
        { key: "parent_id", label: "上级导航", kind: "parent" },
        { key: "color", label: "颜色", kind: "color" },
        { key: "target", label: "打开方式", kind: "option", options: TARGETS },
        { key: "sort", label: "排序", width: 70 },
        { key: "enable", label: "启用", width: 70 },
      ],
      fields: [
        { name: "title", label: "标题", kind: "text", required: true, maxLength: 32 },
        { name: "href", label: "链接地址", kind: "text", placeholder: "站内路径如 /category，或 https:// 开头的外部链接" },
        { name: "parent_id", label: "上级导航", kind: "select" },
        { name: "target", label: "打开方式", kind: "select", options: TARGETS },
        { name: "color", label: "颜色", kind: "color" },
        { name: "sort", label: "排序", kind: "number", help: "数字越小越靠前" },
        { name: "enable", label: "启用", kind: "switch" },
        { name: "description", label: "描述", kind: "textarea", maxLength: 255 },
      ],
      defaults: { title: "", href: "", parent_id: 0, target: "", color: "", sort: 0, enable: true, description: "" },
    },
  });
});
