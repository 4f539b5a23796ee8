import { z } from "zod";
import { boolQuery, dateRangeQuery, descriptionField, idField, pageQuery } from "#src/features/admin/crud/schema.ts";

const typeValue = z.coerce.number({ error: "处罚类型无效" }).int("处罚类型无效").min(1, "处罚类型无效").max(6, "处罚类型无效");

/** ms since the epoch; empty or null means "not set" (no end = permanent). */
const timeField = (label: string) =>
  z.union([z.number({ error: `${label}格式不正确` }).int(`${label}格式不正确`).min(0, `${label}格式不正确`).max(8_640_000_000_000_000, `${label}格式不正确`), z.null(), z.literal("")], { error: `${label}格式不正确` })
    .transform((v) => (v === "" ? null : v));

const fields = {
  enable: z.boolean({ error: "启用状态必须是是或否" }).optional(),
  reason: descriptionField(255, "处罚原因").optional(),
  remark: descriptionField(1000, "备注").optional(),
  start_time: timeField("开始时间").optional(),
  end_time: timeField("结束时间").optional(),
};

export const punishmentCreate = z.object({
  user_id: z.coerce.number({ error: "请选择用户" }).int("请选择用户").positive("请选择用户"),
  // One row per type: the create form picks several at once.
  type: z.preprocess((v) => (v === undefined || v === null || Array.isArray(v) ? v : [v]), z.array(typeValue, { error: "请选择处罚类型" }).min(1, "请选择处罚类型").max(6, "处罚类型无效")),
  ...fields,
});

/** The user and type of a punishment are fixed; a different one is a new punishment. */
export const punishmentUpdate = z.object({ id: idField, ...fields });

export const punishmentListQuery = z.object({
  ...pageQuery(20),
  user_id: z.coerce.number({ error: "用户 ID 不正确" }).int("用户 ID 不正确").positive("用户 ID 不正确").optional(),
  type: z.union([z.literal(""), typeValue]).transform((v) => (v === "" ? undefined : v)).optional(),
  enable: boolQuery,
  wd: z.string().trim().max(64, "关键词不能超过 64 个字符").optional(),
  ...dateRangeQuery,
});
