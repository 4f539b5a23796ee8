import { Hono } from "hono";
import { z } from "zod";
import { crudRoutes, isAdmin } from "#src/features/admin/crud/routes.ts";
import { boolQuery, enableField, pageQuery, sortField, updateOf } from "#src/features/admin/crud/schema.ts";
import { renderTablePage } from "#src/features/admin/page.tsx";
import { adminPage } from "#src/http/adminOnly.ts";
import type { AppEnv } from "#src/http/context.ts";
import { validate } from "#src/lib/validate.ts";
import { languageService, listLanguages } from "./languages.ts";

// Document languages: the public list feeds the upload form; admins add, rename, sort and switch them.
const languageCreate = z.object({
  code: z.string({ error: "请输入语言代码" }).trim().min(1, "请输入语言代码").max(16, "语言代码不能超过 16 个字符")
    .regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/, "语言代码格式不正确，例如 zh、en、zh-TW"),
  name: z.string({ error: "请输入语言名称" }).trim().min(1, "请输入语言名称").max(32, "语言名称不能超过 32 个字符"),
  enable: enableField.optional(),
  sort: sortField.optional(),
});

export const languageRoutes = new Hono<AppEnv>();
languageRoutes.route("/", crudRoutes("language", languageService, { create: languageCreate, update: updateOf(languageCreate) }));

const listQuery = z.object({ ...pageQuery(100), enable: boolQuery });

languageRoutes.get("/api/v1/language/list", validate("query", listQuery), (c) => {
  const q = c.req.valid("query");
  return c.json(listLanguages({ admin: isAdmin(c, "language"), enable: q.enable, page: q.page, size: q.size }));
});

languageRoutes.get("/admin/document/language", adminPage, (c) => {
  const initial = listLanguages({ admin: true, page: 1, size: 100 });
  return renderTablePage(c, {
    title: "语言管理",
    active: "document/language",
    intro: <p>启用的语言会出现在上传页的“语言”选项中。已有文档使用的语言不能删除，可以改为停用。</p>,
    table: {
      entity: "language", listPath: "/language/list", listKey: "language", pageSize: 100, canCreate: true, toggle: "enable",
      initial: { total: initial.total, rows: initial.language as { id: number }[] },
      columns: [
        { key: "id", label: "ID", width: 60 },
        { key: "code", label: "语言代码", kind: "code", width: 120 },
        { key: "name", label: "语言名称" },
        { key: "sort", label: "排序", width: 70 },
        { key: "enable", label: "启用", width: 70 },
        { key: "created_at", label: "创建时间", kind: "datetime" },
      ],
      fields: [
        { name: "code", label: "语言代码", kind: "text", required: true, maxLength: 16, placeholder: "如 zh、en、zh-TW", help: "文档记录的是语言代码，创建后请勿随意修改" },
        { name: "name", label: "语言名称", kind: "text", required: true, maxLength: 32, placeholder: "如 中文" },
        { name: "sort", label: "排序", kind: "number", help: "数字越小越靠前" },
        { name: "enable", label: "启用", kind: "switch" },
      ],
      defaults: { code: "", name: "", sort: 0, enable: true },
    },
  });
});
