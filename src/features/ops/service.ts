// Server-side entry points of database maintenance and backup jobs that routes and pages share.
import { getSqlite, handle } from "#db/client.ts";
import { conflict } from "#src/lib/errors.ts";
import { BACKUP_JOB } from "./jobs.ts";
import type { MaintenanceResult } from "./maintenance.ts";
import { readState, writeState } from "./state.ts";
import { runTask } from "./taskRunner.ts";

const MAINTENANCE_TIMEOUT_MS = 60 * 60_000;
let maintaining = false;

/** PUT /sqlmode: integrity_check, optimize, WAL checkpoint and optionally VACUUM, in a child process. */
export async function runMaintenance(vacuum: boolean): Promise<MaintenanceResult> {
  if (maintaining) throw conflict("数据库维护正在进行，请稍后再试");
  maintaining = true;
  try {
    const r = await runTask<MaintenanceResult>("maintain", { db: handle().file, vacuum }, { timeoutMs: MAINTENANCE_TIMEOUT_MS });
    writeState("maintenance", r);
    return r;
  } finally {
    maintaining = false;
  }
}

export const lastMaintenance = () => readState<MaintenanceResult>("maintenance");

export interface BackupJobStatus { id: number; status: string; error: string; result: unknown; created_at: number; updated_at: number }

/** The newest on-demand or scheduled backup job, so the admin screen can show progress and failures. */
export function latestBackupJob(): BackupJobStatus | null {
  const row = getSqlite().query("SELECT id, status, error, result, created_at, updated_at FROM jobs WHERE kind = ? ORDER BY id DESC LIMIT 1").get(BACKUP_JOB) as
    | { id: number; status: string; error: string; result: string; created_at: number; updated_at: number }
    | null;
  if (!row) return null;
  let result: unknown = null;
  try {
    result = row.result ? JSON.parse(row.result) : null;
  } catch {}
  return { ...row, result };
}

/** Enabled banners of one type: what the mini-programme's carousel would show (miniprogram screen). */
export const enabledBannerCount = (type: number) =>
  (getSqlite().query("SELECT count(*) AS n FROM banner WHERE type = ? AND enable = 1").get(type) as { n: number }).n;
