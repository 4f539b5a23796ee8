// Cold start and idle memory (design.md §8: first response < 1.5 s, idle RSS < 200 MB).
// "Cold" = a fresh DATA_DIR: the process opens a new database, runs every migration and creates the
// administrator before it listens; "warm" = the same data directory again. Assets are built
// beforehand, as `bun run start` does before it starts the server.
import { readFileSync } from "node:fs";
import { fmt, freePort, loadRun, prepareDirs, printMachine, saveResult, spawnServer, table, untilOk, verdict } from "./lib.ts";

printMachine();

const START_BUDGET_MS = 1500;
const RSS_BUDGET_MB = 200;
const RUNS = 3;

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

async function firstOk(path: string, cold: boolean) {
  const dirs = await prepareDirs({ seed: !cold });
  const server = spawnServer(dirs, await freePort());
  try {
    return await untilOk(server, path);
  } finally {
    await server.stop();
    dirs.cleanup();
  }
}

const samples: Record<string, number[]> = { "cold /healthz": [], "cold /": [], "warm /healthz": [], "warm /": [] };
for (let i = 0; i < RUNS; i++) {
  samples["cold /healthz"]!.push(await firstOk("/healthz", true));
  samples["cold /"]!.push(await firstOk("/", true));
  samples["warm /healthz"]!.push(await firstOk("/healthz", false));
  samples["warm /"]!.push(await firstOk("/", false));
}

// Idle memory: a seeded site after a burst of page views, then a quiet moment.
const dirs = await prepareDirs({ seed: true });
const server = spawnServer(dirs, await freePort());
let idle = 0;
let afterStart = 0;
try {
  await untilOk(server, "/");
  afterStart = rssMb(server.proc.pid);
  for (const path of ["/", "/login", "/api/v1/settings", "/sitemap.xml", "/no-such-page"]) {
    await loadRun(server.url + path, { connections: 16, durationMs: 1000, headers: { accept: "text/html", "accept-encoding": "gzip" } });
  }
  await Bun.sleep(3000);
  idle = rssMb(server.proc.pid);
} finally {
  await server.stop();
  dirs.cleanup();
}

const worst = (k: string) => Math.max(...samples[k]!);
console.log(`Start-up: spawn of \`bun src/server.ts\` (NODE_ENV=production) to first 200, ${RUNS} runs each`);
table(["case", ...samples["cold /"]!.map((_, i) => `run ${i + 1} ms`), "worst ms"], Object.entries(samples).map(([k, v]) => [k, ...v.map((x) => fmt(x)), fmt(worst(k))]));
console.log(`\nMemory: RSS ${fmt(afterStart, 1)} MB right after start, ${fmt(idle, 1)} MB idle after 5 s of load on 5 routes`);
const ok = verdict([
  { target: "cold start to first 200 of /healthz < 1.5 s", value: `${fmt(worst("cold /healthz"))} ms (worst of ${RUNS})`, ok: worst("cold /healthz") < START_BUDGET_MS },
  { target: "cold start to first 200 of / < 1.5 s", value: `${fmt(worst("cold /"))} ms (worst of ${RUNS})`, ok: worst("cold /") < START_BUDGET_MS },
  { target: "idle RSS < 200 MB", value: `${fmt(idle, 1)} MB`, ok: idle < RSS_BUDGET_MB },
]);
saveResult("startup", { runs: RUNS, samples_ms: samples, rss_mb: { after_start: afterStart, idle } });
process.exitCode = ok ? 0 : 1;
