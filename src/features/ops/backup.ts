// Backups as the server sees them: where they live (DATA_DIR/backups), taking one (in a child
// process, see archive.ts), listing, resolving a requested name safely, deleting and retention.
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { handle } from "#db/client.ts";
import { env } from "#src/env.ts";
import { documentsRoot } from "#src/features/documents/paths.ts";
import { storageRoot } from "#src/features/admin/attachment/storage.ts";
import { setting } from "#src/features/settings/service.ts";
import { badRequest, conflict, notFound } from "#src/lib/errors.ts";
import { BACKUP_NAME, backupName, type ManifestSummary } from "./archive.ts";
import { runTask } from "./taskRunner.ts";
import { productVersion } from "./release.ts";

let dirOverride: string | null = null;
export const backupsDir = () => dirOverride ?? join(env.DATA_DIR, "backups");
/** Tests keep their backups in their own temp folder. */
export const setBackupsDir = (dir: string | null) => void (dirOverride = dir);

/** A large site's archive takes minutes; the child is killed after this. */
export const BACKUP_TIMEOUT_MS = 2 * 3600_000;

export interface BackupInfo { name: string; size: number; created_at: number; manifest: ManifestSummary | null }

let running: Promise<BackupInfo> | null = null;
export const backupRunning = () => running !== null;

/** Takes one backup now. One at a time per process: a second call while one runs is refused. */
export function createBackup(signal?: AbortSignal): Promise<BackupInfo> {
  if (running) throw conflict("已有备份正在进行，请稍后再试");
  // A child killed mid-way (time-out, server stopped) leaves its work folder and partial archive.
  if (existsSync(backupsDir())) {
    for (const n of readdirSync(backupsDir())) if (n.startsWith(".stage-") || n.endsWith(".partial")) rmSync(join(backupsDir(), n), { recursive: true, force: true });
  }
  const name = backupName();
  const args = { db: handle().file, roots: { documents: documentsRoot(), uploads: storageRoot() }, dir: backupsDir(), name, version: productVersion() };
  running = runTask<ManifestSummary>("backup", args, { timeoutMs: BACKUP_TIMEOUT_MS, signal })
    .then((manifest) => ({ name, size: statSync(join(backupsDir(), name)).size, created_at: manifest.created_at, manifest }))
    .finally(() => void (running = null));
  return running;
}

function info(name: string): BackupInfo | null {
  const st = statSync(join(backupsDir(), name), { throwIfNoEntry: false });
  if (!st?.isFile()) return null;
  let manifest: ManifestSummary | null = null;
  try {
    manifest = JSON.parse(readFileSync(join(backupsDir(), `${name}.json`), "utf8"));
  } catch {
    // An archive copied in by hand has no summary beside it; it is still listed and restorable.
  }
  return { name, size: st.size, created_at: manifest?.created_at ?? st.mtimeMs, manifest };
}

/** Our archives in DATA_DIR/backups, newest first (anything else in the folder is ignored). */
export function listBackups(): BackupInfo[] {
  if (!existsSync(backupsDir())) return [];
  return readdirSync(backupsDir()).filter((n) => BACKUP_NAME.test(n)).map(info).filter((b): b is BackupInfo => !!b)
    .sort((a, b) => b.created_at - a.created_at || b.name.localeCompare(a.name));
}

/**
 * The file of a backup named in a request. The name must match our own naming pattern exactly
 * before it is joined to the folder, so ../, absolute paths, encoded slashes or any other file
 * never reach the file system.
 */
export function backupPath(name: unknown): string {
  if (typeof name !== "string" || !BACKUP_NAME.test(name)) throw badRequest("备份文件名不合法");
  const path = join(backupsDir(), name);
  if (!statSync(path, { throwIfNoEntry: false })?.isFile()) throw notFound("备份不存在或已删除");
  return path;
}

export function deleteBackup(name: unknown) {
  const path = backupPath(name);
  rmSync(path, { force: true });
  rmSync(`${path}.json`, { force: true });
}

/** Keeps the newest `keep` archives and deletes the rest; answers the names deleted. */
export function pruneBackups(keep: number): string[] {
  const old = listBackups().slice(Math.max(1, keep));
  for (const b of old) deleteBackup(b.name);
  return old.map((b) => b.name);
}

/** Whether the schedule wants a backup now: enabled, and the newest is older than the interval. */
export function scheduledBackupDue(now = Date.now()): boolean {
  if (!setting<boolean>("backup", "enable")) return false;
  const hours = Math.max(1, Number(setting("backup", "interval_hours")) || 24);
  const newest = listBackups()[0];
  return !newest || now - newest.created_at >= hours * 3600_000;
}
