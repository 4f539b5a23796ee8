// Small records of the last maintenance run and the last update check, kept in the config table
// under category "ops" (not a settings group: nobody edits them, and GET /settings never lists
// categories outside the definitions), so they survive restarts without a table of their own.
import { getSqlite } from "#db/client.ts";

export function readState<T>(name: string): T | null {
  const row = getSqlite().query("SELECT value FROM config WHERE category = 'ops' AND name = ?").get(name) as { value: string } | null;
  if (!row) return null;
  try {
    return JSON.parse(row.value) as T;
  } catch {
    return null;
  }
}

export function writeState(name: string, value: unknown) {
  getSqlite().query(
    "INSERT INTO config (category, name, value, created_at, updated_at) VALUES ('ops', ?, ?, ?, ?) ON CONFLICT(category, name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
  ).run(name, JSON.stringify(value), Date.now(), Date.now());
}
