import { Database } from "bun:sqlite";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import * as sqliteVec from "sqlite-vec";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";

export type Db = BunSQLiteDatabase;
export interface DbHandle {
  sqlite: Database;
  db: Db;
  file: string;
}

const migrationsFolder = join(import.meta.dir, "migrations");

/**
 * How long a write waits for another connection's write lock. Short on purpose: bun:sqlite runs on
 * the one JS thread, so every millisecond waited here is a millisecond no request is served.
 * Reads never wait (WAL). A request whose write cannot get the lock answers 503 (see isBusyError).
 */
export const BUSY_TIMEOUT_MS = 200;

/** Whether an error (or its cause, e.g. drizzle's DrizzleQueryError) is SQLite's "database is locked". */
export function isBusyError(err: unknown): boolean {
  for (let e: any = err, i = 0; e && i < 5; e = e.cause, i++) {
    const code = typeof e.code === "string" ? e.code : "";
    if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) return true;
    if (/database is (locked|busy)/i.test(String(e.message ?? ""))) return true;
  }
  return false;
}

/**
 * Runs `fn` with another busy timeout on the process connection (0 = fail at once), then restores
 * it. Safe because bun:sqlite is synchronous: nothing else runs on the connection meanwhile.
 * Background work (job claims) uses 0 and backs off asynchronously instead of blocking requests.
 */
export function withBusyTimeout<T>(ms: number, fn: () => T): T {
  const sqlite = handle().sqlite;
  const prev = (sqlite.query("PRAGMA busy_timeout").get() as { timeout: number } | null)?.timeout ?? BUSY_TIMEOUT_MS;
  sqlite.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(ms))}`);
  try {
    return fn();
  } finally {
    sqlite.exec(`PRAGMA busy_timeout = ${prev}`);
  }
}

export function openDatabase(file: string, opts: { migrate?: boolean } = {}): DbHandle {
  if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
  const sqlite = new Database(file, { create: true, strict: true });
  // sqlite-vec on every connection: the embedding spaces are vec0 tables, and deleting a chunk
  // (a purged document cascades to its chunks) fires triggers that delete from them.
  sqliteVec.load(sqlite);
  // Opening and migrating may wait for another process's write (nothing is being served yet).
  sqlite.exec("PRAGMA busy_timeout = 5000");
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  sqlite.exec("PRAGMA synchronous = NORMAL");
  const db = drizzle(sqlite);
  if (opts.migrate !== false) migrate(db, { migrationsFolder });
  sqlite.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  return { sqlite, db, file };
}

let current: DbHandle | null = null;
let opener: (() => DbHandle) | null = null;

/** Where the process-wide database lives; set once at start (server, scripts) or per test file. */
export function configureDatabase(open: () => DbHandle) {
  current?.sqlite.close();
  current = null;
  opener = open;
}

export function handle(): DbHandle {
  if (!current) {
    if (!opener) throw new Error("database not configured");
    current = opener();
  }
  return current;
}

export const getDb = () => handle().db;
export const getSqlite = () => handle().sqlite;

export function closeDatabase() {
  current?.sqlite.close();
  current = null;
}
