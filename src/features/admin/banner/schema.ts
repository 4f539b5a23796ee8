import { z } from "zod";
import { descriptionField, enableField, siteOrHttpUrl, sortField, titleField, updateOf } from "../crud/schema.ts";

/** Banner types, spec §3. */
export const BANNER_TYPES = [{ value: 0, label: "网站" }, { value: 1, label: "小程序" }, { value: 2, label: "App" }];

const imagePath = z.string({ error: "请上传横幅图片" }).trim().min(1, "请上传横幅图片").max(512, "图片地址过长")
  .refine((s) => (/^\/uploads\/[\w./-]+$/.test(s) && !s.includes("..")) || /^https?:\/\/\S+$/i.test(s), "图片地址格式不正确");

export const bannerCreate = z.object({
  title: titleField(64),
  path: imagePath,
  url: siteOrHttpUrl("跳转链接").optional(),
  type: z.number({ error: "横幅类型无效" }).int("横幅类型无效").min(0, "横幅类型无效").max(2, "横幅类型无效").optional(),
  sort: sortField.optional(),
  enable: enableField.optional(),
  description: descriptionField().optional(),
});

export const bannerUpdate = updateOf(bannerCreate);
