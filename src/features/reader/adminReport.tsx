import { Hono } from "hono";
import { z } from "zod";
import { idsFrom } from "#src/features/admin/crud/routes.ts";
import { dateRangeQuery, withDateRange } from "#src/features/admin/crud/schema.ts";
import { renderTablePage } from "#src/features/admin/page.tsx";
import { adminApi, adminPage } from "#src/http/adminOnly.ts";
import type { AppEnv } from "#src/http/context.ts";
import { validate } from "#src/lib/validate.ts";
import { REPORT_PENDING, REPORT_REASONS, REPORT_STATUS, REPORT_STATUS_VALUES } from "./reasons.ts";
import { deleteReports, listReports, updateReport } from "./reports.ts";

/** 举报管理: the report list, marking handled, deleting. */
export const adminReportRoutes = new Hono<AppEnv>();

const optionalInt = (min: number, max: number, msg: string) =>
  z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number({ error: msg }).int(msg).min(min, msg).max(max, msg).optional());

const listQuery = z.object({
  page: z.coerce.number({ error: "页码不正确" }).int("页码不正确").min(1, "页码不正确").max(100_000, "页码不正确").default(1),
  size: z.coerce.number({ error: "每页数量不正确" }).int("每页数量不正确").min(1, "每页数量不正确").max(100, "每页最多 100 条").default(20),
  status: optionalInt(0, 4, "状态不正确").refine((v) => v === undefined || REPORT_STATUS_VALUES.includes(v), "状态不正确"),
  reason: optionalInt(1, 6, "举报原因不正确"),
  wd: z.string().max(64, "关键词过长").optional(),
  ...dateRangeQuery,
});

adminReportRoutes.get("/api/v1/report/list", adminApi, validate("query", listQuery), (c) => c.json(listReports(withDateRange(c.req.valid("query")))));

const updateBody = z.object({
  id: z.number({ error: "ID 不正确" }).int("ID 不正确").positive("ID 不正确"),
  status: z.number({ error: "状态只能是待处理、已处理或已忽略" }).refine((v) => REPORT_STATUS_VALUES.includes(v), "状态只能是待处理、已处理或已忽略"),
});

adminReportRoutes.put("/api/v1/report", adminApi, validate("json", updateBody), (c) => {
  const b = c.req.valid("json");
  return c.json({ message: "更新成功", ...updateReport(b.id, b.status) });
});

adminReportRoutes.delete("/api/v1/report", adminApi, async (c) => c.json({ message: "删除成功", deleted: deleteReports(await idsFrom(c)) }));

adminReportRoutes.get("/admin/report", adminPage, (c) => {
  const initial = listReports({ page: 1, size: 20, status: REPORT_PENDING });
  const reasons = REPORT_REASONS.map((r) => ({ value: r.value, label: r.label }));
  const statuses = REPORT_STATUS.map((s) => ({ value: s.value, label: s.label }));
  return renderTablePage(c, {
    title: "举报管理",
    active: "report",
    intro: <p>用户在阅读页举报的文档。核实后可在「文档管理」中禁用或删除文档，再将举报标记为已处理；无需处理的举报标记为已忽略。</p>,
    table: {
      entity: "report", listPath: "/report/list", listKey: "report", pageSize: 20, canCreate: false,
      tabs: { name: "status", options: [...statuses, { value: "", label: "全部" }] },
      filters: [{ name: "reason", label: "举报原因", options: reasons }],
      keyword: { name: "wd", placeholder: "搜索文档标题或说明" }, dateRange: "举报时间",
      initial: { total: initial.total, rows: initial.report },
      columns: [
        { key: "id", label: "ID", width: 60 },
        { key: "document_title", label: "文档" },
        { key: "document_url", label: "链接", kind: "link" },
        { key: "reason", label: "原因", kind: "option", options: reasons, width: 90 },
        { key: "remark", label: "说明" },
        { key: "username", label: "举报人", width: 110 },
        { key: "status", label: "状态", kind: "option", options: statuses, width: 80 },
        { key: "created_at", label: "举报时间", kind: "datetime" },
      ],
      fields: [{ name: "status", label: "处理状态", kind: "select", required: true, options: statuses }],
      defaults: { status: 0 },
    },
  });
});
