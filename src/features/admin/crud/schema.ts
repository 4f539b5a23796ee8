import { z } from "zod";
import { DAY_MS, dayStartMs } from "#src/lib/dateRange.ts";
import { badRequest } from "#src/lib/errors.ts";

// Field rules the admin tables share; every message is what the admin sees.

export const idField = z.coerce.number({ error: "ID 不正确" }).int("ID 不正确").positive("ID 不正确");

export const titleField = (max = 64) => z.string({ error: "请输入标题" }).trim().min(1, "请输入标题").max(max, `标题不能超过 ${max} 个字符`);

export const sortField = z.number({ error: "排序必须是数字" }).int("排序必须是整数").min(-1_000_000, "排序值超出范围").max(1_000_000, "排序值超出范围");

export const enableField = z.boolean({ error: "启用状态必须是是或否" });

export const descriptionField = (max = 255, label = "描述") => z.string({ error: `${label}必须是文本` }).trim().max(max, `${label}不能超过 ${max} 个字符`);

/** An absolute http(s) URL with a host (what every configurable address must be). */
export const isHttpUrl = (s: string) => {
  if (!/^https?:\/\/[^\s/]+/i.test(s)) return false;
  try {
    new URL(s);
    return true;
  } catch {
    return false;
  }
};

/** http(s) URL only: blocks javascript: and data: links an admin might paste. */
export const httpUrl = (label = "链接地址") =>
  z.string({ error: `请输入${label}` }).trim().min(1, `请输入${label}`).max(512, `${label}不能超过 512 个字符`).refine(isHttpUrl, `${label}格式不正确`);

/** A site path ("/category") or an http(s) URL; empty allowed. */
export const siteOrHttpUrl = (label = "链接地址") =>
  z.string({ error: `${label}必须是文本` }).trim().max(512, `${label}不能超过 512 个字符`)
    .refine((s) => s === "" || (/^\/(?!\/)[^\s]*$/.test(s)) || isHttpUrl(s), `${label}格式不正确`);

/** page/size query fields; lists differ only in their default page size. */
export const pageQuery = (defaultSize = 20) => ({
  page: z.coerce.number({ error: "页码不正确" }).int("页码不正确").min(1, "页码不正确").max(1_000_000, "页码不正确").default(1),
  size: z.coerce.number({ error: "每页数量不正确" }).int("每页数量不正确").min(1, "每页数量不正确").max(10_000, "每页数量不能超过 10000").default(defaultSize),
});

/** "true"/"1" or "false"/"0" in a query string; anything else is an error, absent is undefined. */
export const boolQuery = z.enum(["true", "false", "1", "0"], { error: "enable 参数只能是 true 或 false" })
  .transform((v) => v === "true" || v === "1").optional();

export const idQuery = z.object({ id: idField });

/** PUT body: the id plus any subset of the create fields. */
export const updateOf = <T extends z.ZodObject>(create: T) => create.partial().extend({ id: idField });

const dayField = (label: string) => z.preprocess((v) => (v === "" ? undefined : v),
  z.string({ error: `${label}不正确，应为 YYYY-MM-DD` }).refine((v) => dayStartMs(v) !== null, `${label}不正确，应为 YYYY-MM-DD`).optional());

/**
 * `start`/`end` query fields of every admin list with dates (islands/AdminDateRange.tsx sends
 * them): inclusive Asia/Shanghai days as YYYY-MM-DD; either may be left out.
 */
export const dateRangeQuery = { start: dayField("开始日期"), end: dayField("结束日期") };

/** The validated days as created_at bounds in ms: start of `start` … last ms of `end`. */
export function dateRangeOf(q: { start?: string; end?: string }): { start?: number; end?: number } {
  const start = q.start ? dayStartMs(q.start)! : undefined;
  const end = q.end ? dayStartMs(q.end)! + DAY_MS - 1 : undefined;
  if (start !== undefined && end !== undefined && start > end) throw badRequest("开始日期不能晚于结束日期");
  return { start, end };
}

/** A validated list query with its `start`/`end` days turned into created_at bounds (ms). */
export function withDateRange<T extends { start?: string; end?: string }>(q: T): Omit<T, "start" | "end"> & { start?: number; end?: number } {
  const { start, end, ...rest } = q;
  return { ...rest, ...dateRangeOf({ start, end }) };
}
