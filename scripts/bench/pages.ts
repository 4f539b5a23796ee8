// Reader numbers (issue 4, issue 14): page-image serving against the bare static baseline of the
// same bytes (a bare Bun.serve in its own process, design.md §8; target ≥ 80% of its req/s at 64
// connections, identity, gzip negotiated and the pre-gzipped .gzip.svg), and the reader page
// /document/{uuid} of a document with 500 neighbours: anonymous cache HIT, cache MISS (page cache
// off) and a logged-in member at 1/4/16/64 connections against its own bare baseline
// (pagebench.ts). Load by autocannon in its own process; cases of one level run back to back.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { openDatabase } from "#db/client.ts";
import { hashPassword } from "#src/features/auth/passwords.ts";
import { measurePages, memberToken, rowsJson } from "./pagebench.ts";
import { BENCH_ADMIN, DURATION_MS, fetchRaw, fmt, type Load, loadRun, login, prepareDirs, printMachine, saveResult, startBaseline, startServer, table, VERDICT_CONNECTIONS, verdict } from "./lib.ts";

printMachine();
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
  const adminToken = await login(server.url);
  const member = await memberToken(server.url, adminToken);
  const identity = { "accept-encoding": "identity" };
  const gzip = { "accept-encoding": "gzip, deflate, br" };
  const svg = pageSvg(3);
  const check = await fetch(`${server.url}/view/page/${UUID}/3.svg`, { headers: identity });
  if (check.status !== 200 || (await check.text()) !== svg) throw new Error(`page image not served as expected (${check.status})`);

  // Page images: each case against a bare Bun.serve answering exactly the bytes and encoding the app sent.
  const imageCases = [
    { name: "page 3.svg (identity)", path: `/view/page/${UUID}/3.svg`, headers: identity },
    { name: "page 3.svg (gzip negotiated)", path: `/view/page/${UUID}/3.svg`, headers: gzip },
    { name: "page 3.gzip.svg", path: `/view/page/${UUID}/3.gzip.svg`, headers: gzip },
  ];
  console.log(`Page images: ${VERDICT_CONNECTIONS} connections, ${DURATION_MS / 1000} s per run (autocannon, own process), page ${svg.length} B, each against a bare Bun.serve of the same bytes`);
  const imageRows: { name: string; bytes: number; encoding: string; bare: Load; app: Load }[] = [];
  for (const c of imageCases) {
    const raw = await fetchRaw(server.url + c.path, c.headers);
    const enc = raw.headers.get("content-encoding");
    const baseline = await startBaseline(raw.body, { "content-type": raw.headers.get("content-type") ?? "image/svg+xml", ...(enc ? { "content-encoding": enc } : {}) });
    try {
      const bare = await loadRun(baseline.url, { connections: VERDICT_CONNECTIONS, headers: c.headers });
      const app = await loadRun(server.url + c.path, { connections: VERDICT_CONNECTIONS, headers: c.headers });
      imageRows.push({ name: c.name, bytes: raw.body.byteLength, encoding: enc ?? "identity", bare, app });
    } finally {
      await baseline.stop();
    }
  }
  table(
    ["case", "bytes", "enc", "bare req/s", "app req/s", "vs bare", "p50 ms", "p95 ms", "p99 ms", "errors"],
    imageRows.map((r) => [r.name, String(r.bytes), r.encoding, fmt(r.bare.rps), fmt(r.app.rps), `${fmt((r.app.rps / r.bare.rps) * 100)}%`, fmt(r.app.p50, 2), fmt(r.app.p95, 2), fmt(r.app.p99, 2), String(r.app.errors)]),
  );

  console.log(`\nReader page /document/${UUID} (500 related documents in its category)`);
  const reader = await measurePages(server.url, [{ name: "reader", path: `/document/${UUID}` }], { adminToken, memberToken: member });
  const ok = verdict([
    ...imageRows.map((r) => ({ target: `${r.name} ≥ 80% of bare req/s`, value: `${fmt((r.app.rps / r.bare.rps) * 100)}% · p99 ${fmt(r.app.p99, 1)} ms`, ok: r.app.rps / r.bare.rps >= 0.8 && r.app.errors === 0 })),
    ...reader.verdicts,
  ]);
  saveResult("pages", {
    duration_ms: DURATION_MS,
    images: imageRows.map((r) => ({ case: r.name, bytes: r.bytes, encoding: r.encoding, bare_rps: r.bare.rps, rps: r.app.rps, vs_bare: r.app.rps / r.bare.rps, p50: r.app.p50, p95: r.app.p95, p99: r.app.p99, errors: r.app.errors })),
    reader: rowsJson(reader.rows),
  });
  process.exitCode = ok ? 0 : 1;
} finally {
  await server.stop();
  dirs.cleanup();
}
