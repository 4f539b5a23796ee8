import { Hono } from "hono";
import { z } from "zod";
import { idsFrom } from "#src/features/admin/crud/routes.ts";
import { dateRangeOf, dateRangeQuery, pageQuery } from "#src/features/admin/crud/schema.ts";
import { renderTablePage } from "#src/features/admin/page.tsx";
import { setting } from "#src/features/settings/service.ts";
import { adminApi, adminPage } from "#src/http/adminOnly.ts";
import type { AppEnv } from "#src/http/context.ts";
import { badRequest } from "#src/lib/errors.ts";
import { DAY_MS, dayStartMs, shanghaiDay } from "#src/lib/dateRange.ts";
import { validate } from "#src/lib/validate.ts";
import { deleteSearchRecords, listSearchRecords } from "./records.ts";

const listQuery = z.object({
  ...pageQuery(20),
  keyword: z.string().max(64, "关键词不能超过 64 个字符").optional(),
  type: z.coerce.number({ error: "搜索类型不正确" }).int("搜索类型不正确").min(0, "搜索类型不正确").max(1, "搜索类型不正确").optional(),
  zero: z.enum(["true", "false", "1", "0"], { error: "zero 参数只能是 true 或 false" }).transform((v) => v === "true" || v === "1").optional(),
  /** the last N days, today included (kept for API callers; the screen sends start/end) */
  days: z.coerce.number({ error: "天数不正确" }).int("天数不正确").min(1, "天数不正确").max(3650, "天数不正确").optional(),
  ...dateRangeQuery,
});

export const searchRecordRoutes = new Hono<AppEnv>();

searchRecordRoutes.get("/api/v1/searchrecord/list", adminApi, validate("query", listQuery), (c) => {
  const q = c.req.valid("query");
  let { start, end } = dateRangeOf(q);
  if (q.days) {
    const today = dayStartMs(shanghaiDay(Date.now()))!;
    start = Math.max(start ?? 0, today - (q.days - 1) * DAY_MS);
    if (end !== undefined && start > end) throw badRequest("开始日期不能晚于结束日期");
  }
  return c.json(listSearchRecords({ keyword: q.keyword, type: q.type, zero: q.zero, start, end, page: q.page, size: q.size }));
});

searchRecordRoutes.delete("/api/v1/searchrecord", adminApi, async (c) => c.json({ message: "删除成功", deleted: deleteSearchRecords(await idsFrom(c)) }));

const TYPE_OPTIONS = [{ value: 0, label: "文档" }, { value: 1, label: "文章" }];

searchRecordRoutes.get("/admin/document/searchrecord", adminPage, (c) => {
  const initial = listSearchRecords({ page: 1, size: 20 });
  const days = Number(setting<number>("security", "search_record_retention_days")) || 90;
  return renderTablePage(c, {
    title: "搜索记录",
    active: "document/searchrecord",
    intro: <p>记录访客的每一次搜索，用于了解大家在找什么、哪些搜索没有结果。记录保留 {days} 天（可在「系统设置 - 安全设置」中修改），过期后每天自动清理。</p>,
    table: {
      entity: "searchrecord", listPath: "/searchrecord/list", listKey: "search_record", pageSize: 20, canCreate: false,
      keyword: { name: "keyword", placeholder: "搜索关键词" },
      filters: [
        { name: "type", label: "类型", options: TYPE_OPTIONS },
        { name: "zero", label: "结果", options: [{ value: "1", label: "仅无结果" }, { value: "0", label: "有结果" }] },
      ],
      dateRange: "搜索时间",
      initial: { total: initial.total, rows: initial.search_record },
      columns: [
        { key: "keywords", label: "关键词" },
        { key: "type", label: "类型", kind: "option", options: TYPE_OPTIONS, width: 60 },
        { key: "total", label: "结果", width: 60 },
        { key: "page", label: "页码", width: 60 },
        { key: "spend_ms", label: "耗时 ms", width: 76 },
        { key: "username", label: "用户" },
        { key: "ip", label: "IP" },
        { key: "user_agent", label: "User Agent" },
        { key: "created_at", label: "搜索时间", kind: "datetime" },
      ],
      fields: [],
      defaults: {},
    },
  });
});
