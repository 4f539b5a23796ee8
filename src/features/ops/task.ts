// Child-process entry for the heavy operations (database maintenance, backup archives): run as
// `bun task.ts <command> <json>`; prints one JSON line `{ ok, result | error }` on stdout.
// A child keeps the server's JS thread free while SQLite works synchronously for seconds.
import { buildArchive } from "./archive.ts";
import { maintain } from "./maintenance.ts";

const [command, raw] = process.argv.slice(2);
try {
  const args = JSON.parse(raw ?? "{}");
  const result = command === "maintain" ? maintain(args.db, !!args.vacuum)
    : command === "backup" ? await buildArchive(args)
    : (() => { throw new Error(`未知命令：${command}`); })();
  process.stdout.write(`${JSON.stringify({ ok: true, result })}\n`);
} catch (e) {
  process.stdout.write(`${JSON.stringify({ ok: false, error: (e as Error).message })}\n`);
  process.exitCode = 1;
}
