import { z } from "zod";

const int = (min: number, max: number, label: string) =>
  z.coerce.number({ message: `${label}必须是数字` }).int(`${label}必须是整数`).min(min, `${label}不能小于 ${min}`).max(max, `${label}不能大于 ${max}`);

/** GET /api/v1/search and /search: a bad filter is a clear 400 for the API. */
export const searchQuery = z.object({
  wd: z.string().max(200, "搜索词过长").optional().default("").transform((s) => s.trim().slice(0, 64)),
  type: z.coerce.number().pipe(z.union([z.literal(0), z.literal(1)], { message: "搜索类型只能是 0（文档）或 1（文章）" })).optional().default(0),
  page: int(1, 100_000, "页码").optional().default(1),
  size: int(1, 50, "每页数量").optional().default(10),
  category_id: int(1, Number.MAX_SAFE_INTEGER, "分类").optional(),
  ext: z.string().regex(/^\.?[a-zA-Z0-9]{1,10}$/, "文件类型格式不正确").optional(),
  sort: z.enum(["relevance", "latest", "downloads"], { message: "排序只能是 relevance、latest 或 downloads" }).optional().default("relevance"),
});
export type SearchQueryInput = z.infer<typeof searchQuery>;
