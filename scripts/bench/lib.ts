// Shared by the benchmarks: a production server on loopback with its own temp DATA_DIR (seeded) and
// DIST_DIR, the static baseline of design.md §8 (a bare Bun.serve in its own process), load runs by
// autocannon in its own Node process (loadRun, levels), the machine line, JSON summaries and the
// verdicts `bun run bench` collects. Traffic goes to 127.0.0.1 only and every run stops after a
// fixed duration.
//
// BENCH_APP_DIR=/path/to/a/checkout (or the appDir option of prepareDirs) builds, seeds and starts
// that checkout's server instead of this one, so "before" and "after" are measured by the same
// bench code: `git worktree add /tmp/wk-before <commit>`, symlink node_modules, then
// `BENCH_APP_DIR=/tmp/wk-before bun scripts/bench/ssr.ts`.
import type { Subprocess } from "bun";
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { basename, join, resolve } from "node:path";

export const root = resolve(import.meta.dir, "../..");
/** The checkout whose server the benches build, seed and start (BENCH_APP_DIR, default this one). */
export const APP_DIR = resolve(process.env.BENCH_APP_DIR || root);
if (!existsSync(join(APP_DIR, "src/server.ts"))) throw new Error(`BENCH_APP_DIR ${APP_DIR} has no src/server.ts`);
export const BENCH_ADMIN = { username: "bench-admin", password: "bench-admin-pass-1" };

export async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const p = s.port!;
  s.stop(true);
  return p;
}

export interface BenchDirs { dataDir: string; distDir: string; appDir: string; cleanup: () => void }

/**
 * Temp DATA_DIR (optionally seeded) and DIST_DIR (built), so nothing touches the working copy's.
 * Built and seeded by `appDir`'s own scripts (default APP_DIR); spawnServer starts that checkout.
 */
export async function prepareDirs(opts: { seed?: boolean; appDir?: string } = {}): Promise<BenchDirs> {
  const appDir = resolve(opts.appDir ?? APP_DIR);
  const dataDir = mkdtempSync(join(tmpdir(), "wk-bench-data-"));
  const distDir = mkdtempSync(join(tmpdir(), "wk-bench-dist-"));
  const env = { ...process.env, DATA_DIR: dataDir, DIST_DIR: distDir, ADMIN_USERNAME: BENCH_ADMIN.username, ADMIN_PASSWORD: BENCH_ADMIN.password, LOG_LEVEL: "warn" };
  await run(["bun", "scripts/build.ts"], env, appDir);
  if (opts.seed) await run(["bun", "scripts/seed.ts"], env, appDir);
  return {
    dataDir, distDir, appDir,
    cleanup() {
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(distDir, { recursive: true, force: true });
    },
  };
}

async function run(cmd: string[], env: Record<string, string | undefined>, cwd = root) {
  const p = Bun.spawn(cmd, { cwd, env, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0) throw new Error(`${cmd.join(" ")} failed (${code}):\n${out}${err}`);
}

export interface BenchServer { url: string; proc: Subprocess; startedAt: number; stop: () => Promise<void> }

/** `bun src/server.ts` of dirs.appDir as `bun run start` runs it (production), on a free loopback port. */
export function spawnServer(dirs: BenchDirs, port: number, env: Record<string, string> = {}): BenchServer {
  const startedAt = performance.now();
  const proc = Bun.spawn(["bun", "src/server.ts"], {
    cwd: dirs.appDir,
    env: {
      ...process.env, NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(port), DATA_DIR: dirs.dataDir, DIST_DIR: dirs.distDir,
      ADMIN_USERNAME: BENCH_ADMIN.username, ADMIN_PASSWORD: BENCH_ADMIN.password, LOG_LEVEL: "warn", ...env,
    },
    stdout: "ignore",
    stderr: "inherit",
  });
  return {
    url: `http://127.0.0.1:${port}`, proc, startedAt,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

/** Polls `path` until it answers 200; milliseconds since the server process was spawned. */
export async function untilOk(server: BenchServer, path: string, timeoutMs = 15_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const r = await fetch(server.url + path, { headers: { accept: "text/html" } });
      await r.arrayBuffer();
      if (r.status === 200) return performance.now() - server.startedAt;
    } catch {}
    if (server.proc.exitCode !== null) throw new Error(`server exited (${server.proc.exitCode})`);
    if (Date.now() > deadline) throw new Error(`${path} did not answer 200 within ${timeoutMs} ms`);
    await Bun.sleep(2);
  }
}

export async function startServer(dirs: BenchDirs, env: Record<string, string> = {}) {
  const s = spawnServer(dirs, await freePort(), env);
  await untilOk(s, "/healthz");
  return s;
}

export async function login(url: string, account: { username: string; password: string } = BENCH_ADMIN): Promise<string> {
  const r = await fetch(`${url}/api/v1/user/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(account) });
  if (r.status !== 200) throw new Error(`login failed: ${r.status} ${await r.text()}`);
  return ((await r.json()) as { token: string }).token;
}

/** The machine a run was measured on: printed first by every bench and kept in its JSON summary. */
export function machine() {
  const [l1, l5, l15] = loadavg().map((n) => Math.round(n * 100) / 100);
  return { cores: navigator.hardwareConcurrency, cpu: cpus()[0]?.model ?? "", memory_gb: Math.round(totalmem() / 2 ** 30), load: [l1, l5, l15], bun: Bun.version, load_tool: LOAD_TOOL };
}

export function printMachine() {
  const m = machine();
  console.log(`machine: ${m.cores} cores (${m.cpu}) · ${m.memory_gb} GiB · load average ${m.load.join(" / ")} · bun ${m.bun} · load tool ${m.load_tool}`);
}

/** This bench's name: the script's file name without .ts (ssr, search, …). */
export const BENCH_NAME = basename(process.argv[1] ?? "bench").replace(/\.[cm]?[jt]s$/, "");

export interface VerdictRow { target: string; value: string; ok: boolean }
/** Every verdict() row of this process, in order; saved with the JSON summary. */
export const verdicts: (VerdictRow & { bench: string })[] = [];
let saved = false;

/**
 * Writes bench-results/<name>-<time>.json (gitignored) so runs can be compared; answers the path.
 * The machine line and every verdict() row so far go in too. A bench that prints verdicts but
 * never calls this still gets a summary (machine + verdicts) when it exits.
 */
export function saveResult(name: string, data: Record<string, unknown>): string {
  saved = true;
  const dir = join(root, "bench-results");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, `${JSON.stringify({ bench: name, at: new Date().toISOString(), machine: machine(), app_dir: APP_DIR, verdicts, ...data }, null, 2)}\n`);
  return file;
}
process.on("exit", () => {
  if (!saved && verdicts.length) saveResult(BENCH_NAME, {});
});

export const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : "-");

/**
 * One line per target, and whether it is met; the caller exits non-zero if any is missed. The rows
 * are kept for saveResult() and, under `bun run bench` (BENCH_VERDICTS = a JSON-lines file), handed
 * to index.ts, which lists every missed budget at the end.
 */
export function verdict(rows: VerdictRow[]) {
  console.log("\nVerdict");
  for (const r of rows) console.log(`  ${r.ok ? "PASS" : "MISS"}  ${r.target.padEnd(46)} ${r.value}`);
  for (const r of rows) verdicts.push({ bench: BENCH_NAME, ...r });
  if (process.env.BENCH_VERDICTS) appendFileSync(process.env.BENCH_VERDICTS, rows.map((r) => `${JSON.stringify({ bench: BENCH_NAME, ...r })}\n`).join(""));
  return rows.every((r) => r.ok);
}

export function table(head: string[], rows: string[][]) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => "  " + cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  console.log(line(head));
  for (const r of rows) console.log(line(r));
}

// ---- Static baseline and load runs (design.md §8, issue 14) ----------------------------------

/**
 * The static baseline: a bare Bun.serve in its own process (scripts/bench/baseline-server.ts)
 * answering every request with exactly `body` and `headers` from memory. For a gzip comparison pass
 * the gzipped bytes and `content-encoding: gzip`.
 */
export async function startBaseline(body: Uint8Array, headers: Record<string, string>): Promise<{ url: string; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "wk-bench-baseline-"));
  const file = join(dir, "body");
  writeFileSync(file, body);
  const proc = Bun.spawn(["bun", join(import.meta.dir, "baseline-server.ts"), file, JSON.stringify(headers)], { cwd: root, stdout: "pipe", stderr: "inherit", env: { ...process.env, NODE_ENV: "production" } });
  const reader = proc.stdout.getReader();
  let out = "";
  while (!out.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`baseline server exited (${await proc.exited})`);
    out += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const url = out.trim();
  const check = await fetch(url, { headers: { "accept-encoding": "identity" }, decompress: false } as RequestInit);
  const got = new Uint8Array(await check.arrayBuffer());
  if (got.byteLength !== body.byteLength) throw new Error(`baseline answers ${got.byteLength} B, expected ${body.byteLength}`);
  return {
    url,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface LoadOpts { connections?: number; durationMs?: number; headers?: Record<string, string> }
/** One load run. Latencies in ms; errors = socket errors + timeouts + non-2xx. */
export interface Load { connections: number; rps: number; p50: number; p95: number; p99: number; max: number; errors: number; requests: number; bytes: number; seconds: number }

export const LEVELS = (process.env.BENCH_LEVELS ?? "1,4,16,64").split(",").map(Number).filter((n) => n > 0);
export const VERDICT_CONNECTIONS = 64;
/** Default length of one load run (BENCH_DURATION_MS, 2 s). */
export const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 2000);

/**
 * The load generator: wrk (C, two threads, Debian package `wrk`) when it is installed, else
 * autocannon 9 (devDependency, one Node thread). BENCH_LOAD_TOOL=wrk|autocannon forces one. On two
 * cores the generator shares the CPU with the server; autocannon spends about a core of it and caps a
 * bare Bun.serve near 20–30k req/s, where wrk lets it reach 40k+, so wrk's ratios are the honest ones.
 */
export const LOAD_TOOL: "wrk" | "autocannon" = (() => {
  const forced = process.env.BENCH_LOAD_TOOL;
  if (forced === "wrk" || forced === "autocannon") return forced;
  return Bun.which("wrk") ? "wrk" : "autocannon";
})();

/**
 * `connections` keep-alive connections for `durationMs`, by LOAD_TOOL in its own process, never an
 * in-process loop. `bytes` is what came over the socket (headers included; gzip stays gzip).
 */
export async function loadRun(url: string, opts: LoadOpts = {}): Promise<Load> {
  const connections = opts.connections ?? VERDICT_CONNECTIONS;
  const durationMs = opts.durationMs ?? DURATION_MS;
  const headers = opts.headers ?? {};
  const cmd = LOAD_TOOL === "wrk"
    ? [
      "wrk", `-t${Math.min(2, connections)}`, `-c${connections}`, `-d${Math.max(1, Math.round(durationMs / 1000))}s`, "--timeout", "10s",
      "-s", join(import.meta.dir, "wrk-report.lua"), ...Object.entries(headers).flatMap(([k, v]) => ["-H", `${k}: ${v}`]), url,
    ]
    : ["node", join(import.meta.dir, "autocannon-run.mjs"), JSON.stringify({ url, connections, durationMs, headers })];
  const p = Bun.spawn(cmd, { cwd: root, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0) throw new Error(`${LOAD_TOOL} failed (${code}): ${err}${out}`);
  const line = out.trim().split("\n").findLast((l) => l.startsWith("{"));
  if (!line) throw new Error(`${LOAD_TOOL} printed no result: ${out}`);
  const r = JSON.parse(line) as Omit<Load, "connections"> & { p50: number | null; p95: number | null; p99: number | null; max: number | null };
  const num = (x: number | null) => x ?? Number.NaN;
  return { connections, rps: r.rps, p50: num(r.p50), p95: num(r.p95), p99: num(r.p99), max: num(r.max), errors: r.errors, requests: r.requests, bytes: r.bytes, seconds: r.seconds };
}

/** The same run at each of LEVELS (1, 4, 16, 64 connections; BENCH_LEVELS to change); verdicts use 64. */
export async function levels(url: string, opts: Omit<LoadOpts, "connections"> & { connections?: number[] } = {}): Promise<Map<number, Load>> {
  const out = new Map<number, Load>();
  for (const c of opts.connections ?? LEVELS) out.set(c, await loadRun(url, { ...opts, connections: c }));
  return out;
}

/** A response's bytes exactly as sent (no decompression), for baselines of the same bytes. */
export async function fetchRaw(url: string, headers: Record<string, string>): Promise<{ status: number; body: Uint8Array; headers: Headers }> {
  const r = await fetch(url, { headers, decompress: false } as RequestInit);
  return { status: r.status, body: new Uint8Array(await r.arrayBuffer()), headers: r.headers };
}
