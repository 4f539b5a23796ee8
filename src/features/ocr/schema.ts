import { z } from "zod";
import { idField, pageQuery } from "#src/features/admin/crud/schema.ts";

// Parameters of the OCR admin API (/api/v1/ocr/*).

const statusList = z.union([z.coerce.number(), z.array(z.coerce.number())]).optional()
  .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]))
  .refine((a) => a.every((n) => Number.isInteger(n) && n >= 0 && n <= 3), "识别状态只能是 0、1、2 或 3");

export const listQuery = z.object({
  ...pageQuery(20),
  status: statusList,
  wd: z.string().trim().max(200, "关键词不能超过 200 个字符").optional(),
});
export type OcrListQuery = z.infer<typeof listQuery>;

export const pagesQuery = z.object({ document_id: idField });

export const documentIdsBody = z.object({
  document_id: z.array(idField, { error: "请选择要操作的文档" }).min(1, "请选择要操作的文档").max(500, "一次最多操作 500 篇文档"),
});
