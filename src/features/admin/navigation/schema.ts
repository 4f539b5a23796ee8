import { z } from "zod";
import { descriptionField, enableField, siteOrHttpUrl, sortField, titleField, updateOf } from "../crud/schema.ts";

export const navigationCreate = z.object({
  title: titleField(32),
  href: siteOrHttpUrl().optional(),
  target: z.enum(["_blank", "_self", ""], { error: "打开方式无效" }).optional(),
  color: z.string({ error: "颜色格式不正确" }).trim().regex(/^(#[0-9a-f]{3}|#[0-9a-f]{6})?$/i, "颜色格式不正确").optional(),
  sort: sortField.optional(),
  enable: enableField.optional(),
  parent_id: z.number({ error: "上级导航不正确" }).int("上级导航不正确").min(0, "上级导航不正确").optional(),
  description: descriptionField().optional(),
});

export const navigationUpdate = updateOf(navigationCreate);
