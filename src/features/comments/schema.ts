import { z } from "zod";
import { dateRangeQuery } from "#src/features/admin/crud/schema.ts";
import { COMMENT_SORTS } from "./status.ts";

const id = (msg: string) => z.number({ error: msg }).int(msg).positive(msg);
const queryId = (msg: string) => z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number({ error: msg }).int(msg).positive(msg).optional());
const STATUS_MSG = "状态只能是 0 正常、1 禁用、2 审核中、3 拒绝或 4 忽略";
const statusValue = z.number({ error: STATUS_MSG }).int(STATUS_MSG).min(0, STATUS_MSG).max(4, STATUS_MSG);

// The length limit is a setting, so the service checks it; this bound only stops absurd bodies early.
export const createBody = z.object({
  document_id: id("文档 ID 不正确").optional(),
  article_id: id("文章 ID 不正确").optional(),
  parent_id: z.union([z.literal(0), id("回复的评论 ID 不正确")], { error: "回复的评论 ID 不正确" }).optional(),
  content: z.string({ error: "请输入评论内容" }).max(100_000, "评论内容过长"),
  captcha_id: z.string({ error: "验证码不正确" }).max(64, "验证码不正确").optional(),
  captcha: z.string({ error: "验证码不正确" }).max(16, "验证码不正确").optional(),
}).refine((b) => !!b.document_id !== !!b.article_id, { message: "请指定一篇文档或一篇文章" });

export const listQuery = z.object({
  document_id: queryId("文档 ID 不正确"),
  article_id: queryId("文章 ID 不正确"),
  user_id: queryId("用户 ID 不正确"),
  parent_id: queryId("评论 ID 不正确"),
  status: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number({ error: STATUS_MSG }).pipe(statusValue).optional()),
  type: z.preprocess((v) => (v === "" ? undefined : v), z.enum(["document", "article"], { error: "类型只能是 document 或 article" }).optional()),
  wd: z.string().trim().max(64, "关键词不能超过 64 个字符").optional(),
  sort: z.preprocess((v) => (v === "" ? undefined : v), z.enum(COMMENT_SORTS, { error: "排序只能是 new（最新）或 hot（最热）" }).default("new")),
  page: z.coerce.number({ error: "页码不正确" }).int("页码不正确").min(1, "页码不正确").max(100_000, "页码不正确").default(1),
  size: z.coerce.number({ error: "每页数量不正确" }).int("每页数量不正确").min(1, "每页数量不正确").max(100, "每页最多 100 条").default(10),
  ...dateRangeQuery,
}).refine((q) => !(q.document_id && q.article_id), { message: "文档和文章只能指定一个" });

const idList = z.preprocess((v) => (Array.isArray(v) ? v : [v]), z.array(id("评论 ID 不正确"), { error: "请选择评论" }).min(1, "请选择评论").max(1000, "一次最多处理 1000 条评论"));

export const checkBody = z.object({ id: idList, status: statusValue });
