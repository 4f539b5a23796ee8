// Does a running conversion hurt visitors? (issue 14: `/` p99 during a conversion ≤ 2× idle, at 64
// connections.) The seeded demo site plus BENCH_CONVERT_DOCS (default 16) documents made from one
// 100-page Chinese PDF, all converted again from scratch (fresh, gzip copies on as by default), while
// the load tool (its own process, lib.ts loadRun: wrk when installed) loads `/` at each of
// BENCH_LEVELS; the same levels idle first, in the same run. `/healthz` at 1 connection is the
// event-loop probe: with one connection the CPU is not saturated, so the tools run and commit while
// it is measured, and its worst latencies are the server's longest stalls (a sync write, a big commit).
// Before measuring idle, the server is warmed (`/` for both cases, one search: the segmenter the
// search shares is loaded at the first query of a process, not by the conversion).
// Each case also reports how many conversions finished while it ran: a commit is part of "converting".
//
// BENCH_DURATION_MS (default 2000) per run; BENCH_LEVELS=1,4,16,64.
// BENCH_BEFORE_DIR=/path/to/another/checkout measures that checkout's server first, the same way, in
// the same run (A/B back to back); the verdict is this checkout's (BENCH_APP_DIR, default this one).
import { Database } from "bun:sqlite";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { APP_DIR, BENCH_ADMIN, fmt, LEVELS, type Load, loadRun, login, prepareDirs, printMachine, saveResult, startServer, table, VERDICT_CONNECTIONS, verdict } from "./lib.ts";

const DOCS = Number(process.env.BENCH_CONVERT_DOCS ?? 16);
const BEFORE_DIR = process.env.BENCH_BEFORE_DIR ? resolve(process.env.BENCH_BEFORE_DIR) : null;
const PARAGRAPH = "文库系统把上传的文档转换成清晰的页面图片和可检索的文字。每一页的文字分别保存，供全文搜索和智能问答使用；页面图片按设置的格式生成，并可以压缩存储以节省带宽。";
const bookHtml = (pages: number) => `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>${Array.from({ length: pages }, (_, n) =>
  `<h2${n ? ` style="page-break-before: always"` : ""}>第 ${n + 1} 章</h2>${Array.from({ length: 6 }, (_, i) => `<p>${i + 1}. ${PARAGRAPH}</p>`).join("")}`).join("")}</body></html>`;

type Phase = Record<string, Map<number, Load & { finished: number }>>;
const CASES = ["/ anonymous (cached)", "/ logged in (rendered)"] as const;
const PROBE = "/healthz (loop probe)";

/** One checkout: build, seed, add the PDFs, idle phase, reconvert everything, converting phase. */
async function measureApp(appDir: string) {
  const dirs = await prepareDirs({ seed: true, appDir });
  // A 100-page PDF stored DOCS times as distinct files (one byte differs after %%EOF), so no conversion reuses another's.
  const work = join(dirs.dataDir, "bench-input");
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, "book.html"), bookHtml(100));
  const p = Bun.spawn(["soffice", "--headless", "--norestore", `-env:UserInstallation=file://${work}/lo`, "--infilter=HTML (StarWriter)", "--convert-to", "pdf:writer_pdf_Export", "--outdir", work, join(work, "book.html")], { stdout: "ignore", stderr: "ignore", env: { ...process.env, HOME: work } });
  if ((await p.exited) !== 0) throw new Error("soffice could not make the 100-page PDF");
  const pdf = readFileSync(join(work, "book.pdf"));
  {
    const db = new Database(join(dirs.dataDir, "wenku.db"));
    const owner = (db.query("SELECT id FROM user ORDER BY id LIMIT 1").get() as { id: number }).id;
    for (let i = 0; i < DOCS; i++) {
      const bytes = Buffer.concat([pdf, Buffer.from(`\n%${i}\n`)]);
      const hash = new Bun.CryptoHasher("md5").update(bytes).digest("hex");
      const dir = join(dirs.dataDir, "documents", hash.slice(0, 2), hash);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "original.pdf"), bytes);
      db.query("INSERT INTO document (uuid, title, user_id, hash, ext, size, status) VALUES (?, ?, ?, ?, 'pdf', ?, 2)").run(crypto.randomUUID(), `转换压力测试 ${i + 1}`, owner, hash, bytes.length);
    }
    db.close();
  }
  const server = await startServer(dirs);
  const token = await login(server.url);
  const db = new Database(join(dirs.dataDir, "wenku.db"), { readonly: true });
  const ids = (db.query("SELECT id FROM document").all() as { id: number }[]).map((r) => r.id);
  const converting = () => (db.query("SELECT count(*) AS n FROM document WHERE status IN (0, 1, 5)").get() as { n: number }).n;
  const cases = [
    [CASES[0], "/", {}],
    [CASES[1], "/", { authorization: `Bearer ${token}` }],
  ] as const;

  const measure = async (phase: string): Promise<Phase> => {
    const out: Phase = {};
    const one = async (name: string, path: string, headers: Record<string, string>, c: number) => {
      const before = converting();
      const r = await loadRun(`${server.url}${path}`, { connections: c, headers });
      const after = converting();
      if (phase === "converting" && (before === 0 || after === 0)) console.warn(`  (${name} at ${c}: conversions ${before} → ${after}: not converting the whole run)`);
      (out[name] ??= new Map()).set(c, { ...r, finished: before - after });
    };
    for (const [name, path, headers] of cases) for (const c of LEVELS) await one(name, path, { ...headers, "accept-encoding": "gzip" }, c);
    await one(PROBE, "/healthz", {}, 1);
    return out;
  };

  // Warm-up: both `/` cases rendered and kept, the search segmenter loaded (see the header).
  for (const headers of [{}, { authorization: `Bearer ${token}` }] as Record<string, string>[]) for (let i = 0; i < 20; i++) await (await fetch(`${server.url}/`, { headers })).arrayBuffer();
  await (await fetch(`${server.url}/search?wd=${encodeURIComponent("文档")}`)).arrayBuffer();
  const idle = await measure("idle");
  // Every document converts again from scratch.
  const r = await fetch(`${server.url}/api/v1/document/reconvert`, {
    method: "PUT", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ id: ids }),
  });
  if (r.status !== 200) throw new Error(`reconvert: ${r.status} ${await r.text()}`);
  await Bun.sleep(300);
  const busyBefore = converting();
  const busy = await measure("converting");
  const busyAfter = converting();
  await server.stop();
  db.close();
  dirs.cleanup();

  console.log(`\n${appDir}: conversions waiting or running ${busyBefore} when measuring began, ${busyAfter} when it ended (${ids.length} reconverted, ${DOCS} of them 100-page PDFs); ${BENCH_ADMIN.username} logged in for the rendered case`);
  const rows: string[][] = [];
  const summary: Record<string, unknown>[] = [];
  for (const name of Object.keys(idle)) {
    for (const [c, i] of idle[name]!) {
      const b = busy[name]!.get(c)!;
      rows.push([name, String(c), fmt(i.rps), fmt(i.p99, 1), fmt(i.max, 1), fmt(b.rps), fmt(b.p99, 1), fmt(b.max, 1), String(b.finished), fmt(b.p99 / i.p99, 2)]);
      summary.push({ case: name, connections: c, idle: i, converting: b, conversions_finished: b.finished, p99_ratio: Math.round((b.p99 / i.p99) * 100) / 100 });
    }
  }
  table(["case", "conns", "idle req/s", "idle p99", "idle max", "conv req/s", "conv p99", "conv max", "finished", "p99 ratio"], rows);
  return { appDir, idle, busy, busyBefore, busyAfter, reconverted: ids.length, rows: summary };
}

printMachine();
const before = BEFORE_DIR ? await measureApp(BEFORE_DIR) : null;
const after = await measureApp(APP_DIR);
const ratio = (m: typeof after, name: string) => {
  const i = m.idle[name]?.get(VERDICT_CONNECTIONS);
  const b = m.busy[name]?.get(VERDICT_CONNECTIONS);
  return i && b ? b.p99 / i.p99 : Number.NaN;
};
const verdicts = CASES.map((name) => {
  const x = ratio(after, name);
  const was = before ? ` (before: ${fmt(ratio(before, name), 2)}×)` : "";
  return { target: `${name}: p99 while converting ≤ 2× idle (${VERDICT_CONNECTIONS} conns)`, value: `${fmt(x, 2)}×${was}`, ok: x <= 2 };
});
const ok = verdict(verdicts) && after.busyBefore > 0;
// What "while converting" covered: the tools only get the CPU the server leaves (tools.ts), so under
// a saturating load they may make no progress and no commit falls inside the window; the 1-connection
// probe leaves them CPU, and its worst latency is the longest stall a commit (or anything) caused.
const at64 = CASES.map((name) => after.busy[name]?.get(VERDICT_CONNECTIONS)?.finished ?? 0).reduce((a, b) => a + b, 0);
const probe = after.busy[PROBE]?.get(1);
console.log(`  conversions finished during the ${VERDICT_CONNECTIONS}-connection runs: ${at64}; during the loop probe: ${probe?.finished ?? 0} (its max ${fmt(probe?.max ?? Number.NaN, 1)} ms, idle ${fmt(after.idle[PROBE]?.get(1)?.max ?? Number.NaN, 1)} ms); ${after.busyBefore - after.busyAfter} of ${after.busyBefore} over the whole phase`);
console.log(`\nsaved ${saveResult("convert-load", { docs: DOCS, ...Object.fromEntries(Object.entries({ before, after }).map(([k, m]) => [k, m && { app_dir: m.appDir, reconverted: m.reconverted, converting_at_start: m.busyBefore, converting_at_end: m.busyAfter, rows: m.rows }])) })}`);
process.exitCode = ok ? 0 : 1;
