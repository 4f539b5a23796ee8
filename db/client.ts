import { Database } from "bun:sqlite";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";

export type Db = BunSQLiteDatabase;
export interface DbHandle {
  sqlite: Database;
  db: Db;
  file: string;
}

const migrationsFolder = join(import.meta.dir, "migrations");

export function openDatabase(file: string, opts: { migrate?: boolean } = {}): DbHandle {
  if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
  const sqlite = new Database(file, { create: true, strict: true });
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  sqlite.exec("PRAGMA busy_timeout = 5000");
  sqlite.exec("PRAGMA synchronous = NORMAL");
  const db = drizzle(sqlite);
  if (opts.migrate !== false) migrate(db, { migrationsFolder });
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
