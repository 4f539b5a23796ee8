import { Hono } from "hono";
import { z } from "zod";
import AdminReportList from "#islands/reader/AdminReportList.tsx";
import { idsFrom } from "#src/features/admin/crud/routes.ts";
import { dateRangeQuery, withDateRange } from "#src/features/admin/crud/schema.ts";
import { renderAdmin } from "#src/features/admin/page.tsx";
import { PUNISHMENT_TYPES } from "#src/features/users/punishments/types.ts";
import { adminApi, adminPage } from "#src/http/adminOnly.ts";
import type { AppEnv } from "#src/http/context.ts";
import { unauthorized } from "#src/lib/errors.ts";
import { validate } from "#src/lib/validate.ts";
import { Island } from "#src/views/Island.tsx";
import { REPORT_PENDING, REPORT_STATUS_VALUES } from "./reasons.ts";
import { handleReports } from "./reportHandle.ts";
import { deleteReports, listReports, updateReport } from "./reports.ts";

/** 举报管理: reports on documents and articles; ignore, disable the item or punish its author. */
export const adminReportRoutes = new Hono<AppEnv>();

const optionalInt = (min: number, max: number, msg: string) =>
  z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number({ error: msg }).int(msg).min(min, msg).max(max, msg).optional());

const listQuery = z.object({
  page: z.coerce.number({ error: "页码不正确" }).int("页码不正确").min(1, "页码不正确").max(100_000, "页码不正确").default(1),
  size: z.coerce.number({ error: "每页数量不正确" }).int("每页数量不正确").min(1, "每页数量不正确").max(100, "每页最多 100 条").default(20),
  status: optionalInt(0, 4, "状态不正确").refine((v) => v === undefined || REPORT_STATUS_VALUES.includes(v), "状态不正确"),
  reason: optionalInt(1, 6, "举报原因不正确"),
  type: z.preprocess((v) => (v === "" ? undefined : v), z.enum(["document", "article"], { error: "举报对象只能是 document 或 article" }).optional()),
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

const reportId = z.number({ error: "举报 ID 不正确" }).int("举报 ID 不正确").positive("举报 ID 不正确");
const handleBody = z.object({
  id: z.preprocess((v) => (Array.isArray(v) ? v : [v]), z.array(reportId, { error: "请选择举报" }).min(1, "请选择举报").max(200, "一次最多处理 200 条举报")),
  action: z.enum(["ignore", "disable", "punish"], { error: "处理方式只能是忽略（ignore）、禁用内容（disable）或处罚作者（punish）" }),
  punish_type: z.array(z.number({ error: "处罚类型无效" }).int("处罚类型无效").min(1, "处罚类型无效").max(6, "处罚类型无效"), { error: "处罚类型无效" }).max(6, "处罚类型无效").optional(),
  reason: z.string({ error: "原因必须是文本" }).trim().max(255, "原因不能超过 255 个字").optional(),
  days: z.number({ error: "处罚天数必须是 0 到 3650 的整数" }).int("处罚天数必须是 0 到 3650 的整数").min(0, "处罚天数必须是 0 到 3650 的整数").max(3650, "处罚天数必须是 0 到 3650 的整数").optional(),
});

adminReportRoutes.put("/api/v1/report/handle", adminApi, validate("json", handleBody), (c) => {
  const me = c.get("user");
  if (!me) throw unauthorized();
  const done = handleReports(c.req.valid("json"), me);
  const what = { ignore: "已忽略", disable: `已禁用 ${done.disabled} 项内容`, punish: `已处罚 ${done.punished} 位作者` }[c.req.valid("json").action];
  return c.json({ message: `${what}，${done.handled} 条举报已处理`, ...done });
});

adminReportRoutes.delete("/api/v1/report", adminApi, async (c) => c.json({ message: "删除成功", deleted: deleteReports(await idsFrom(c)) }));

adminReportRoutes.get("/admin/report", adminPage, (c) => {
  const initial = listReports({ page: 1, size: 20, status: REPORT_PENDING });
  return renderAdmin(c, {
    title: "举报管理",
    active: "report",
    children: (
      <section className="adm-card">
        <div className="adm-intro">
          <p>用户对文档和文章的举报。核实后可「禁用内容」（文档禁用、文章下架并告知作者原因）或「处罚作者」（如禁止评论、禁止上传），举报随之标记为已处理；无需处理的举报「忽略」即可。</p>
        </div>
        <Island name="AdminReportList" component={AdminReportList} props={{
          initial: { total: initial.total, rows: initial.report }, pageSize: 20,
          punishTypes: PUNISHMENT_TYPES.map((t) => ({ value: t.value, label: t.label })),
        }} />
      </section>
    ),
  });
});
