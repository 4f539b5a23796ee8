// `bun run bench`: every benchmark in its own process (so one's heap never skews another's),
// output forwarded as it comes, then one line per benchmark. Exits non-zero if a target is missed.
import { resolve } from "node:path";

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

const results: [string, number][] = [];
console.log(`bench ${new Date().toISOString()} · bun ${Bun.version} · ${navigator.hardwareConcurrency} cores`);
for (const [name, file] of BENCHES) {
  console.log(`\n=== ${name}`);
  const p = Bun.spawn(["bun", file], { cwd: root, stdout: "inherit", stderr: "inherit", stdin: "ignore" });
  results.push([name, await p.exited]);
}
console.log(`\n${results.map(([n, c]) => `${n}: ${c === 0 ? "all targets met" : "target missed"}`).join(" · ")}`);
process.exit(results.some(([, c]) => c !== 0) ? 1 : 0);
