// Backup archives: building one (a consistent database snapshot plus the stored files) and
// restoring one. No server state here (no env, no process database), so the same code runs in the
// snapshot subprocess (backupTask.ts), in the restore command line and in tests.
import { Database } from "bun:sqlite";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as tar from "tar";

/** Names of our own archives; a name from a request is used only when it matches this exactly. */
export const BACKUP_NAME = /^wenku-backup-\d{8}-\d{6}-[a-z0-9]{4}\.tar\.gz$/;
export const DB_ENTRY = "wenku.db";
/** Folders under DATA_DIR that hold files users and conversions produced (design.md §5). */
export const FILE_ROOTS = ["documents", "uploads"] as const;
export type FileRoot = (typeof FILE_ROOTS)[number];

export interface Manifest {
  format: 1;
  product: "wenku";
  version: string;
  created_at: number;
  took_ms: number;
  db: { file: typeof DB_ENTRY; size: number; sha256: string; integrity: string; tables: Record<string, number> };
  files: { count: number; bytes: number };
  /** sha256 of every archived file by its path in the archive (documents/…, uploads/…) */
  checksums: Record<string, string>;
}

/** The manifest without the per-file checksums: what the admin list shows (kept beside the archive). */
export type ManifestSummary = Omit<Manifest, "checksums">;

export async function sha256File(path: string): Promise<string> {
  const h = new Bun.CryptoHasher("sha256");
  // Streamed in chunks: large originals never sit in memory whole.
  for await (const chunk of Bun.file(path).stream()) h.update(chunk);
  return h.digest("hex");
}

/** `PRAGMA integrity_check` of a database file: "ok" or the first problems SQLite reports. */
export function integrityOf(file: string): string {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db.query("PRAGMA integrity_check").all() as { integrity_check: string }[];
    return rows.map((r) => r.integrity_check).slice(0, 10).join("; ") || "无结果";
  } finally {
    db.close();
  }
}

function tableCounts(db: Database): Record<string, number> {
  const names = (db.query("SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
  const out: Record<string, number> = {};
  for (const n of names) {
    try {
      out[n] = (db.query(`SELECT count(*) AS n FROM "${n.replace(/"/g, '""')}"`).get() as { n: number }).n;
    } catch {
      // Shadow tables of virtual tables can refuse direct counts; they are not worth reporting.
    }
  }
  return out;
}

/** Regular files under `dir` (symlinks skipped: a backup must not follow links out of DATA_DIR). */
function walk(dir: string, rel: string, out: string[]) {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names.sort()) {
    const abs = join(dir, n);
    const st = lstatSync(abs, { throwIfNoEntry: false });
    if (!st) continue;
    if (st.isDirectory()) walk(abs, `${rel}/${n}`, out);
    else if (st.isFile()) out.push(`${rel}/${n}`);
  }
}

export function backupName(now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, "0");
  const stamp = `${now.getUTCFullYear()}${p(now.getUTCMonth() + 1)}${p(now.getUTCDate())}-${p(now.getUTCHours())}${p(now.getUTCMinutes())}${p(now.getUTCSeconds())}`;
  return `wenku-backup-${stamp}-${Math.random().toString(36).slice(2, 6).padEnd(4, "0")}.tar.gz`;
}

/**
 * Writes `<dir>/<name>` (tar.gz: manifest.json, wenku.db, documents/…, uploads/…) and its summary
 * `<name>.json`. The database is copied with VACUUM INTO inside one read transaction: a consistent
 * snapshot while other connections keep writing (WAL readers never block writers). The copy is
 * checked with integrity_check before anything is archived. Files are listed after the snapshot,
 * so every file the snapshot refers to is already there (stored files are only ever added or
 * purged, never rewritten in place).
 */
export async function buildArchive(o: { db: string; roots: Record<FileRoot, string>; dir: string; name: string; version: string }): Promise<ManifestSummary> {
  const started = Date.now();
  if (!BACKUP_NAME.test(o.name)) throw new Error(`备份文件名不合法：${o.name}`);
  mkdirSync(o.dir, { recursive: true });
  const stage = mkdtempSync(join(o.dir, ".stage-"));
  const partial = join(o.dir, `.${o.name}.partial`);
  try {
    const copy = join(stage, DB_ENTRY);
    const src = new Database(o.db, { readonly: true });
    let tables: Record<string, number>;
    try {
      // A writer holding the lock briefly must not fail the backup; the snapshot itself never blocks writers.
      src.exec("PRAGMA busy_timeout = 10000");
      src.query("VACUUM INTO ?").run(copy);
    } finally {
      src.close();
    }
    const integrity = integrityOf(copy);
    if (integrity !== "ok") throw new Error(`数据库副本完整性检查未通过：${integrity}`);
    const snap = new Database(copy, { readonly: true });
    try {
      tables = tableCounts(snap);
    } finally {
      snap.close();
    }
    const files: string[] = [];
    for (const root of FILE_ROOTS) {
      if (!existsSync(o.roots[root])) continue;
      walk(o.roots[root], root, files);
      symlinkSync(o.roots[root], join(stage, root));
    }
    const checksums: Record<string, string> = {};
    let bytes = 0;
    for (const f of files) {
      const abs = join(stage, f);
      checksums[f] = await sha256File(abs);
      bytes += statSync(abs).size;
    }
    const summary: ManifestSummary = {
      format: 1, product: "wenku", version: o.version, created_at: started, took_ms: 0,
      db: { file: DB_ENTRY, size: statSync(copy).size, sha256: await sha256File(copy), integrity, tables },
      files: { count: files.length, bytes },
    };
    summary.took_ms = Date.now() - started;
    writeFileSync(join(stage, "manifest.json"), JSON.stringify({ ...summary, checksums } satisfies Manifest));
    // follow: the stage links documents/ and uploads/ to their real folders; walk() already skipped links inside them.
    await tar.c({ gzip: { level: 6 }, file: partial, cwd: stage, follow: true, portable: true }, ["manifest.json", DB_ENTRY, ...files]);
    summary.took_ms = Date.now() - started;
    writeFileSync(join(o.dir, `${o.name}.json`), JSON.stringify(summary));
    renameSync(partial, join(o.dir, o.name));
    return summary;
  } finally {
    rmSync(stage, { recursive: true, force: true });
    rmSync(partial, { force: true });
  }
}

const ALLOWED_ENTRY = new RegExp(`^(manifest\\.json|${DB_ENTRY.replace(".", "\\.")}|(${FILE_ROOTS.join("|")})(/[^/]+)*/?)$`);

/**
 * Unpacks an archive into a fresh folder inside `parent` and checks it: manifest, database
 * checksum and integrity_check, every file's checksum. Only plain files and folders under the
 * known names are unpacked (no links, no absolute or `..` paths). Throws in Chinese on any fault.
 */
export async function unpackAndVerify(file: string, parent: string): Promise<{ dir: string; manifest: Manifest }> {
  if (!existsSync(file) || !statSync(file).isFile()) throw new Error(`备份文件不存在：${file}`);
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, ".restore-"));
  try {
    const refused: string[] = [];
    await tar.x({
      file, cwd: dir, strict: true, preservePaths: false,
      filter: (path, entry) => {
        const type = "type" in entry ? entry.type : "File";
        const ok = ALLOWED_ENTRY.test(path) && !path.split("/").includes("..") && (type === "File" || type === "Directory");
        if (!ok) refused.push(path);
        return ok;
      },
    }).catch((e: Error) => {
      throw new Error(`备份文件无法解压（不是有效的 tar.gz 或已损坏）：${e.message}`);
    });
    if (refused.length) throw new Error(`备份中含有不允许的条目：${refused.slice(0, 3).join(", ")}`);
    const mpath = join(dir, "manifest.json");
    if (!existsSync(mpath)) throw new Error("备份中缺少 manifest.json，不是本程序生成的备份");
    const manifest = JSON.parse(readFileSync(mpath, "utf8")) as Manifest;
    if (manifest.format !== 1 || manifest.product !== "wenku") throw new Error("备份格式无法识别");
    const db = join(dir, DB_ENTRY);
    if (!existsSync(db)) throw new Error("备份中缺少数据库文件");
    if ((await sha256File(db)) !== manifest.db.sha256) throw new Error("数据库文件校验和不符，备份可能已损坏");
    const integrity = integrityOf(db);
    if (integrity !== "ok") throw new Error(`数据库完整性检查未通过：${integrity}`);
    for (const [rel, sum] of Object.entries(manifest.checksums)) {
      if (!ALLOWED_ENTRY.test(rel)) throw new Error(`清单中含有不允许的路径：${rel}`);
      const abs = join(dir, rel);
      if (!existsSync(abs)) throw new Error(`备份中缺少文件：${rel}`);
      if ((await sha256File(abs)) !== sum) throw new Error(`文件校验和不符：${rel}`);
    }
    return { dir, manifest };
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

/**
 * Restores an archive into `dataDir` (the server must be stopped). Everything is unpacked and
 * verified first; only then are the current database (with its -wal/-shm) and file folders moved
 * aside into `dataDir/pre-restore-<time>` and the restored ones renamed into place: renames on one
 * file system, so a failure part-way moves what was already swapped back.
 */
export async function restoreArchive(file: string, dataDir: string): Promise<{ manifest: Manifest; previous: string }> {
  const { dir, manifest } = await unpackAndVerify(file, dataDir);
  const previous = join(dataDir, `pre-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`);
  const moved: [string, string][] = [];
  const move = (from: string, to: string) => {
    renameSync(from, to);
    moved.push([from, to]);
  };
  try {
    mkdirSync(previous);
    for (const n of [DB_ENTRY, `${DB_ENTRY}-wal`, `${DB_ENTRY}-shm`, ...FILE_ROOTS]) {
      if (existsSync(join(dataDir, n))) move(join(dataDir, n), join(previous, n));
    }
    move(join(dir, DB_ENTRY), join(dataDir, DB_ENTRY));
    for (const root of FILE_ROOTS) {
      if (existsSync(join(dir, root))) move(join(dir, root), join(dataDir, root));
      else mkdirSync(join(dataDir, root));
    }
  } catch (e) {
    for (const [from, to] of moved.reverse()) {
      try {
        if (existsSync(from)) rmSync(from, { recursive: true, force: true });
        renameSync(to, from);
      } catch {
        // Keep undoing the rest; the message below names where the old data is.
      }
    }
    throw new Error(`恢复失败，已尝试还原原有数据（如有缺失请查看 ${previous}）：${(e as Error).message}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { manifest, previous };
}
