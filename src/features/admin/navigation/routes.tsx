import { Hono } from "hono";
import { z } from "zod";
import { adminPage } from "#src/http/adminOnly.ts";
import type { AppEnv } from "#src/http/context.ts";
import { validate } from "#src/lib/validate.ts";
import { crudRoutes, isAdmin } from "../crud/routes.ts";
import { boolQuery, pageQuery } from "../crud/schema.ts";
import { renderTablePage } from "../page.tsx";
import { navigationCreate, navigationUpdate } from "./schema.ts";
import { navigationService as svc, navigationTree } from "./service.ts";

export const navigationRoutes = new Hono<AppEnv>();
navigationRoutes.route("/", crudRoutes("navigation", svc, { create: navigationCreate, update: navigationUpdate }));

const listQuery = z.object({ ...pageQuery(10_000), enable: boolQuery });

/**
 * A tree: top-level entries with `children`, paged over the top level. Visitors get enabled entries
 * only (a hidden entry hides its children); admins see all and may filter by enable.
 */
function listNavigation(admin: boolean, q: z.infer<typeof listQuery>) {
  return admin ? navigationTree({ enable: q.enable, page: q.page, size: q.size }) : navigationTree({ enable: true, publicOnly: true, page: q.page, size: q.size });
}

navigationRoutes.get("/api/v1/navigation/list", validate("query", listQuery), (c) => c.json(listNavigation(isAdmin(c, "navigation"), c.req.valid("query"))));

const FIXED_KINDS = [{ value: "", label: "自定义" }, { value: "home", label: "固定：首页" }, { value: "category", label: "固定：文档分类" }, { value: "article", label: "固定：文章分类" }];
const TARGETS = [{ value: "", label: "默认" }, { value: "_blank", label: "新窗口 _blank" }, { value: "_self", label: "当前窗口 _self" }];

navigationRoutes.get("/admin/navigation", adminPage, (c) => {
  const initial = listNavigation(true, { page: 1, size: 1000, enable: undefined });
  return renderTablePage(c, {
    title: "导航管理",
    active: "navigation",
    intro: <p>「首页」「文档分类」「文章资讯」是固定导航：可以改名、调整排序或禁用，不能删除，悬停时显示分类卡片。其余是自定义导航，可以有下级导航；以 http(s) 开头的链接按外部链接打开。</p>,
    table: {
      entity: "navigation", listPath: "/navigation/list", listKey: "navigation", pageSize: 1000, canCreate: true, toggle: "enable", parentField: "parent_id", tree: true,
      locked: { field: "fixed", fields: ["title", "color", "sort", "enable", "description"] },
      initial: { total: initial.total, rows: initial.navigation },
      columns: [
        { key: "id", label: "ID", width: 60 },
        { key: "title", label: "名称" },
        { key: "href", label: "链接" },
        { key: "parent_id", label: "上级导航", kind: "parent" },
        { key: "fixed", label: "类型", kind: "option", options: FIXED_KINDS, width: 90 },
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
