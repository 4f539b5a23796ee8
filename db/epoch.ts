import type { Database, Statement } from "bun:sqlite";
import { getSqlite } from "./client.ts";

/**
 * A number that changes whenever the database may have changed, for in-memory copies of rows read
 * on every request (the session lookup, a reader's state): each such read is a SQLite read
 * transaction, which under load cost 10–20 µs here, more than the rest of a served kept page.
 * - any row written by this process's connection (`total_changes()`: triggers and cascades
 *   included, even a write later rolled back; no lock, 0.1 µs) changes it at once;
 * - a commit of another process (`PRAGMA data_version`, e.g. `bun scripts/admin.ts password`) is
 *   looked for at most every OTHER_PROCESS_CHECK_MS, so it shows within that time.
 * Per connection: a test opening a fresh database starts from a new epoch.
 */
export const OTHER_PROCESS_CHECK_MS = 100;

interface State { changes: Statement<{ n: number }, []>; version: Statement<{ data_version: number }, []>; total: number; dataVersion: number; checkedAt: number; epoch: number }
const states = new WeakMap<Database, State>();
let epochs = 0;

export function dbEpoch(): number {
  const sqlite = getSqlite();
  let s = states.get(sqlite);
  if (!s) {
    s = { changes: sqlite.query("SELECT total_changes() AS n"), version: sqlite.query("PRAGMA data_version"), total: -1, dataVersion: -1, checkedAt: 0, epoch: 0 };
    states.set(sqlite, s);
  }
  let changed = false;
  const total = s.changes.get()!.n;
  if (total !== s.total) {
    s.total = total;
    changed = true;
  }
  const now = Date.now();
  if (now - s.checkedAt >= OTHER_PROCESS_CHECK_MS) {
    s.checkedAt = now;
    const v = s.version.get()!.data_version;
    if (v !== s.dataVersion) {
      s.dataVersion = v;
      changed = true;
    }
  }
  if (changed) s.epoch = ++epochs;
  return s.epoch;
}

/**
 * Rows read from the database, kept by key while dbEpoch() is unchanged (emptied when it changes,
 * and when `max` are kept). Epoch values are unique across connections, so one memo serves a process
 * that switches databases (tests). `read` answers null for "no row"; that is kept too.
 */
export function epochMemo<V>(max = 10_000): (key: string, read: () => V) => V {
  const kept = new Map<string, V>();
  let at = -1;
  return (key, read) => {
    const epoch = dbEpoch();
    if (epoch !== at) {
      kept.clear();
      at = epoch;
    }
    let v = kept.get(key);
    if (v === undefined) {
      v = read();
      if (kept.size >= max) kept.clear();
      kept.set(key, v);
    }
    return v;
  };
}
