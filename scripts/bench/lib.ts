// Shared by the benchmarks: a production server on loopback with its own temp DATA_DIR (seeded) and
// DIST_DIR, and a bounded keep-alive load generator. Traffic goes to 127.0.0.1 only and every loop
// stops after a fixed duration.
import type { Subprocess } from "bun";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join, resolve } from "node:path";

export const root = resolve(import.meta.dir, "../..");
export const BENCH_ADMIN = { username: "bench-admin", password: "bench-admin-pass-1" };

export async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const p = s.port!;
  s.stop(true);
  return p;
}

export interface BenchDirs { dataDir: string; distDir: string; cleanup: () => void }

/** Temp DATA_DIR (optionally seeded) and DIST_DIR (built), so nothing touches the working copy's. */
export async function prepareDirs(opts: { seed?: boolean } = {}): Promise<BenchDirs> {
  const dataDir = mkdtempSync(join(tmpdir(), "wk-bench-data-"));
  const distDir = mkdtempSync(join(tmpdir(), "wk-bench-dist-"));
  const env = { ...process.env, DATA_DIR: dataDir, DIST_DIR: distDir, ADMIN_USERNAME: BENCH_ADMIN.username, ADMIN_PASSWORD: BENCH_ADMIN.password, LOG_LEVEL: "warn" };
  await run(["bun", "scripts/build.ts"], env);
  if (opts.seed) await run(["bun", "scripts/seed.ts"], env);
  return {
    dataDir, distDir,
    cleanup() {
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(distDir, { recursive: true, force: true });
    },
  };
}

async function run(cmd: string[], env: Record<string, string | undefined>) {
  const p = Bun.spawn(cmd, { cwd: root, env, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0) throw new Error(`${cmd.join(" ")} failed (${code}):\n${out}${err}`);
}

export interface BenchServer { url: string; proc: Subprocess; startedAt: number; stop: () => Promise<void> }

/** `bun src/server.ts` as `bun run start` runs it (production), on a free loopback port. */
export function spawnServer(dirs: BenchDirs, port: number, env: Record<string, string> = {}): BenchServer {
  const startedAt = performance.now();
  const proc = Bun.spawn(["bun", "src/server.ts"], {
    cwd: root,
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

export interface LoadResult { requests: number; errors: number; rps: number; p50: number; p99: number; bytes: number; seconds: number; latencies: number[] }

/**
 * `connections` keep-alive HTTP/1.1 connections, each sending its next request as soon as the last
 * response is complete, for `durationMs`; latency per request in ms. A raw-socket client rather
 * than fetch(): on two cores the generator shares the CPU with the server, and fetch's own cost
 * would cap the static baseline. Bodies are counted as received (gzip stays gzip).
 */
export async function load(url: string, opts: { connections?: number; durationMs?: number; headers?: Record<string, string> } = {}): Promise<LoadResult> {
  const connections = opts.connections ?? 64;
  const durationMs = opts.durationMs ?? 5000;
  const u = new URL(url);
  const request = Buffer.from(
    `GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nConnection: keep-alive\r\n` +
      Object.entries(opts.headers ?? {}).map(([k, v]) => `${k}: ${v}\r\n`).join("") + "\r\n",
  );
  const latencies: number[] = [];
  let errors = 0;
  let bytes = 0;
  const started = performance.now();
  const end = started + durationMs;

  const connection = () => new Promise<void>((resolve) => {
    let buf = Buffer.alloc(0);
    let sentAt = 0;
    let finished = false;
    const done = (socket?: { end(): void }) => {
      if (finished) return;
      finished = true;
      socket?.end();
      resolve();
    };
    const send = (socket: { write(b: Uint8Array): number; end(): void }) => {
      if (performance.now() >= end) return done(socket);
      sentAt = performance.now();
      socket.write(request);
    };
    /** Length of one complete response at the start of buf (and its body size), or null if incomplete. */
    const complete = (): { length: number; body: number; status: number } | null => {
      const head = buf.indexOf("\r\n\r\n");
      if (head < 0) return null;
      const headers = buf.subarray(0, head).toString("latin1");
      const status = Number(headers.slice(9, 12));
      const cl = /\r\ncontent-length:\s*(\d+)/i.exec(headers);
      if (cl) {
        const len = Number(cl[1]);
        return buf.length >= head + 4 + len ? { length: head + 4 + len, body: len, status } : null;
      }
      if (!/\r\ntransfer-encoding:\s*chunked/i.test(headers)) return { length: head + 4, body: 0, status };
      let at = head + 4;
      let body = 0;
      for (;;) {
        const eol = buf.indexOf("\r\n", at);
        if (eol < 0) return null;
        const size = parseInt(buf.subarray(at, eol).toString("latin1"), 16);
        if (size === 0) return buf.length >= eol + 4 ? { length: eol + 4, body, status } : null;
        if (buf.length < eol + 2 + size + 2) return null;
        body += size;
        at = eol + 2 + size + 2;
      }
    };
    void Bun.connect({
      hostname: u.hostname,
      port: Number(u.port),
      socket: {
        open: send,
        data(socket, chunk) {
          buf = buf.length ? Buffer.concat([buf, chunk]) : Buffer.from(chunk);
          const r = complete();
          if (!r) return;
          buf = buf.subarray(r.length);
          if (r.status === 200) {
            latencies.push(performance.now() - sentAt);
            bytes += r.body;
          } else errors++;
          send(socket);
        },
        close: () => done(),
        error: () => {
          errors++;
          done();
        },
      },
    }).catch(() => {
      errors++;
      done();
    });
  });

  await Promise.all(Array.from({ length: connections }, connection));
  return summarize(latencies, errors, bytes, (performance.now() - started) / 1000);
}

function summarize(latencies: number[], errors: number, bytes: number, seconds: number): LoadResult {
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? NaN;
  return { requests: latencies.length, errors, rps: latencies.length / seconds, p50: pct(0.5), p99: pct(0.99), bytes, seconds, latencies };
}

/** Several slices of the same case as one result (their time and latencies added up). */
export function merge(parts: LoadResult[]): LoadResult {
  return summarize(parts.flatMap((p) => p.latencies), parts.reduce((n, p) => n + p.errors, 0), parts.reduce((n, p) => n + p.bytes, 0), parts.reduce((n, p) => n + p.seconds, 0));
}

export async function login(url: string): Promise<string> {
  const r = await fetch(`${url}/api/v1/user/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(BENCH_ADMIN) });
  if (r.status !== 200) throw new Error(`login failed: ${r.status} ${await r.text()}`);
  return ((await r.json()) as { token: string }).token;
}

/** The machine a run was measured on: printed first by every bench and kept in its JSON summary. */
export function machine() {
  const [l1, l5, l15] = loadavg().map((n) => Math.round(n * 100) / 100);
  return { cores: navigator.hardwareConcurrency, cpu: cpus()[0]?.model ?? "", memory_gb: Math.round(totalmem() / 2 ** 30), load: [l1, l5, l15], bun: Bun.version };
}

export function printMachine() {
  const m = machine();
  console.log(`machine: ${m.cores} cores (${m.cpu}) · ${m.memory_gb} GiB · load average ${m.load.join(" / ")} · bun ${m.bun}`);
}

/** Writes bench-results/<name>-<time>.json (gitignored) so runs can be compared; answers the path. */
export function saveResult(name: string, data: Record<string, unknown>): string {
  const dir = join(root, "bench-results");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, `${JSON.stringify({ bench: name, at: new Date().toISOString(), machine: machine(), ...data }, null, 2)}\n`);
  return file;
}

export const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : "-");

/** One line per target, and whether it is met; the caller exits non-zero if any is missed. */
export function verdict(rows: { target: string; value: string; ok: boolean }[]) {
  console.log("\nVerdict");
  for (const r of rows) console.log(`  ${r.ok ? "PASS" : "MISS"}  ${r.target.padEnd(46)} ${r.value}`);
  return rows.every((r) => r.ok);
}

export function table(head: string[], rows: string[][]) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => "  " + cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  console.log(line(head));
  for (const r of rows) console.log(line(r));
}
