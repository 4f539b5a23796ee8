// Reader numbers (issue 4): page-image serving against a static file of the same bytes from /assets
// (target ≥ 80% of its req/s), and the reader page /document/{uuid} rendered for anonymous visitors
// (page cache) and signed-in readers (fresh SSR), with p99. Same production server process, same
// run; compared cases alternate in one-second slices so machine drift falls on both sides alike.
import { mkdirSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { openDatabase } from "#db/client.ts";
import { hashPassword } from "#src/features/auth/passwords.ts";
import { BENCH_ADMIN, fmt, load, login, merge, prepareDirs, startServer, table, verdict, type LoadResult } from "./lib.ts";

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);
const SLICE_MS = 1000;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const UUID = "bench0reader00000000000000000001";
const HASH = "fedcba9876543210fedcba9876543210";
const PAGES = 12;

/** A page as the converter leaves it: glyph outlines as paths (text in SVG pages is outlines), ~70 KB. */
function pageSvg(n: number): string {
  const glyphs: string[] = [];
  for (let line = 0; line < 40; line++) {
    for (let ch = 0; ch < 28; ch++) {
      const x = 50 + ch * 17;
      const y = 60 + line * 19;
      const k = (n * 131 + line * 17 + ch * 7) % 97;
      glyphs.push(`<path d="M${x} ${y}h${8 + (k % 6)}v${10 + (k % 4)}h-${6 + (k % 3)}zM${x + 2} ${y + 3}l${k % 9} ${k % 5}"/>`);
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="595" height="842" viewBox="0 0 595 842"><rect width="595" height="842" fill="#fff"/><g fill="#222">${glyphs.join("")}</g></svg>`;
}

const dirs = await prepareDirs({ seed: false });
{
  const { sqlite } = openDatabase(join(dirs.dataDir, "wenku.db"));
  const admin = sqlite.prepare("INSERT INTO user (username, password, is_root) VALUES (?, ?, 1) RETURNING id").get(BENCH_ADMIN.username, await hashPassword(BENCH_ADMIN.password)) as { id: number };
  const top = (sqlite.prepare("INSERT INTO category (title) VALUES ('教育专区') RETURNING id").get() as { id: number }).id;
  const doc = sqlite.prepare(`INSERT INTO document (uuid, title, keywords, description, user_id, category_id, hash, ext, size, pages, preview, width, height, status)
    VALUES (?, ?, ?, ?, ?, ?, ?, 'pdf', 1234567, ?, ?, 595, 842, 2) RETURNING id`);
  const link = sqlite.prepare("INSERT INTO document_category (document_id, category_id) VALUES (?, ?)");
  link.run((doc.get(UUID, "高中数学必修一知识点总结", "函数,集合", "集合与函数的全部知识点。", admin.id, top, HASH, 20, PAGES) as { id: number }).id, top);
  // Enough neighbours that related documents are a real query (cached after the first render).
  for (let i = 0; i < 500; i++) {
    link.run((doc.get(`bench0reader0000000000000${String(i).padStart(6, "0")}`, `数学资料 ${i} 函数`, "函数", "", admin.id, top, (i + 1).toString(16).padStart(32, "0"), 10, 5) as { id: number }).id, top);
  }
  sqlite.close();
  for (let n = 1; n <= PAGES; n++) {
    const file = join(dirs.dataDir, "documents", HASH.slice(0, 2), HASH, "pages", `${n}.svg`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, pageSvg(n));
    writeFileSync(file.replace(/\.svg$/, ".gzip.svg"), Bun.gzipSync(new TextEncoder().encode(pageSvg(n)), { level: 9 }));
  }
}
const server = await startServer(dirs);
try {
  const token = await login(server.url);
  const identity = { "accept-encoding": "identity" };
  const gzip = { "accept-encoding": "gzip, deflate, br" };
  // The static twin: page 3's exact bytes (and its .gz) in DIST_DIR/assets, served by the asset route.
  const svg = pageSvg(3);
  const staticName = `bench-page-${crypto.randomUUID().slice(0, 8)}.svg`;
  const staticPath = join(dirs.distDir, "assets", staticName);
  writeFileSync(staticPath, svg);
  writeFileSync(`${staticPath}.gz`, Bun.gzipSync(new TextEncoder().encode(svg), { level: 9 }));
  const check = await fetch(`${server.url}/view/page/${UUID}/3.svg`, { headers: identity });
  if (check.status !== 200 || (await check.text()) !== svg) throw new Error(`page image not served as expected (${check.status})`);

  const html = { accept: "text/html", ...gzip };
  const cases: { name: string; path: string; headers: Record<string, string>; connections?: number }[] = [
    { name: "static .svg (identity)", path: `/assets/${staticName}`, headers: identity },
    { name: "page 3.svg (identity)", path: `/view/page/${UUID}/3.svg`, headers: identity },
    { name: "static .svg (gzip)", path: `/assets/${staticName}`, headers: gzip },
    { name: "page 3.svg (gzip negotiated)", path: `/view/page/${UUID}/3.svg`, headers: gzip },
    { name: "page 3.gzip.svg", path: `/view/page/${UUID}/3.gzip.svg`, headers: gzip },
    { name: "reader anonymous (cached)", path: `/document/${UUID}`, headers: html },
    { name: "reader logged-in SSR", path: `/document/${UUID}`, headers: { ...html, cookie: `wk_token=${token}` } },
    { name: "reader logged-in SSR (4 conns)", path: `/document/${UUID}`, headers: { ...html, cookie: `wk_token=${token}` }, connections: 4 },
  ];
  console.log(`Page images and reader: ${CONNECTIONS} keep-alive connections, ${DURATION_MS / 1000} s each in ${SLICE_MS / 1000} s slices, page ${svg.length} B, 127.0.0.1, NODE_ENV=production`);
  for (const c of cases) await load(server.url + c.path, { connections: 8, durationMs: 400, headers: c.headers });
  const slices = new Map<string, LoadResult[]>(cases.map((c) => [c.name, []]));
  for (const group of [cases.slice(0, 2), cases.slice(2, 5), cases.slice(5)]) {
    for (let i = 0; i < Math.max(1, Math.round(DURATION_MS / SLICE_MS)); i++) {
      for (const c of group) slices.get(c.name)!.push(await load(server.url + c.path, { connections: c.connections ?? CONNECTIONS, durationMs: SLICE_MS, headers: c.headers }));
    }
  }
  unlinkSync(staticPath);
  unlinkSync(`${staticPath}.gz`);
  const r = new Map([...slices].map(([k, v]) => [k, merge(v)]));
  const get = (name: string) => r.get(name)!;
  const base = (name: string) => (name.includes("gzip") ? get("static .svg (gzip)") : get("static .svg (identity)"));
  table(
    ["case", "req/s", "vs static", "p50 ms", "p99 ms", "B/resp", "errors"],
    cases.map((c) => {
      const x = get(c.name);
      const vs = c.name.startsWith("reader") ? "" : `${fmt((x.rps / base(c.name).rps) * 100)}%`;
      return [c.name, fmt(x.rps), vs, fmt(x.p50, 1), fmt(x.p99, 1), fmt(x.bytes / Math.max(1, x.requests)), String(x.errors)];
    }),
  );
  const ratio = (name: string) => get(name).rps / base(name).rps;
  const ok = verdict([
    { target: "page image ≥ 80% of static req/s (identity)", value: `${fmt(ratio("page 3.svg (identity)") * 100)}%`, ok: ratio("page 3.svg (identity)") >= 0.8 },
    { target: "page image ≥ 80% of static req/s (gzip)", value: `${fmt(ratio("page 3.svg (gzip negotiated)") * 100)}%`, ok: ratio("page 3.svg (gzip negotiated)") >= 0.8 },
    { target: ".gzip.svg ≥ 80% of static req/s (gzip)", value: `${fmt(ratio("page 3.gzip.svg") * 100)}%`, ok: ratio("page 3.gzip.svg") >= 0.8 },
    { target: "reader p99 < 50 ms (anonymous)", value: `${fmt(get("reader anonymous (cached)").p99, 1)} ms`, ok: get("reader anonymous (cached)").p99 < 50 },
    { target: "reader p99 < 50 ms (logged-in SSR, 4 conns)", value: `${fmt(get("reader logged-in SSR (4 conns)").p99, 1)} ms`, ok: get("reader logged-in SSR (4 conns)").p99 < 50 },
    { target: "no errors", value: String(cases.reduce((n, c) => n + get(c.name).errors, 0)), ok: cases.every((c) => get(c.name).errors === 0) },
  ]);
  process.exitCode = ok ? 0 : 1;
} finally {
  await server.stop();
  dirs.cleanup();
}
