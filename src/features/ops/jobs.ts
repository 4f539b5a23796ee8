// Backups as durable jobs: "ops.backup" is one taken on demand (admin button / POST /backup);
// "ops.backup.schedule" wakes every ten minutes and takes one when the backup settings say it is
// due. Both keep only the newest `backup.retention` archives afterwards.
import { log } from "#src/http/requestLog.ts";
import { enqueueOnce } from "#src/jobs/queue.ts";
import { registerJob } from "#src/jobs/worker.ts";
import { setting } from "#src/features/settings/service.ts";
import { BACKUP_TIMEOUT_MS, backupRunning, createBackup, pruneBackups, scheduledBackupDue } from "./backup.ts";

export const BACKUP_JOB = "ops.backup";
export const SCHEDULE_JOB = "ops.backup.schedule";
const SCHEDULE_EVERY_MS = 10 * 60_000;

const retention = () => Math.max(1, Number(setting("backup", "retention")) || 7);

export async function backupAndPrune(signal?: AbortSignal) {
  const b = await createBackup(signal);
  const pruned = pruneBackups(retention());
  log("info", "backup taken", { name: b.name, size: b.size, pruned: pruned.length });
  return { name: b.name, size: b.size, took_ms: b.manifest?.took_ms ?? 0, pruned };
}

registerJob(BACKUP_JOB, async ({ signal }) => ({ result: await backupAndPrune(signal) }), { timeoutMs: BACKUP_TIMEOUT_MS + 60_000 });

/** One wake-up of the schedule: a backup when due, else nothing. */
export async function scheduledRun(signal?: AbortSignal) {
  // A manual backup in progress counts as this period's one.
  if (backupRunning() || !scheduledBackupDue()) return { skipped: true as const };
  return await backupAndPrune(signal);
}

registerJob(SCHEDULE_JOB, async ({ signal }) => ({ result: await scheduledRun(signal) }), { everyMs: SCHEDULE_EVERY_MS, timeoutMs: BACKUP_TIMEOUT_MS + 60_000 });

/** Queues a backup unless one is already waiting or running; a failed manual backup is not retried. */
export const requestBackup = () => enqueueOnce(BACKUP_JOB, {}, { maxAttempts: 1 });
