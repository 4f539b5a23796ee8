import { z } from "zod";
import { descriptionField, idField, pageQuery, sortField, titleField } from "#src/features/admin/crud/schema.ts";

const flag = (label: string) => z.boolean({ error: `${label}必须是是或否` }).optional();
/** An AI limit: -1 unlimited, 0 none, else the count. */
const aiLimit = (label: string, max: number) =>
  z.number({ error: `${label}必须是数字` }).int(`${label}必须是整数`).min(-1, `${label}不能小于 -1（-1 表示不限）`).max(max, `${label}不能超过 ${max}`).optional();

export const groupCreate = z.object({
  title: titleField(32).refine((s) => !/[\u0000-\u001f\u007f]/.test(s), "标题不能包含控制字符"),
  color: z.string({ error: "颜色必须是文本" }).trim().max(16, "颜色格式不正确")
    .refine((s) => s === "" || /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(s), "颜色格式不正确，例如 #1677ff").optional(),
  description: descriptionField(255).optional(),
  sort: sortField.optional(),
  is_default: flag("默认分组"),
  is_display: flag("是否展示"),
  enable_upload: flag("允许上传"),
  enable_document_review: flag("文档需审核"),
  enable_comment: flag("允许评论"),
  enable_comment_approval: flag("评论需审核"),
  enable_article: flag("允许发布文章"),
  enable_article_approval: flag("文章需审核"),
  ai_questions_per_day: aiLimit("每日 AI 提问次数", 1_000_000),
  ai_tokens_per_month: aiLimit("每月 AI token 额度", 1_000_000_000),
});

export const groupUpdate = groupCreate.partial().extend({ id: idField });

export const groupListQuery = z.object({
  ...pageQuery(1000),
  wd: z.string().trim().max(64, "关键词不能超过 64 个字符").optional(),
});

export const groupPermissionBody = z.object({
  id: idField,
  permission_id: z.array(idField, { error: "权限 ID 必须是数组" }).max(10_000, "权限数量过多"),
});
