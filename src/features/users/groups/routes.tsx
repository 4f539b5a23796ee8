import { Hono } from "hono";
import { adminApi, adminPage } from "#src/http/adminOnly.ts";
import type { AppEnv } from "#src/http/context.ts";
import { idsFrom, isAdmin } from "#src/features/admin/crud/routes.ts";
import { idQuery } from "#src/features/admin/crud/schema.ts";
import { renderAdmin } from "#src/features/admin/page.tsx";
import { Island } from "#src/views/Island.tsx";
import AdminTable from "#islands/admin/AdminTable.tsx";
import AdminPermissionPicker from "#islands/admin/AdminPermissionPicker.tsx";
import { validate } from "#src/lib/validate.ts";
import { permissionCategories } from "../permissions/service.ts";
import { groupCreate, groupListQuery, groupPermissionBody, groupUpdate } from "./schema.ts";
import { createGroup, deleteGroups, getGroup, listGroups, permissionsOfGroup, setPermissionsOfGroup, updateGroup } from "./service.ts";

export const groupRoutes = new Hono<AppEnv>();

groupRoutes.get("/api/v1/group/list", validate("query", groupListQuery), (c) => c.json(listGroups(c.req.valid("query"), isAdmin(c, "group"))));
groupRoutes.get("/api/v1/group", adminApi, validate("query", idQuery), (c) => c.json(getGroup(c.req.valid("query").id)));
groupRoutes.post("/api/v1/group", adminApi, validate("json", groupCreate), (c) => c.json(createGroup(c.req.valid("json"))));
groupRoutes.put("/api/v1/group", adminApi, validate("json", groupUpdate), (c) => {
  const { id, ...patch } = c.req.valid("json");
  return c.json(updateGroup(id, patch));
});
groupRoutes.delete("/api/v1/group", adminApi, async (c) => c.json({ message: "删除成功", deleted: deleteGroups(await idsFrom(c)) }));
groupRoutes.get("/api/v1/group/permission", adminApi, validate("query", idQuery), (c) => c.json(permissionsOfGroup(c.req.valid("query").id)));
groupRoutes.put("/api/v1/group/permission", adminApi, validate("json", groupPermissionBody), (c) => {
  const { id, permission_id } = c.req.valid("json");
  return c.json({ message: "权限已保存", ...setPermissionsOfGroup(id, permission_id) });
});

const FLAGS = [
  ["is_default", "默认分组", "新注册用户自动加入默认分组；只能有一个"],
  ["is_display", "公开展示", "在用户主页等处展示该分组"],
  ["enable_upload", "允许上传文档", ""],
  ["enable_document_review", "文档需审核", "开启后上传的文档审核通过才公开"],
  ["enable_comment", "允许评论", ""],
  ["enable_comment_approval", "评论需审核", ""],
  ["enable_article", "允许发布文章", ""],
  ["enable_article_approval", "文章需审核", ""],
] as const;

// The AI limit columns show -1 as 不限.
const UNLIMITED = [{ value: -1, label: "不限" }];

groupRoutes.get("/admin/user/group", adminPage, (c) => {
  const initial = listGroups({ page: 1, size: 1000 }, true);
  return renderAdmin(c, {
    title: "用户组",
    active: "user/group",
    children: (
      <section className="adm-card">
        <div className="adm-intro"><p>用户组决定成员能做什么：上传、评论、发布文章及是否需要审核；点「权限」为分组分配后台权限。超级管理员分组拥有全部权限。</p></div>
        <Island name="AdminTable" component={AdminTable} props={{
          entity: "group", listPath: "/group/list", listKey: "group", pageSize: 1000, canCreate: true, toggle: "is_display",
          rowActions: [{ label: "权限", event: "adm:group-permission" }],
          initial: { total: initial.total, rows: initial.group },
          columns: [
            { key: "id", label: "ID", width: 60 },
            { key: "title", label: "名称" },
            { key: "color", label: "颜色", kind: "color" },
            { key: "user_count", label: "用户数", width: 80 },
            { key: "is_default", label: "默认", kind: "bool", width: 70 },
            { key: "is_display", label: "展示", width: 70 },
            { key: "enable_upload", label: "上传", kind: "bool", width: 70 },
            { key: "enable_comment", label: "评论", kind: "bool", width: 70 },
            { key: "enable_article", label: "文章", kind: "bool", width: 70 },
            { key: "ai_questions_per_day", label: "AI 提问/日", kind: "option", options: UNLIMITED, width: 90 },
            { key: "ai_tokens_per_month", label: "AI tokens/月", kind: "option", options: UNLIMITED, width: 110 },
            { key: "sort", label: "排序", width: 70 },
            { key: "description", label: "描述" },
          ],
          fields: [
            { name: "title", label: "名称", kind: "text", required: true, maxLength: 32 },
            { name: "color", label: "颜色", kind: "color" },
            { name: "sort", label: "排序", kind: "number", help: "数字越小越靠前" },
            ...FLAGS.map(([name, label, help]) => ({ name, label, kind: "switch" as const, help: help || undefined })),
            { name: "ai_questions_per_day", label: "每日 AI 提问次数（-1 不限）", kind: "number", help: "成员每天可以向 AI 提问的次数；0 表示不能使用 AI。属于多个分组时取最大值" },
            { name: "ai_tokens_per_month", label: "每月 AI token 额度（-1 不限）", kind: "number", help: "成员每个自然月可用的 token 总数（提问与回答合计）" },
            { name: "description", label: "描述", kind: "textarea", maxLength: 255 },
          ],
          defaults: { title: "", color: "", sort: 0, description: "", is_default: false, is_display: false, enable_upload: true, enable_document_review: true, enable_comment: true, enable_comment_approval: true, enable_article: true, enable_article_approval: true, ai_questions_per_day: 50, ai_tokens_per_month: 1_000_000 },
        }} />
        <Island name="AdminPermissionPicker" component={AdminPermissionPicker} props={{ categories: permissionCategories(), event: "adm:group-permission" }} />
      </section>
    ),
  });
});
