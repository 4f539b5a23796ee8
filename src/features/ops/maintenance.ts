// PUT /sqlmode (the MOREDOC name is kept): SQLite upkeep of the site database. The steps run in a
// child process with its own connection (task.ts), because integrity_check and VACUUM of a large
// database take seconds and bun:sqlite would hold the server's one JS thread for all of them.
import { Database } from "bun:sqlite";
import { statSync } from "node:fs";

export interface MaintenanceStep { name: "integrity_check" | "optimize" | "wal_checkpoint" | "vacuum"; label: string; ok: boolean; result: string; ms: number }
export interface MaintenanceResult { at: number; ok: boolean; vacuum: boolean; steps: MaintenanceStep[]; size_before: number; size_after: number; ms: number }

const sizeOf = (file: string) => ["", "-wal"].reduce((n, s) => n + (statSync(file + s, { throwIfNoEntry: false })?.size ?? 0), 0);

function step(name: MaintenanceStep["name"], label: string, fn: () => { ok: boolean; result: string }): MaintenanceStep {
  const t = performance.now();
  try {
    return { name, label, ...fn(), ms: Math.round(performance.now() - t) };
  } catch (e) {
    return { name, label, ok: false, result: `失败：${(e as Error).message}`, ms: Math.round(performance.now() - t) };
  }
}

/** Runs the steps on `file` in order; a failed step is reported and the later ones still run. */
export function maintain(file: string, vacuum: boolean): MaintenanceResult {
  const started = performance.now();
  const size_before = sizeOf(file);
  const db = new Database(file);
  try {
    // Waits for a writer of the live site to finish rather than failing at once.
    db.exec("PRAGMA busy_timeout = 10000");
    const steps = [
      step("integrity_check", "完整性检查", () => {
        const rows = (db.query("PRAGMA integrity_check").all() as { integrity_check: string }[]).map((r) => r.integrity_check);
        return rows.length === 1 && rows[0] === "ok" ? { ok: true, result: "ok" } : { ok: false, result: rows.slice(0, 10).join("; ") };
      }),
      // 0x10002: also analyse tables never queried on this fresh connection (SQLite's advice for a new connection).
      step("optimize", "优化查询统计", () => {
        db.exec("PRAGMA optimize=0x10002");
        return { ok: true, result: "完成" };
      }),
      step("wal_checkpoint", "WAL 检查点（截断）", () => {
        const r = db.query("PRAGMA wal_checkpoint(TRUNCATE)").get() as { busy: number; log: number; checkpointed: number };
        return r.busy
          ? { ok: false, result: `有连接正在读写，未能完全截断（已写回 ${r.checkpointed}/${r.log} 页），请稍后重试` }
          : { ok: true, result: `已写回 ${r.checkpointed} 页，WAL 已截断` };
      }),
    ];
    if (vacuum) {
      steps.push(step("vacuum", "VACUUM 整理", () => {
        const before = sizeOf(file);
        db.exec("VACUUM");
        db.query("PRAGMA wal_checkpoint(TRUNCATE)").get();
        return { ok: true, result: `${before} → ${sizeOf(file)} 字节` };
      }));
    }
    return { at: Date.now(), ok: steps.every((s) => s.ok), vacuum, steps, size_before, size_after: sizeOf(file), ms: Math.round(performance.now() - started) };
  } finally {
    db.close();
  }
}
