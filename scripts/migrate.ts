// `bun run db:migrate`: applies db/migrations to DATA_DIR/wenku.db and says what it did. The server
// and every script migrate on open too; this is for doing it ahead of a deploy and seeing the result.
import { join } from "node:path";
import { handle, openDatabase } from "#db/client.ts";
import { bootDatabase } from "#src/boot.ts";
import { env } from "#src/env.ts";

function applied(h: { sqlite: import("bun:sqlite").Database }) {
  const has = h.sqlite.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'").get();
  return has ? (h.sqlite.query("SELECT count(*) AS n FROM __drizzle_migrations").get() as { n: number }).n : 0;
}

const before = openDatabase(join(env.DATA_DIR, "wenku.db"), { migrate: false });
const already = applied(before);
before.sqlite.close();

bootDatabase();
const after = handle();
const now = applied(after);
const tables = (after.sqlite.query("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '\\_\\_%' ESCAPE '\\'").get() as { n: number }).n;
console.log(`数据库 ${after.file}：本次应用 ${now - already} 个迁移，共已应用 ${now} 个，${tables} 张表`);
