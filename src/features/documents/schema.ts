import { z } from "zod";
import { dateRangeQuery, idField, pageQuery } from "#src/features/admin/crud/schema.ts";

export const MAX_PRICE = 100_000;
/** Documents one create call may hold (the upload page sends one batch per selection). */
export const MAX_BATCH = 50;

const text = (label: string, max: number) => z.string({ error: `${label}必须是文本` }).trim().max(max, `${label}不能超过 ${max} 个字符`);

export const titleField = z.string({ error: "请输入文档标题" }).trim().min(1, "请输入文档标题").max(255, "文档标题不能超过 255 个字符");
export const priceField = z.number({ error: `价格必须是 0 到 ${MAX_PRICE} 之间的整数` }).int(`价格必须是 0 到 ${MAX_PRICE} 之间的整数`)
  .min(0, `价格必须是 0 到 ${MAX_PRICE} 之间的整数`).max(MAX_PRICE, `价格必须是 0 到 ${MAX_PRICE} 之间的整数`);
export const categoryField = z.number({ error: "请选择文档分类" }).int("请选择文档分类").positive("请选择文档分类");
export const languageField = z.string({ error: "请选择文档语言" }).trim().min(1, "请选择文档语言").max(16, "文档语言不正确");
const descriptionField = text("文档简介", 1000);
const keywordsField = text("关键词", 255);

/** One document of a create call; either the attachment id or, for an instant upload, the MD5. */
export const createItem = z.object({
  title: titleField,
  attachment_id: idField.optional(),
  hash: z.string({ error: "文件哈希格式不正确" }).trim().toLowerCase().optional(),
  /** the file name an instant upload records (the browser did not send the file) */
  name: z.string().max(1000).optional(),
  category_id: categoryField.optional(),
  price: priceField.default(0),
  language: languageField.optional(),
  description: descriptionField.optional(),
  keywords: keywordsField.optional(),
}).refine((d) => d.attachment_id !== undefined || !!d.hash, { message: "请先上传文档文件" });

/**
 * POST /document: MOREDOC's shape ({ category_id: [...], document: [...] }, the category chain
 * applying to every item) or per-item categories; `documents` is accepted as an alias.
 */
export const createBody = z.preprocess(
  (v) => (v && typeof v === "object" && !("document" in v) && "documents" in v ? { ...v, document: (v as { documents: unknown }).documents } : v),
  z.object({
    category_id: z.array(categoryField).max(32, "分类层级过多").optional(),
    document: z.array(createItem, { error: "请提交要创建的文档" }).min(1, "请提交要创建的文档").max(MAX_BATCH, `一次最多创建 ${MAX_BATCH} 篇文档`),
  }),
);
export type CreateBody = z.infer<typeof createBody>;

export const updateBody = z.object({
  id: idField,
  title: titleField.optional(),
  category_id: categoryField.optional(),
  price: priceField.optional(),
  language: languageField.optional(),
  description: descriptionField.optional(),
  keywords: keywordsField.optional(),
});
export type UpdateBody = z.infer<typeof updateBody>;

export const getQuery = z.object({ id: idField.optional(), uuid: z.string().regex(/^[0-9a-f]{32}$/i, "文档 UUID 不正确").optional() })
  .refine((q) => q.id !== undefined || q.uuid !== undefined, { message: "请指定文档 ID 或 UUID" });

const ORDER_FIELDS = ["id", "created_at", "updated_at", "view_count", "download_count", "favorite_count", "score", "price", "size", "pages", "recommend_at"] as const;
const intList = (label: string) => z.union([z.coerce.number(), z.array(z.coerce.number())]).optional()
  .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]))
  .refine((a) => a.every((n) => Number.isInteger(n) && n >= 0 && n <= 2 ** 31), `${label}不正确`);

export const listQuery = z.object({
  ...pageQuery(20),
  wd: z.string().trim().max(64, "关键词不能超过 64 个字符").optional(),
  status: intList("文档状态").refine((a) => a.every((n) => n <= 7), "文档状态不正确"),
  category_id: z.coerce.number({ error: "分类不正确" }).int("分类不正确").min(0, "分类不正确").optional(),
  user_id: z.coerce.number({ error: "用户 ID 不正确" }).int("用户 ID 不正确").min(0, "用户 ID 不正确").optional(),
  ext: z.string().trim().toLowerCase().regex(/^\.?[a-z0-9]{0,8}$/, "文件类型不正确").optional(),
  is_recommend: z.enum(["true", "false", "1", "0"], { error: "推荐筛选只能是 true 或 false" }).transform((v) => v === "true" || v === "1").optional(),
  order: z.string().trim().regex(new RegExp(`^(${ORDER_FIELDS.join("|")})( (asc|desc))?$`), "排序方式不正确").optional(),
  /** upload days (admin screen's date range): YYYY-MM-DD, Asia/Shanghai */
  ...dateRangeQuery,
});
export type ListQuery = z.infer<typeof listQuery>;

const idList = z.array(idField, { error: "请选择文档" }).min(1, "请选择文档").max(1000, "一次最多操作 1000 篇文档");

export const recommendBody = z.object({ id: idList, type: z.union([z.literal(0), z.literal(1), z.literal(2)], { error: "推荐类型只能是 0（取消）、1（推荐）或 2（重新推荐）" }) });
export const checkBody = z.object({
  id: idList,
  status: z.union([z.literal(2), z.literal(4), z.literal(7)], { error: "审核状态只能是 2（通过/启用）、4（禁用）或 7（拒绝）" }),
});
export const reconvertBody = z.object({ id: idList.optional(), all_failed: z.boolean().optional() })
  .refine((b) => !!b.id?.length || b.all_failed === true, { message: "请选择要重新转换的文档" });
export const restoreBody = z.object({ id: idList });
export const recycleListQuery = z.object({ ...pageQuery(20), wd: z.string().trim().max(64, "关键词不能超过 64 个字符").optional() });
