import { z } from "zod";
import { idField, pageQuery } from "#src/features/admin/crud/schema.ts";
import { categoryField, priceField } from "#src/features/documents/schema.ts";
import { DOCUMENT_EXTS } from "./links.ts";

/** Spec §4 spider URL statuses. */
export const URL_STATUS: Record<number, string> = { 0: "等待采集", 1: "采集中", 2: "采集完成", 3: "采集失败" };
/** Spec §4 spider document statuses. */
export const DOC: Record<number, string> = {
  0: "等待下载", 1: "下载队列中", 2: "下载中", 3: "下载成功", 4: "下载失败", 5: "发布队列中", 6: "发布中", 7: "发布成功", 8: "发布失败",
};

export const createUrlsBody = z.object({
  /** one URL a line, or a list */
  urls: z.union([z.string({ error: "请输入要采集的网址，每行一个" }).max(100_000, "网址内容过长"), z.array(z.string().max(4000, "网址过长")).max(1000, "一次最多提交 100 个网址")], { error: "请输入要采集的网址，每行一个" }),
  category_id: categoryField,
  user_id: z.number({ error: "请选择文档所有者" }).int("请选择文档所有者").positive("请选择文档所有者"),
  depth: z.number({ error: "采集深度只能是 0、1 或 2" }).int("采集深度只能是 0、1 或 2").min(0, "采集深度只能是 0、1 或 2").max(2, "采集深度只能是 0、1 或 2").default(0),
  same_site: z.boolean({ error: "只采集本站链接必须是是或否" }).default(true),
  exts: z.array(z.enum(DOCUMENT_EXTS as [string, ...string[]], { error: `文件类型只能是 ${DOCUMENT_EXTS.join("、")}` }), { error: "请选择要采集的文件类型" })
    .min(1, "请至少选择一种文件类型").default(["pdf", "doc", "docx", "ppt", "pptx", "xls", "xlsx", "epub", "txt"]),
  max_size: z.number({ error: "文件大小上限必须是 1 到 2048 之间的整数（MB）" }).int("文件大小上限必须是整数（MB）").min(1, "文件大小上限至少 1 MB").max(2048, "文件大小上限不能超过 2048 MB").default(50),
  price: priceField.default(0),
});
export type CreateUrlsBody = z.infer<typeof createUrlsBody>;

const statusList = (max: number) => z.union([z.coerce.number(), z.array(z.coerce.number())]).optional()
  .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]))
  .refine((a) => a.every((n) => Number.isInteger(n) && n >= 0 && n <= max), "状态不正确");
const wd = z.string().trim().max(200, "关键词不能超过 200 个字符").optional();

export const urlListQuery = z.object({ ...pageQuery(20), status: statusList(3), wd });
export type UrlListQuery = z.infer<typeof urlListQuery>;

export const docListQuery = z.object({ ...pageQuery(20), status: statusList(8), wd, spider_url_id: idField.optional() });
export type DocListQuery = z.infer<typeof docListQuery>;

export const idsBody = z.object({ id: z.array(idField, { error: "请选择要操作的记录" }).min(1, "请选择要操作的记录").max(1000, "一次最多操作 1000 条记录") });
