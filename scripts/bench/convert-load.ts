// Issue 4: does a running conversion hurt visitors? p99 of `/` while LibreOffice/MuPDF convert
// documents, against the same server idle, in one run (target: at most 2× idle). Conversions run
// as subprocesses off the event loop, so the server should keep answering.
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { BENCH_ADMIN, fmt, load, login, prepareDirs, startServer, table, verdict } from "./lib.ts";

const DURATION = Number(process.env.BENCH_DURATION_MS ?? 4000);
const dirs = await prepareDirs({ seed: true });
const server = await startServer(dirs);
const token = await login(server.url);
const db = new Database(join(dirs.dataDir, "wenku.db"), { readonly: true });
const ids = (db.query("SELECT id FROM document").all() as { id: number }[]).map((r) => r.id);
const converting = () => (db.query("SELECT count(*) AS n FROM document WHERE status IN (0, 1, 5)").get() as { n: number }).n;

const cases = [
  ["/ anonymous (cached)", {}],
  ["/ logged in (rendered)", { authorization: `Bearer ${token}` }],
] as const;

async function measure() {
  const out: Record<string, Awaited<ReturnType<typeof load>>> = {};
  for (const [name, headers] of cases) out[name] = await load(`${server.url}/`, { connections: 8, durationMs: DURATION / 2, headers: { ...headers, "accept-encoding": "gzip" } });
  return out;
}

const idle = await measure();
// Every seeded document (Office, EPUB, text, PDF) converts again from scratch.
const r = await fetch(`${server.url}/api/v1/document/reconvert`, {
  method: "PUT", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ id: ids }),
});
if (r.status !== 200) throw new Error(`reconvert: ${r.status} ${await r.text()}`);
await Bun.sleep(300);
const busyBefore = converting();
const busy = await measure();
const busyAfter = converting();
await server.stop();
db.close();
dirs.cleanup();

console.log(`\nconversions in flight: ${busyBefore} when measuring began, ${busyAfter} when it ended (${ids.length} reconverted); ${BENCH_ADMIN.username} logged in for the rendered case\n`);
table(["case", "idle req/s", "idle p99 ms", "converting req/s", "converting p99 ms", "p99 ratio"],
  cases.map(([name]) => [name, fmt(idle[name]!.rps), fmt(idle[name]!.p99, 1), fmt(busy[name]!.rps), fmt(busy[name]!.p99, 1), fmt(busy[name]!.p99 / idle[name]!.p99, 2)]));
process.exitCode = verdict(cases.map(([name]) => ({
  target: `${name}: p99 while converting ≤ 2× idle`, value: `${fmt(busy[name]!.p99 / idle[name]!.p99, 2)}×`, ok: busy[name]!.p99 <= 2 * idle[name]!.p99,
}))) && busyBefore > 0 ? 0 : 1;
