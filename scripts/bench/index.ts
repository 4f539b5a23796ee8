// `bun run bench`: every benchmark in its own process (so one's heap never skews another's),
// output forwarded as it comes, then one line per benchmark and the list of every missed budget
// (collected from each bench's verdict() rows through BENCH_VERDICTS) with the machine line.
// Exits non-zero if a target is missed or a bench fails. BENCH_ONLY=ssr,size runs a subset.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { machine, printMachine, saveResult, type VerdictRow } from "./lib.ts";

const root = resolve(import.meta.dir, "../..");
const BENCHES = [
  ["startup", "scripts/bench/startup.ts"],
  ["size", "scripts/bench/size.ts"],
  ["ssr", "scripts/bench/ssr.ts"],
  ["articles", "scripts/bench/articles.ts"],
  ["auth", "scripts/bench/auth.ts"],
  ["convert", "scripts/bench/convert.ts"],
  ["convert-load", "scripts/bench/convert-load.ts"],
  ["pages", "scripts/bench/pages.ts"],
  ["search", "scripts/bench/search.ts"],
  ["chat", "scripts/bench/chat.ts"],
  ["ocr", "scripts/bench/ocr.ts"],
  ["vectors", "scripts/bench/vectors.ts"],
  ["retrieval", "scripts/bench/retrieval.ts"],
  ["orders", "scripts/bench/orders.ts"],
  ["backup", "scripts/bench/backup.ts"],
  ["spider", "scripts/bench/spider.ts"],
] as const;
const only = process.env.BENCH_ONLY?.split(",").map((s) => s.trim()).filter(Boolean);

const tmp = mkdtempSync(join(tmpdir(), "wk-bench-run-"));
const started = machine();
const results: { name: string; code: number; rows: (VerdictRow & { bench: string })[] }[] = [];
console.log(`bench ${new Date().toISOString()}`);
printMachine();
for (const [name, file] of BENCHES) {
  if (only && !only.includes(name)) continue;
  console.log(`\n=== ${name}`);
  const verdictFile = join(tmp, `${name}.jsonl`);
  const p = Bun.spawn(["bun", file], { cwd: root, stdout: "inherit", stderr: "inherit", stdin: "ignore", env: { ...process.env, BENCH_VERDICTS: verdictFile } });
  const code = await p.exited;
  const rows = existsSync(verdictFile) ? readFileSync(verdictFile, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as VerdictRow & { bench: string }) : [];
  results.push({ name, code, rows });
}
rmSync(tmp, { recursive: true, force: true });

console.log(`\n${results.map((r) => `${r.name}: ${r.code === 0 ? "all targets met" : r.rows.some((x) => !x.ok) ? "target missed" : `failed (exit ${r.code})`}`).join(" · ")}`);
const missed = results.flatMap((r) => r.rows.filter((x) => !x.ok));
// A bench that exits non-zero without a missed verdict row crashed or threw: a miss all the same.
const failed = results.filter((r) => r.code !== 0 && !r.rows.some((x) => !x.ok));
console.log(`\nMissed budgets (${missed.length + failed.length}):`);
for (const m of missed) console.log(`  MISS  ${m.bench.padEnd(12)} ${m.target.padEnd(50)} ${m.value}`);
for (const f of failed) console.log(`  FAIL  ${f.name.padEnd(12)} exited ${f.code} without a verdict (see its output above)`);
if (!missed.length && !failed.length) console.log("  none");
console.log(`at start: load average ${started.load.join(" / ")}`);
printMachine();
saveResult("summary", { started: started, benches: results.map((r) => ({ name: r.name, exit: r.code, verdicts: r.rows })) });
process.exit(missed.length || failed.length ? 1 : 0);
