// SSR throughput of the home page against a static file of the same byte size, served by the same
// production server process in the same run (design.md §8: SSR ≥ 25% of static, p99 < 50 ms).
// The static twin is the page's own HTML written to DIST_DIR/assets, so both bodies compress alike.
// Cases that are compared run in alternating one-second slices, so drift in what else the machine
// is doing falls on both sides of a ratio alike.
//   anonymous  — what visitors get: the shared page cache (rendered once per content version)
//   logged-in  — a session cookie bypasses the cache, so every request renders React on the server
import { unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fmt, load, login, merge, prepareDirs, startServer, table, verdict, type LoadResult } from "./lib.ts";

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);
const SLICE_MS = 1000;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);

const dirs = await prepareDirs({ seed: true });
const server = await startServer(dirs);
try {
  const token = await login(server.url);
  const identity = { accept: "text/html", "accept-encoding": "identity" };
  const gzip = { accept: "text/html", "accept-encoding": "gzip, deflate, br" };
  const page = new Uint8Array(await (await fetch(`${server.url}/`, { headers: identity })).arrayBuffer());
  const staticName = `bench-${crypto.randomUUID().slice(0, 8)}.html`;
  writeFileSync(join(dirs.distDir, "assets", staticName), page);
  const check = await fetch(`${server.url}/assets/${staticName}`, { headers: identity });
  const staticBytes = (await check.arrayBuffer()).byteLength;
  if (check.status !== 200 || staticBytes !== page.byteLength) throw new Error(`static twin not served as expected (${check.status}, ${staticBytes} B)`);

  const cases: { name: string; path: string; headers: Record<string, string>; connections?: number }[] = [
    { name: "static file (identity)", path: `/assets/${staticName}`, headers: identity },
    { name: "/ anonymous (identity)", path: "/", headers: identity },
    { name: "/ logged-in SSR (identity)", path: "/", headers: { ...identity, cookie: `wk_token=${token}` } },
    { name: "static file (gzip asked)", path: `/assets/${staticName}`, headers: gzip },
    { name: "/ anonymous (gzip)", path: "/", headers: gzip },
    { name: "/ logged-in SSR (gzip)", path: "/", headers: { ...gzip, cookie: `wk_token=${token}` } },
    // Latency when rendering is not queued behind 64 others.
    { name: "/ logged-in SSR (gzip, 4 conns)", path: "/", headers: { ...gzip, cookie: `wk_token=${token}` }, connections: 4 },
  ];
  console.log(`SSR vs static: ${CONNECTIONS} keep-alive connections, ${DURATION_MS / 1000} s each in ${SLICE_MS / 1000} s slices, page ${page.byteLength} B, 127.0.0.1, NODE_ENV=production, LOG_LEVEL=warn`);
  // Short warm-up so JIT and the page cache are in their steady state.
  for (const c of cases) await load(server.url + c.path, { connections: 8, durationMs: 500, headers: c.headers });
  const slices = new Map<string, LoadResult[]>(cases.map((c) => [c.name, []]));
  for (const group of [cases.slice(0, 3), cases.slice(3)]) {
    for (let i = 0; i < Math.max(1, Math.round(DURATION_MS / SLICE_MS)); i++) {
      for (const c of group) slices.get(c.name)!.push(await load(server.url + c.path, { connections: c.connections ?? CONNECTIONS, durationMs: SLICE_MS, headers: c.headers }));
    }
  }
  const results = new Map([...slices].map(([k, v]) => [k, merge(v)]));
  unlinkSync(join(dirs.distDir, "assets", staticName));

  const staticId = results.get("static file (identity)")!;
  const staticGz = results.get("static file (gzip asked)")!;
  table(
    ["case", "req/s", "vs static", "p50 ms", "p99 ms", "B/resp", "errors"],
    cases.map((c) => {
      const r = results.get(c.name)!;
      const base = c.name.includes("gzip") ? staticGz : staticId;
      return [c.name, fmt(r.rps), `${fmt((r.rps / base.rps) * 100)}%`, fmt(r.p50, 1), fmt(r.p99, 1), fmt(r.bytes / Math.max(1, r.requests)), String(r.errors)];
    }),
  );
  const ratio = (name: string, base: LoadResult) => results.get(name)!.rps / base.rps;
  const p99 = (name: string) => results.get(name)!.p99;
  const ok = verdict([
    { target: "anonymous / ≥ 25% of static req/s (identity)", value: `${fmt(ratio("/ anonymous (identity)", staticId) * 100)}%`, ok: ratio("/ anonymous (identity)", staticId) >= 0.25 },
    { target: "anonymous / ≥ 25% of static req/s (gzip)", value: `${fmt(ratio("/ anonymous (gzip)", staticGz) * 100)}%`, ok: ratio("/ anonymous (gzip)", staticGz) >= 0.25 },
    { target: "logged-in SSR / ≥ 25% of static req/s", value: `${fmt(ratio("/ logged-in SSR (identity)", staticId) * 100)}%`, ok: ratio("/ logged-in SSR (identity)", staticId) >= 0.25 },
    { target: "p99 of / < 50 ms (anonymous, gzip)", value: `${fmt(p99("/ anonymous (gzip)"), 1)} ms`, ok: p99("/ anonymous (gzip)") < 50 },
    { target: "p99 of / < 50 ms (logged-in SSR, 4 conns)", value: `${fmt(p99("/ logged-in SSR (gzip, 4 conns)"), 1)} ms`, ok: p99("/ logged-in SSR (gzip, 4 conns)") < 50 },
    { target: "no errors", value: String(cases.reduce((n, c) => n + results.get(c.name)!.errors, 0)), ok: cases.every((c) => results.get(c.name)!.errors === 0) },
  ]);
  process.exitCode = ok ? 0 : 1;
} finally {
  await server.stop();
  dirs.cleanup();
}
