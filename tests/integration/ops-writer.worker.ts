// A separate process writing while a backup runs (ops-backup.test.ts): inserts one row per
// transaction into probe until STOP_FILE appears, printing how many rows it committed.
import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";

const db = new Database(process.env.DB_FILE!);
db.exec("PRAGMA busy_timeout = 5000");
const insert = db.query("INSERT INTO probe (v, at) VALUES (?, ?)");
let n = 0;
process.stdout.write("started\n");
while (!existsSync(process.env.STOP_FILE!)) {
  insert.run(`row-${n}-${"x".repeat(200)}`, Date.now());
  n++;
  // A steady stream of small commits (hundreds a second, like a busy site) that leaves the lock
  // free between them; the server's job claims never wait for a lock, they back off.
  await Bun.sleep(1);
}
db.close();
process.stdout.write(`${JSON.stringify({ committed: n })}\n`);
