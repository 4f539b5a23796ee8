import { z } from "zod";
import { boolQuery, descriptionField, enableField, idField, pageQuery, siteOrHttpUrl, sortField } from "#src/features/admin/crud/schema.ts";

const typeField = z.union([z.literal(0), z.literal(1)], { error: "分类类型只能是 0（文档）或 1（文章）" });

export const categoryCreate = z.object({
  title: z.string({ error: "请输入分类名称" }).trim().min(1, "请输入分类名称").max(64, "分类名称不能超过 64 个字符"),
  parent_id: z.number({ error: "上级分类不正确" }).int("上级分类不正确").min(0, "上级分类不正确").optional(),
  type: typeField.optional(),
  icon: siteOrHttpUrl("图标地址").optional(),
  cover: siteOrHttpUrl("封面地址").optional(),
  sort: sortField.optional(),
  enable: enableField.optional(),
  description: descriptionField(500, "分类描述").optional(),
  show_description: z.boolean({ error: "是否显示描述必须是是或否" }).optional(),
});

export const categoryUpdate = categoryCreate.partial().extend({ id: idField });

/** Repeated `field` and `type` parameters (spec §7: "field list and type array"). */
const many = <T extends z.ZodType>(item: T) => z.preprocess((v) => (v === undefined || Array.isArray(v) ? v : [v]), z.array(item).max(100, "参数过多")).optional();

export const categoryListQuery = z.object({
  ...pageQuery(10_000),
  field: many(z.string().regex(/^[a-z_]{1,32}$/, "字段名不正确")),
  type: many(z.enum(["0", "1"], { error: "分类类型只能是 0（文档）或 1（文章）" }).transform(Number)),
  enable: boolQuery,
  parent_id: z.coerce.number({ error: "上级分类不正确" }).int("上级分类不正确").min(0, "上级分类不正确").optional(),
});

export type CategoryListQuery = z.infer<typeof categoryListQuery>;
