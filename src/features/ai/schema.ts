import { z } from "zod";
import { idField, pageQuery } from "#src/features/admin/crud/schema.ts";
import { MAX_SCOPE } from "./topics.ts";

export const topicCreate = z.object({
  category: z.coerce.number({ error: "会话类型不正确" }).int("会话类型不正确").min(1, "会话类型不正确").max(2, "会话类型不正确").default(1),
  document_id: z.array(idField, { error: "文档 ID 不正确" }).max(MAX_SCOPE, `一个会话最多关联 ${MAX_SCOPE} 篇文档`).optional(),
  title: z.string({ error: "会话标题必须是文本" }).trim().max(100, "会话标题不能超过 100 个字符").optional(),
});
export const topicRename = z.object({ id: idField, title: z.string({ error: "请输入会话标题" }).trim().min(1, "请输入会话标题").max(100, "会话标题不能超过 100 个字符") });

/** Ids from a JSON body `{ id: [...] }` or a single id. */
export const idsBody = z.object({
  id: z.union([idField, z.array(idField).min(1, "请选择要删除的会话").max(1000, "一次最多删除 1000 个")], { error: "请选择要删除的会话" })
    .transform((v) => (Array.isArray(v) ? v : [v])),
});
/** Ids from repeated query parameters (?id=1&id=2). */
export const idsQuery = z.object({
  id: z.union([idField, z.array(idField).max(1000, "一次最多删除 1000 个")], { error: "请选择要删除的会话" }).transform((v) => (Array.isArray(v) ? v : [v])).optional(),
});

export const topicGet = z.object({ id: idField.optional(), uuid: z.string().regex(/^[0-9a-f]{32}$/, "会话 UUID 不正确").optional() })
  .refine((q) => q.id !== undefined || q.uuid !== undefined, { message: "请指定会话 ID 或 UUID" });

export const topicList = z.object({
  ...pageQuery(20),
  category: z.coerce.number({ error: "会话类型不正确" }).int("会话类型不正确").min(0, "会话类型不正确").max(2, "会话类型不正确").optional(),
  wd: z.string().trim().max(64, "关键词不能超过 64 个字符").optional(),
});

export const topicRef = z.object({ topic_id: idField });
export const messageList = z.object({ topic_id: idField, ...pageQuery(50) });

export const ask = z.object({
  topic_id: idField,
  // The real limit (llm.max_question_length) is checked with its own message; this only bounds the body.
  content: z.string({ error: "请输入问题" }).max(20_000, "问题太长了"),
  replace_id: idField.optional(),
});

export const scopeRemove = z.object({ topic_id: idField, document_id: idField });
export const cancelBody = z.object({ id: idField });

const limit = (label: string) => z.number({ error: `${label}必须是整数` }).int(`${label}必须是整数`).min(-1, `${label}不能小于 -1（-1 表示不限）`).max(1_000_000_000, `${label}过大`).nullable();
export const quotaSet = z.object({ user_id: idField, questions_per_day: limit("每日提问次数"), tokens_per_month: limit("每月 token 额度") });
export const quotaGet = z.object({ user_id: idField.optional() });
