import { Hono } from "hono";
import { adminApi, adminPage, allowPagesOf } from "#src/http/adminOnly.ts";
import type { AppContext, AppEnv } from "#src/http/context.ts";
import { idsFrom } from "#src/features/admin/crud/routes.ts";
import { withDateRange } from "#src/features/admin/crud/schema.ts";
import { renderTablePage } from "#src/features/admin/page.tsx";
import { defaultGroupId } from "#src/features/auth/accounts.ts";
import { unauthorized } from "#src/lib/errors.ts";
import { validate } from "#src/lib/validate.ts";
import { grantsOf } from "#src/features/permissions/service.ts";
import { Island } from "#src/views/Island.tsx";
import AdminAiQuota from "#islands/ai/AdminAiQuota.tsx";
import { allGroupOptions, groupsOfUser } from "../groups/service.ts";
import { permissionsOfUser } from "../permissions/service.ts";
import { userCreate, userListQuery, userUpdate } from "./schema.ts";
import { createUserByAdmin, deleteUsersByAdmin, listUsers, updateUserByAdmin } from "./service.ts";

export const accountRoutes = new Hono<AppEnv>();

const me = (c: AppContext) => {
  const u = c.get("user");
  if (!u) throw unauthorized();
  return u;
};

// The signed-in user's own permissions and groups (spec §7); any logged-in user may ask.
accountRoutes.get("/api/v1/user/permission", (c) => c.json(permissionsOfUser(me(c))));
accountRoutes.get("/api/v1/user/group", (c) => c.json({ group: groupsOfUser(me(c).id) }));

accountRoutes.get("/api/v1/user/list", adminApi, validate("query", userListQuery), (c) => c.json(listUsers(withDateRange(c.req.valid("query")))));
accountRoutes.post("/api/v1/user", adminApi, validate("json", userCreate), async (c) => c.json(await createUserByAdmin(c.req.valid("json"), me(c))));
accountRoutes.put("/api/v1/user", adminApi, validate("json", userUpdate), async (c) => c.json(await updateUserByAdmin(c.req.valid("json"), me(c))));
accountRoutes.delete("/api/v1/user", adminApi, async (c) => c.json({ message: "删除成功", deleted: deleteUsersByAdmin(await idsFrom(c), me(c)) }));

// The menu group's own path opens the first of its screens this user may see.
const USER_PAGES = ["/admin/user/list", "/admin/user/group", "/admin/user/permission", "/admin/user/punishment", "/admin/user/sms"];
accountRoutes.get("/admin/user", (c) => {
  const pages = allowPagesOf(c.get("user"));
  return c.redirect(USER_PAGES.find((p) => pages === "all" || pages.includes(p)) ?? "/admin", 302);
});

accountRoutes.get("/admin/user/list", adminPage, (c) => {
  const initial = listUsers({ page: 1, size: 20 });
  const groups = allGroupOptions();
  const statuses = [{ value: 0, label: "正常" }, { value: 1, label: "禁用" }];
  // The AI 额度 dialog (features/ai): only for admins who may set quotas.
  const u = me(c);
  const quota = u.is_root || grantsOf(u.id).keys.has("POST /api/v1/user/ai/quota");
  return renderTablePage(c, {
    title: "用户列表",
    active: "user/list",
    intro: <><p>禁用账号会让该用户立即下线；编辑时密码留空表示不修改。超级管理员不能被禁用或删除。</p>{quota ? <Island name="AdminAiQuota" component={AdminAiQuota} props={{ event: "adm:ai-quota" }} /> : null}</>,
    table: {
      entity: "user", listPath: "/user/list", listKey: "user", pageSize: 20, canCreate: true, toggle: "enable", dateRange: "注册时间",
      rowActions: quota ? [{ label: "AI 额度", event: "adm:ai-quota" }] : undefined,
      keyword: { name: "wd", placeholder: "用户名、邮箱、手机号或姓名" },
      filters: [{ name: "group_id", label: "用户组", options: groups }, { name: "status", label: "状态", options: statuses }],
      initial: { total: initial.total, rows: initial.user },
      columns: [
        { key: "id", label: "ID", width: 60 },
        { key: "avatar", label: "头像", kind: "image", width: 80 },
        { key: "username", label: "用户名" },
        { key: "groups", label: "用户组", kind: "tags" },
        { key: "email", label: "邮箱" },
        { key: "mobile", label: "手机号" },
        { key: "credit_count", label: "积分", width: 70 },
        { key: "doc_count", label: "文档", width: 70 },
        { key: "enable", label: "启用", width: 70 },
        { key: "login_at", label: "最后登录", kind: "datetime" },
        { key: "last_login_ip", label: "登录 IP" },
        { key: "created_at", label: "注册时间", kind: "datetime" },
      ],
      fields: [
        { name: "username", label: "用户名", kind: "text", required: true, maxLength: 64, createOnly: true },
        { name: "password", label: "密码", kind: "password", maxLength: 128, required: "create", help: "至少 6 位；编辑时留空表示不修改" },
        { name: "group_id", label: "用户组", kind: "multiselect", options: groups },
        { name: "realname", label: "真实姓名", kind: "text", maxLength: 64 },
        { name: "email", label: "邮箱", kind: "text", maxLength: 128 },
        { name: "mobile", label: "手机号", kind: "text", maxLength: 11 },
        { name: "status", label: "状态", kind: "select", options: statuses },
      ],
      defaults: { username: "", password: "", group_id: [defaultGroupId()].filter(Boolean), realname: "", email: "", mobile: "", status: 0 },
    },
  });
});
