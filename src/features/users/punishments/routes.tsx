import { Hono } from "hono";
import { adminApi, adminPage } from "#src/http/adminOnly.ts";
import type { AppContext, AppEnv } from "#src/http/context.ts";
import { idsFrom } from "#src/features/admin/crud/routes.ts";
import { idQuery } from "#src/features/admin/crud/schema.ts";
import { withDateRange } from "#src/features/admin/crud/schema.ts";
import { renderTablePage } from "#src/features/admin/page.tsx";
import { unauthorized } from "#src/lib/errors.ts";
import { formatDateTime } from "#src/lib/format.ts";
import { validate } from "#src/lib/validate.ts";
import { punishmentCreate, punishmentListQuery, punishmentUpdate } from "./schema.ts";
import { createPunishments, deletePunishments, getPunishment, listPunishments, updatePunishment, type PunishmentQuery } from "./service.ts";
import { PUNISHMENT_TYPES } from "./types.ts";

export const punishmentRoutes = new Hono<AppEnv>();

const actor = (c: AppContext) => {
  const u = c.get("user");
  if (!u) throw unauthorized();
  return u;
};

/** Rows as the admin table shows them: the end time spelled out, 永久 when there is none. */
function list(q: PunishmentQuery) {
  const r = listPunishments(q);
  return { total: r.total, punishment: r.punishment.map((p) => ({ ...p, until: p.end_time ? formatDateTime(p.end_time) : "永久" })) };
}

punishmentRoutes.get("/api/v1/punishment/list", adminApi, validate("query", punishmentListQuery), (c) => c.json(list(withDateRange(c.req.valid("query")))));
punishmentRoutes.get("/api/v1/punishment", adminApi, validate("query", idQuery), (c) => c.json(getPunishment(c.req.valid("query").id)));
punishmentRoutes.post("/api/v1/punishment", adminApi, validate("json", punishmentCreate), (c) => {
  const rows = createPunishments(c.req.valid("json"), actor(c));
  return c.json({ message: "处罚已添加", punishment: rows });
});
punishmentRoutes.put("/api/v1/punishment", adminApi, validate("json", punishmentUpdate), (c) => {
  const { id, ...patch } = c.req.valid("json");
  return c.json(updatePunishment(id, patch, actor(c)));
});
punishmentRoutes.delete("/api/v1/punishment", adminApi, async (c) => c.json({ message: "删除成功", deleted: deletePunishments(await idsFrom(c)) }));

punishmentRoutes.get("/admin/user/punishment", adminPage, (c) => {
  const initial = list({ page: 1, size: 20 });
  const types = PUNISHMENT_TYPES.map((t) => ({ value: t.value, label: t.label }));
  return renderTablePage(c, {
    title: "惩罚管理",
    active: "user/punishment",
    intro: <p>禁用账号会立即让该用户下线并无法登录；其余处罚在对应操作时拦截。结束时间留空表示永久，到期后自动解除。</p>,
    table: {
      entity: "punishment", listPath: "/punishment/list", listKey: "punishment", pageSize: 20, canCreate: true, toggle: "enable", dateRange: "处罚时间",
      keyword: { name: "wd", placeholder: "搜索用户名或原因" },
      filters: [{ name: "type", label: "处罚类型", options: types }],
      initial: { total: initial.total, rows: initial.punishment },
      columns: [
        { key: "id", label: "ID", width: 60 },
        { key: "username", label: "用户" },
        { key: "type", label: "类型", kind: "option", options: types },
        { key: "reason", label: "原因" },
        { key: "enable", label: "启用", width: 70 },
        { key: "in_force", label: "生效中", kind: "bool", width: 80 },
        { key: "start_time", label: "开始时间", kind: "datetime" },
        { key: "until", label: "解除时间" },
        { key: "operators", label: "操作人" },
      ],
      fields: [
        { name: "user_id", label: "用户", kind: "lookup", required: true, createOnly: true, lookup: { path: "/user/list", key: "user", query: "wd", label: "username" }, help: "输入用户名或用户 ID 搜索" },
        { name: "type", label: "处罚类型", kind: "multiselect", required: true, createOnly: true, options: types, help: "可多选，每种类型各记一条" },
        { name: "reason", label: "处罚原因", kind: "textarea", maxLength: 255, help: "会展示给被处罚的用户" },
        { name: "start_time", label: "开始时间", kind: "datetime", help: "留空表示立即生效" },
        { name: "end_time", label: "结束时间", kind: "datetime", help: "留空表示永久" },
        { name: "enable", label: "启用", kind: "switch" },
        { name: "remark", label: "备注", kind: "textarea", maxLength: 1000, help: "仅管理员可见" },
      ],
      defaults: { user_id: "", type: [], reason: "", start_time: null, end_time: null, enable: true, remark: "" },
    },
  });
});
