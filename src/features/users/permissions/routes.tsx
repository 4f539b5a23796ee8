import { Hono } from "hono";
import { z } from "zod";
import { adminApi, adminPage } from "#src/http/adminOnly.ts";
import type { AppEnv } from "#src/http/context.ts";
import { descriptionField, idField, pageQuery } from "#src/features/admin/crud/schema.ts";
import { renderTablePage } from "#src/features/admin/page.tsx";
import { validate } from "#src/lib/validate.ts";
import { categoryOptions, listPermissionPage, updatePermission } from "./service.ts";

export const permissionAdminRoutes = new Hono<AppEnv>();

const listQuery = z.object({
  ...pageQuery(1000),
  wd: z.string().trim().max(64, "关键词不能超过 64 个字符").optional(),
  category: z.string().trim().max(64, "分类不正确").optional(),
});

const updateBody = z.object({
  id: idField,
  title: z.string({ error: "请输入权限名称" }).trim().min(1, "请输入权限名称").max(64, "权限名称不能超过 64 个字符").optional(),
  description: descriptionField(255).optional(),
});

permissionAdminRoutes.get("/api/v1/permission/list", adminApi, validate("query", listQuery), (c) => c.json(listPermissionPage(c.req.valid("query"))));
permissionAdminRoutes.put("/api/v1/permission", adminApi, validate("json", updateBody), (c) => {
  const { id, ...patch } = c.req.valid("json");
  return c.json(updatePermission(id, patch));
});

permissionAdminRoutes.get("/admin/user/permission", adminPage, (c) => {
  const initial = listPermissionPage({ page: 1, size: 50 });
  return renderTablePage(c, {
    title: "权限管理",
    active: "user/permission",
    intro: <p>每个管理接口自动登记为一项权限（请求方法 + 路径），按分类归入后台页面；这里只能修改名称和描述。给用户组分配权限请到「用户组」。</p>,
    table: {
      entity: "permission", listPath: "/permission/list", listKey: "permission", pageSize: 50, canCreate: false, canDelete: false,
      keyword: { name: "wd", placeholder: "搜索名称或路径" },
      filters: [{ name: "category", label: "分类", options: categoryOptions() }],
      initial: { total: initial.total, rows: initial.permission },
      columns: [
        { key: "id", label: "ID", width: 60 },
        { key: "title", label: "名称" },
        { key: "category_label", label: "分类" },
        { key: "method", label: "方法", kind: "code", width: 80 },
        { key: "path", label: "路径", kind: "code" },
        { key: "page", label: "后台页面", kind: "code" },
        { key: "description", label: "描述" },
      ],
      fields: [
        { name: "title", label: "名称", kind: "text", required: true, maxLength: 64 },
        { name: "description", label: "描述", kind: "textarea", maxLength: 255 },
      ],
      defaults: { title: "", description: "" },
    },
  });
});
