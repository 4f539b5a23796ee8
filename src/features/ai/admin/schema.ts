import { z } from "zod";
import { idField, pageQuery, isHttpUrl } from "#src/features/admin/crud/schema.ts";
import { PRESET_BY_NAME } from "../llm/presets.ts";
import { MSG_STATUS_LABEL } from "../status.ts";

// Validation of the AI back-office APIs; every message is what the admin sees.

const dateQuery = (label: string) => z.string().regex(/^\d{4}-\d{2}-\d{2}$/, `${label}格式不正确，应为 YYYY-MM-DD`).optional();

export const messageListQuery = z.object({
  ...pageQuery(20),
  user: z.string().trim().max(64, "用户名不能超过 64 个字符").optional(),
  status: z.coerce.number({ error: "状态不正确" }).int("状态不正确").refine((n) => n in MSG_STATUS_LABEL, "状态不正确").optional(),
  start: dateQuery("开始日期"),
  end: dateQuery("结束日期"),
  min_tokens: z.coerce.number({ error: "最少 token 数不正确" }).int("最少 token 数必须是整数").min(0, "最少 token 数不能小于 0").max(100_000_000, "最少 token 数过大").optional(),
  wd: z.string().trim().max(100, "关键词不能超过 100 个字符").optional(),
  topic_id: idField.optional(),
});

export const statsQuery = z.object({
  days: z.coerce.number({ error: "天数不正确" }).int("天数不正确").min(1, "天数不能小于 1").max(366, "天数不能超过 366").default(14),
});

/** POST /llm/test: the form's unsaved values; a field left out is taken from the saved settings. */
export const llmTestBody = z.object({
  provider: z.string({ error: "模型服务商必须是文本" }).refine((s) => PRESET_BY_NAME.has(s), "不支持的模型服务商").optional(),
  base_url: z.string({ error: "接口地址必须是文本" }).trim().min(1, "请输入接口地址（base_url）").max(512, "接口地址不能超过 512 个字符")
    .refine(isHttpUrl, "接口地址（base_url）格式不正确，应以 http:// 或 https:// 开头").optional(),
  /** blank: the saved key (only sent to the saved base_url's host) */
  api_key: z.string({ error: "API Key 必须是文本" }).trim().max(512, "API Key 不能超过 512 个字符").optional(),
  model: z.string({ error: "模型名称必须是文本" }).trim().min(1, "请输入模型名称").max(128, "模型名称不能超过 128 个字符").optional(),
}, { error: "请求内容必须是 JSON 对象" });

export type LlmTestBody = z.infer<typeof llmTestBody>;
