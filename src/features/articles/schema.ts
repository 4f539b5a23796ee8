import { z } from "zod";
import { dateRangeQuery, idField, pageQuery } from "#src/features/admin/crud/schema.ts";

/** The article.max_content_length setting may be raised up to this; the body limit of the API is 1 MB anyway. */
export const CONTENT_HARD_MAX = 200_000;

const text = (label: string, max: number) => z.string({ error: `${label}必须是文本` }).trim().max(max, `${label}不能超过 ${max} 个字符`);

export const titleField = z.string({ error: "请输入文章标题" }).trim().min(1, "请输入文章标题").max(100, "文章标题不能超过 100 个字符");
export const contentField = z.string({ error: "请输入文章内容" }).max(CONTENT_HARD_MAX, `文章内容不能超过 ${CONTENT_HARD_MAX} 个字符`)
  .refine((s) => s.trim().length > 0, "请输入文章内容");

const categoryId = z.number({ error: "文章分类不正确" }).int("文章分类不正确").positive("文章分类不正确");
/** A root → leaf path (cascader value), one id, or [] for no category. */
export const categoryIds = z.preprocess(
  // 0, "" and null mean "no category" (a select's empty option), like [].
  (v) => (v === 0 || v === "" || v === null ? [] : v),
  z.union([categoryId, z.array(categoryId, { error: "文章分类不正确" }).max(16, "分类层级过多")], { error: "文章分类不正确" }),
).transform((v) => (Array.isArray(v) ? v : [v]));

export const IDENTIFIER = /^[a-z0-9](?:[a-z0-9_-]{0,62}[a-z0-9])?$/;
export const identifierField = z.string({ error: "文章标识必须是文本" }).trim().toLowerCase()
  .regex(IDENTIFIER, "文章标识只能包含小写字母、数字、- 和 _，1 到 64 个字符，且不能以 - 或 _ 开头或结尾");

export const createBody = z.object({
  title: titleField,
  content: contentField,
  category_id: categoryIds.default([]),
  keywords: text("关键词", 255).optional(),
  description: text("文章摘要", 500).optional(),
  cover: text("封面地址", 512).optional(),
  /** administrators may name the article (e.g. "about"); everyone else gets a generated one */
  identifier: identifierField.optional(),
});
export type CreateBody = z.infer<typeof createBody>;

export const updateBody = z.object({
  id: idField,
  title: titleField.optional(),
  content: contentField.optional(),
  category_id: categoryIds.optional(),
  keywords: text("关键词", 255).optional(),
  description: text("文章摘要", 500).optional(),
  cover: text("封面地址", 512).optional(),
  identifier: identifierField.optional(),
});
export type UpdateBody = z.infer<typeof updateBody>;

export const getQuery = z.object({ id: idField.optional(), identifier: z.string().trim().toLowerCase().max(64, "文章标识不正确").optional() })
  .refine((q) => q.id !== undefined || !!q.identifier, { message: "请指定文章 ID 或标识" });

export const ORDER_FIELDS = ["id", "created_at", "updated_at", "view_count", "favorite_count", "comment_count", "recommend_at"] as const;
const intList = (label: string, max: number) => z.union([z.coerce.number(), z.array(z.coerce.number())]).optional()
  .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]))
  .refine((a) => a.every((n) => Number.isInteger(n) && n >= 0 && n <= max), `${label}不正确`);

export const listQuery = z.object({
  ...pageQuery(20),
  wd: z.string().trim().max(64, "关键词不能超过 64 个字符").optional(),
  status: intList("文章状态", 2),
  category_id: z.coerce.number({ error: "分类不正确" }).int("分类不正确").min(0, "分类不正确").optional(),
  user_id: z.coerce.number({ error: "用户 ID 不正确" }).int("用户 ID 不正确").min(0, "用户 ID 不正确").optional(),
  is_recommend: z.enum(["true", "false", "1", "0"], { error: "推荐筛选只能是 true 或 false" }).transform((v) => v === "true" || v === "1").optional(),
  order: z.string().trim().regex(new RegExp(`^(${ORDER_FIELDS.join("|")})( (asc|desc))?$`), "排序方式不正确").optional(),
  ...dateRangeQuery,
});
export type ListQuery = z.infer<typeof listQuery>;

const idList = z.array(idField, { error: "请选择文章" }).min(1, "请选择文章").max(1000, "一次最多操作 1000 篇文章");

export const checkBody = z.object({
  id: idList,
  status: z.union([z.literal(0), z.literal(1), z.literal(2)], { error: "审核状态只能是 0（待审核）、1（通过）或 2（拒绝）" }),
  reason: text("拒绝原因", 255).optional(),
}).refine((b) => b.status !== 2 || !!b.reason, { message: "请填写拒绝原因", path: ["reason"] });

export const recommendBody = z.object({ id: idList, type: z.union([z.literal(0), z.literal(1), z.literal(2)], { error: "推荐类型只能是 0（取消）、1（推荐）或 2（重新推荐）" }) });
export const restoreBody = z.object({ id: idList });
export const recycleListQuery = z.object({ ...pageQuery(20), wd: z.string().trim().max(64, "关键词不能超过 64 个字符").optional() });

export const articleIdField = z.coerce.number({ error: "文章 ID 不正确" }).int("文章 ID 不正确").positive("文章 ID 不正确");
export const favoriteBody = z.object({ article_id: articleIdField });
export const previewBody = z.object({ content: z.string({ error: "请输入文章内容" }).max(CONTENT_HARD_MAX, `文章内容不能超过 ${CONTENT_HARD_MAX} 个字符`) });

// Paged like the document favourites (GET /favorite/list), whose tab in /me/favorite it joins.
export const favoriteListQuery = z.object({
  page: z.coerce.number({ error: "页码不正确" }).int("页码不正确").min(1, "页码不正确").max(10_000, "页码不正确").default(1),
  size: z.coerce.number({ error: "每页数量不正确" }).int("每页数量不正确").min(1, "每页数量不正确").max(100, "每页最多 100 条").default(20),
});
