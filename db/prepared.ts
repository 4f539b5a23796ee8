import { getDb } from "./client.ts";

// Drizzle builds SQL text on every call (tens of µs); per-request lookups are prepared
// once per database instead. Keyed by the database object, so a test's fresh database gets its own.
const byDb = new WeakMap<object, Map<string, unknown>>();

export function prepared<T>(key: string, build: () => T): T {
  const db = getDb();
  let m = byDb.get(db);
  if (!m) byDb.set(db, (m = new Map()));
  let stmt = m.get(key) as T | undefined;
  if (!stmt) m.set(key, (stmt = build()));
  return stmt;
}
