// Operations: database maintenance (PUT /sqlmode), backups, release and licence, the page-cache
// purge, and their admin screens (系统管理 → 数据备份 / 版本与授权).
import { Hono } from "hono";
import { z } from "zod";
import { adminApi, adminPage } from "#src/http/adminOnly.ts";
import type { AppEnv } from "#src/http/context.ts";
import { clearPageCache } from "#src/http/pageCache.ts";
import { validate } from "#src/lib/validate.ts";
import { renderAdmin } from "#src/features/admin/page.tsx";
import { backupPath, deleteBackup, listBackups } from "./backup.ts";
import { requestBackup } from "./jobs.ts";
import { checkForUpdate, license, releaseInfo, setReleaseSource } from "./release.ts";
import { latestBackupJob, runMaintenance } from "./service.ts";
import { backupScreen, releaseScreen } from "./views.tsx";

export const opsRoutes = new Hono<AppEnv>();

const sqlmodeBody = z.object({ vacuum: z.boolean({ error: "vacuum 必须是布尔值" }).optional() }).optional();
const nameQuery = z.object({ name: z.string({ error: "请指定备份文件名" }).max(200, "备份文件名不合法") });
const sourceBody = z.object({ url: z.string({ error: "请填写更新检查地址" }) });

opsRoutes.put("/api/v1/sqlmode", adminApi, async (c) => {
  // An empty body means the three default steps; {vacuum: true} adds VACUUM.
  const raw = await c.req.text();
  let body: unknown;
  try {
    body = raw.trim() ? JSON.parse(raw) : undefined;
  } catch {
    body = null;
  }
  const parsed = sqlmodeBody.safeParse(body);
  if (!parsed.success) return c.json({ code: "bad_request", message: parsed.error.issues[0]?.message ?? "请求参数错误" }, 400);
  return c.json(await runMaintenance(!!parsed.data?.vacuum));
});

opsRoutes.get("/api/v1/license", adminApi, (c) => c.json(license()));
opsRoutes.get("/api/v1/release", adminApi, (c) => c.json(releaseInfo()));
opsRoutes.post("/api/v1/release", adminApi, async (c) => c.json(await checkForUpdate()));
opsRoutes.put("/api/v1/release/source", adminApi, validate("json", sourceBody), (c) => c.json({ source: setReleaseSource(c.req.valid("json").url) }));

export const backupList = () => {
  const backup = listBackups();
  return { total: backup.length, backup, job: latestBackupJob() };
};
opsRoutes.get("/api/v1/backup/list", adminApi, (c) => c.json(backupList()));
opsRoutes.post("/api/v1/backup", adminApi, (c) => {
  const job = requestBackup();
  return c.json({ message: job ? "已开始备份" : "已有备份任务在进行", job: job ?? latestBackupJob() });
});
opsRoutes.get("/api/v1/backup/download", adminApi, validate("query", nameQuery), (c) => {
  const name = c.req.valid("query").name;
  const path = backupPath(name);
  return new Response(Bun.file(path), {
    headers: { "Content-Type": "application/gzip", "Content-Disposition": `attachment; filename="${name}"`, "Cache-Control": "no-store, private" },
  });
});
opsRoutes.delete("/api/v1/backup", adminApi, validate("query", nameQuery), (c) => {
  deleteBackup(c.req.valid("query").name);
  return c.json({ message: "删除成功" });
});

opsRoutes.delete("/api/v1/ssr/cache", adminApi, (c) => c.json({ cleared: clearPageCache() }));

opsRoutes.get("/admin/system", adminPage, (c) => c.redirect("/admin/system/backup", 302));
opsRoutes.get("/admin/system/backup", adminPage, (c) => renderAdmin(c, { title: "数据备份", active: "system/backup", children: backupScreen(backupList()) }));
opsRoutes.get("/admin/system/release", adminPage, (c) => renderAdmin(c, { title: "版本与授权", active: "system/release", children: releaseScreen(releaseInfo(), license()) }));
