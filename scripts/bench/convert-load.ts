// Does a running conversion hurt visitors? (issue 14: `/` p99 during a conversion ≤ 2× idle, at 64
// connections.) The seeded demo site plus BENCH_CONVERT_DOCS (default 16) documents made from one
// 100-page Chinese PDF, all converted again from scratch (fresh, gzip copies on as by default), while
// autocannon (its own Node process, lib.ts loadRun) loads `/` at 1, 4, 16 and 64 connections;
// the same levels idle first, in the same run. `/healthz` at 1 connection is the event-loop probe:
// its worst latencies are the server's longest stalls (a sync write, a gzip, a big commit).
//
// BENCH_DURATION_MS (default 2000) per run; BENCH_LEVELS=1,4,16,64.
import { Database } from "bun:sqlite";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BENCH_ADMIN, fmt, LEVELS, type Load, loadRun, login, prepareDirs, printMachine, saveResult, startServer, table, VERDICT_CONNECTIONS, verdict } from "./lib.ts";

const DOCS = Number(process.env.BENCH_CONVERT_DOCS ?? 16);
const PARAGRAPH = "文库系统把上传的文档转换成清晰的页面图片和可检索的文字。每一页的文字分别保存，供全文搜索和智能问答使用；页面图片按设置的格式生成，并可以压缩存储以节省带宽。";
const bookHtml = (pages: number) => `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>${Array.from({ length: pages }, (_, n) =>
  `<h2${n ? ` style="page-break-before: always"` : ""}>第 ${n + 1} 章</h2>${Array.from({ length: 6 }, (_, i) => `<p>${i + 1}. ${PARAGRAPH}</p>`).join("")}`).join("")}</body></html>`;

printMachine();
const dirs = await prepareDirs({ seed: true });
// A 100-page PDF stored DOCS times as distinct files (one byte differs after %%EOF), so no conversion reuses another's.
{
  const work = join(dirs.dataDir, "bench-input");
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, "book.html"), bookHtml(100));
  const p = Bun.spawn(["soffice", "--headless", "--norestore", `-env:UserInstallation=file://${work}/lo`, "--infilter=HTML (StarWriter)", "--convert-to", "pdf:writer_pdf_Export", "--outdir", work, join(work, "book.html")], { stdout: "ignore", stderr: "ignore", env: { ...process.env, HOME: work } });
  if ((await p.exited) !== 0) throw new Error("soffice could not make the 100-page PDF");
  const pdf = readFileSync(join(work, "book.pdf"));
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
  ["/ anonymous (cached)", "/", {}],
  ["/ logged in (rendered)", "/", { authorization: `Bearer ${token}` }],
] as const;

type Phase = Record<string, Map<number, Load>>;
async function measure(phase: string): Promise<Phase> {
  const out: Phase = {};
  for (const [name, path, headers] of cases) {
    out[name] = new Map();
    for (const c of LEVELS) {
      const before = converting();
      out[name].set(c, await loadRun(`${server.url}${path}`, { connections: c, headers: { ...headers, "accept-encoding": "gzip" } }));
      if (phase === "converting" && (before === 0 || converting() === 0)) console.warn(`  (${name} at ${c}: conversions ${before} → ${converting()}: not converting the whole run)`);
    }
  }
  out["/healthz (loop probe)"] = new Map([[1, await loadRun(`${server.url}/healthz`, { connections: 1 })]]);
  return out;
}

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

console.log(`\nconversions waiting or running: ${busyBefore} when measuring began, ${busyAfter} when it ended (${ids.length} reconverted, ${DOCS} of them 100-page PDFs); ${BENCH_ADMIN.username} logged in for the rendered case\n`);
const rows: string[][] = [];
const summary: Record<string, unknown>[] = [];
for (const name of Object.keys(idle)) {
  for (const [c, i] of idle[name]!) {
    const b = busy[name]!.get(c)!;
    rows.push([name, String(c), fmt(i.rps), fmt(i.p99, 1), fmt(i.max, 1), fmt(b.rps), fmt(b.p99, 1), fmt(b.max, 1), fmt(b.p99 / i.p99, 2)]);
    summary.push({ case: name, connections: c, idle: i, converting: b, p99_ratio: Math.round((b.p99 / i.p99) * 100) / 100 });
  }
}
table(["case", "conns", "idle req/s", "idle p99", "idle max", "conv req/s", "conv p99", "conv max", "p99 ratio"], rows);
const verdicts = cases.map(([name]) => {
  const i = idle[name]!.get(VERDICT_CONNECTIONS);
  const b = busy[name]!.get(VERDICT_CONNECTIONS);
  const ratio = i && b ? b.p99 / i.p99 : Number.NaN;
  return { target: `${name}: p99 while converting ≤ 2× idle (${VERDICT_CONNECTIONS} conns)`, value: `${fmt(ratio, 2)}×`, ok: ratio <= 2 };
});
const ok = verdict(verdicts) && busyBefore > 0;
console.log(`\nsaved ${saveResult("convert-load", { docs: DOCS, reconverted: ids.length, converting_at_start: busyBefore, converting_at_end: busyAfter, rows: summary })}`);
process.exitCode = ok ? 0 : 1;
