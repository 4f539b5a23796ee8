import { z } from "zod";
import { isHttpUrl, pageQuery } from "#src/features/admin/crud/schema.ts";
import { EMBEDDING_PRESET } from "./presets.ts";

// Validation of the 向量模型 APIs; every message is what the admin sees.

/** POST /embedding/test: the form's unsaved values; a field left out is taken from the saved settings. */
export const embeddingTestBody = z.object({
  provider: z.string({ error: "向量模型来源必须是文本" }).refine((s) => EMBEDDING_PRESET.has(s), "不支持的向量模型来源").optional(),
  base_url: z.string({ error: "接口地址必须是文本" }).trim().max(512, "接口地址不能超过 512 个字符")
    .refine((s) => s === "" || isHttpUrl(s), "接口地址（base_url）格式不正确，应以 http:// 或 https:// 开头").optional(),
  api_key: z.string({ error: "API Key 必须是文本" }).trim().max(512, "API Key 不能超过 512 个字符").optional(),
  model: z.string({ error: "模型名称必须是文本" }).trim().max(128, "模型名称不能超过 128 个字符").optional(),
  model_path: z.string({ error: "本地模型文件夹必须是文本" }).trim().max(512, "本地模型文件夹不能超过 512 个字符").optional(),
  dimensions: z.coerce.number({ error: "向量维度必须是数字" }).int("向量维度必须是整数").min(8, "向量维度不能小于 8").max(4096, "向量维度不能大于 4096").optional(),
}, { error: "请求内容必须是 JSON 对象" });

export const failureQuery = z.object({ ...pageQuery(20) });

export const retryBody = z.object({
  id: z.array(z.number({ error: "文档 ID 必须是数字" }).int("文档 ID 必须是整数").positive("文档 ID 不正确"), { error: "id 必须是文档 ID 数组" }).max(1000, "一次最多重试 1000 篇").optional(),
}, { error: "请求内容必须是 JSON 对象" });
