import { z } from "zod";
import { enableField, titleField, updateOf } from "../crud/schema.ts";
import { POSITION_VALUES } from "./positions.ts";

const time = (label: string) => z.number({ error: `${label}格式不正确` }).int(`${label}格式不正确`).min(0, `${label}格式不正确`).nullable();

export const advertisementCreate = z.object({
  title: titleField(64),
  position: z.string({ error: "请选择广告位置" }).refine((p) => POSITION_VALUES.includes(p), "广告位置无效"),
  content: z.string({ error: "请输入广告内容" }).trim().min(1, "请输入广告内容").max(20_000, "广告内容不能超过 20000 个字符"),
  enable: enableField.optional(),
  start_time: time("开始时间").optional(),
  end_time: time("结束时间").optional(),
  remark: z.string({ error: "备注必须是文本" }).trim().max(255, "备注不能超过 255 个字符").optional(),
});

export const advertisementUpdate = updateOf(advertisementCreate);
