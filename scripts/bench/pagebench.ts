// SSR rows the way design.md §8 and issue 14 name them, shared by ssr.ts, pages.ts and articles.ts.
// For each page, at each of LEVELS (1/4/16/64 connections), in one run:
//   bare baseline   — a bare Bun.serve in its own process answering the anonymous page's exact
//                     gzip bytes (content-type and content-encoding as the app sends them)
//   anonymous HIT   — no cookie, page cache on and warm (X-Cache: HIT checked before the run)
//   anonymous MISS  — the render path: the page cache switched off through the `ssr` settings
//                     (PUT /api/v1/config ssr.enable_page_cache=false), so every request renders;
//                     caches below the page cache (settings, related documents…) stay as they are
//   logged-in       — a real member (created by the admin API, logged in through
//                     POST /api/v1/user/login) sending its wk_token session cookie
// all asking for gzip as a browser does; then, at 64 connections, the identity (uncompressed)
// baseline and anonymous HIT, so compression is compared on equal payloads. Every case of one
// level runs back to back, so drift in what else the machine does falls on both sides of a ratio.
// Verdicts at 64 connections: req/s ≥ 25% of the bare baseline and p99 < 50 ms, per page and row.
import { fetchRaw, fmt, LEVELS, type Load, loadRun, login, startBaseline, table, VERDICT_CONNECTIONS, type VerdictRow } from "./lib.ts";

export const MEMBER = { username: "bench_member", password: "bench-member-pass-1" };
const GZIP = { accept: "text/html", "accept-encoding": "gzip, deflate, br" };
const IDENTITY = { accept: "text/html", "accept-encoding": "identity" };
export const ROWS = ["bare baseline", "anonymous HIT", "anonymous MISS", "logged-in"] as const;
export type RowName = (typeof ROWS)[number];

/** A plain member (not an administrator) created through the admin API, logged in through the API: its session token. */
export async function memberToken(url: string, adminToken: string, account = MEMBER): Promise<string> {
  const r = await fetch(`${url}/api/v1/user`, { method: "POST", headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" }, body: JSON.stringify(account) });
  if (r.status !== 200 && !/已存在|exists/.test(await r.text())) throw new Error(`creating ${account.username}: ${r.status}`);
  return login(url, account);
}

/** Switches the anonymous page cache through the `ssr` settings, as /admin/config/ssr does. */
export async function setPageCache(url: string, adminToken: string, on: boolean) {
  const r = await fetch(`${url}/api/v1/config`, {
    method: "PUT",
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ config: [{ category: "ssr", name: "enable_page_cache", value: on }] }),
  });
  if (r.status !== 200) throw new Error(`ssr.enable_page_cache=${on}: ${r.status} ${await r.text()}`);
}

export interface PageCase { name: string; path: string }
export interface PageRow { page: string; path: string; row: RowName | "bare baseline (identity)" | "anonymous HIT (identity)"; connections: number; load: Load; ratio: number; bodyBytes: number; encoding: string; xCache: string }

/** How a request of this row is answered: body size as sent, content-encoding, X-Cache. */
async function probe(url: string, headers: Record<string, string>) {
  const r = await fetchRaw(url, headers);
  if (r.status !== 200) throw new Error(`${url}: ${r.status}`);
  return { body: r.body, bodyBytes: r.body.byteLength, encoding: r.headers.get("content-encoding") ?? "identity", xCache: r.headers.get("x-cache") ?? "-", contentType: r.headers.get("content-type") ?? "text/html" };
}

/**
 * Measures every page's rows at every level (see the top of this file), prints one table, and
 * answers the rows and the 64-connection verdict rows (the caller passes them to verdict()).
 */
export async function measurePages(base: string, pages: PageCase[], opts: { adminToken: string; memberToken: string; durationMs?: number; levels?: number[] }) {
  const lv = opts.levels ?? LEVELS;
  const cookie = { cookie: `wk_token=${opts.memberToken}` };
  const warm = async (path: string, headers: Record<string, string>) => {
    for (let i = 0; i < 3; i++) await fetchRaw(base + path, headers);
  };
  // The bare baselines: the anonymous page's exact bytes, gzip and identity, each in its own process.
  await setPageCache(base, opts.adminToken, true);
  const baselines = new Map<string, { gzip: Awaited<ReturnType<typeof startBaseline>>; identity: Awaited<ReturnType<typeof startBaseline>>; gzBytes: number; idBytes: number }>();
  const rows: PageRow[] = [];
  try {
    for (const p of pages) {
      await warm(p.path, GZIP);
      const gz = await probe(base + p.path, GZIP);
      const id = await probe(base + p.path, IDENTITY);
      baselines.set(p.name, {
        gzip: await startBaseline(gz.body, { "content-type": gz.contentType, ...(gz.encoding !== "identity" ? { "content-encoding": gz.encoding, vary: "Accept-Encoding" } : {}) }),
        identity: await startBaseline(id.body, { "content-type": id.contentType }),
        gzBytes: gz.bodyBytes, idBytes: id.bodyBytes,
      });
    }
    const info = new Map<string, Awaited<ReturnType<typeof probe>>>();
    const record = (p: PageCase, row: PageRow["row"], connections: number, load: Load, baseline: Load | undefined, pr: Awaited<ReturnType<typeof probe>>) =>
      rows.push({ page: p.name, path: p.path, row, connections, load, ratio: baseline ? load.rps / baseline.rps : 1, bodyBytes: pr.bodyBytes, encoding: pr.encoding, xCache: pr.xCache });

    for (const c of lv) {
      // Cache on: baseline, anonymous HIT, logged-in, page by page.
      await setPageCache(base, opts.adminToken, true);
      const bases = new Map<string, Load>();
      for (const p of pages) {
        const b = baselines.get(p.name)!;
        const bl = await loadRun(b.gzip.url, { connections: c, durationMs: opts.durationMs, headers: GZIP });
        bases.set(p.name, bl);
        record(p, "bare baseline", c, bl, undefined, { body: new Uint8Array(), bodyBytes: b.gzBytes, encoding: "gzip", xCache: "-", contentType: "" });
        await warm(p.path, GZIP);
        const hit = await probe(base + p.path, GZIP);
        info.set(`${p.name} hit`, hit);
        record(p, "anonymous HIT", c, await loadRun(base + p.path, { connections: c, durationMs: opts.durationMs, headers: GZIP }), bl, hit);
        const member = await probe(base + p.path, { ...GZIP, ...cookie });
        record(p, "logged-in", c, await loadRun(base + p.path, { connections: c, durationMs: opts.durationMs, headers: { ...GZIP, ...cookie } }), bl, member);
      }
      // Cache off: the render path.
      await setPageCache(base, opts.adminToken, false);
      for (const p of pages) {
        const miss = await probe(base + p.path, GZIP);
        if (miss.xCache === "HIT") throw new Error(`${p.path} still answered from the page cache with ssr.enable_page_cache off`);
        record(p, "anonymous MISS", c, await loadRun(base + p.path, { connections: c, durationMs: opts.durationMs, headers: GZIP }), bases.get(p.name), miss);
      }
      await setPageCache(base, opts.adminToken, true);
    }
    // Equal payloads: identity against the identity baseline at the verdict level.
    for (const p of pages) {
      const b = baselines.get(p.name)!;
      const bl = await loadRun(b.identity.url, { connections: VERDICT_CONNECTIONS, durationMs: opts.durationMs, headers: IDENTITY });
      record(p, "bare baseline (identity)", VERDICT_CONNECTIONS, bl, undefined, { body: new Uint8Array(), bodyBytes: b.idBytes, encoding: "identity", xCache: "-", contentType: "" });
      await warm(p.path, IDENTITY);
      record(p, "anonymous HIT (identity)", VERDICT_CONNECTIONS, await loadRun(base + p.path, { connections: VERDICT_CONNECTIONS, durationMs: opts.durationMs, headers: IDENTITY }), bl, await probe(base + p.path, IDENTITY));
    }
  } finally {
    for (const b of baselines.values()) await Promise.all([b.gzip.stop(), b.identity.stop()]);
  }

  const order = (r: PageRow) => pages.findIndex((p) => p.name === r.page) * 1000 + [...ROWS, "bare baseline (identity)", "anonymous HIT (identity)"].indexOf(r.row) * 100 + r.connections / 100;
  rows.sort((a, b) => order(a) - order(b));
  table(
    ["page", "row", "conns", "req/s", "vs bare", "p50 ms", "p95 ms", "p99 ms", "body B", "enc", "X-Cache", "errors"],
    rows.map((r) => [
      r.page, r.row, String(r.connections), fmt(r.load.rps), r.row.startsWith("bare") ? "" : `${fmt(r.ratio * 100)}%`,
      fmt(r.load.p50, 2), fmt(r.load.p95, 2), fmt(r.load.p99, 2), String(r.bodyBytes), r.encoding, r.xCache, String(r.load.errors),
    ]),
  );
  // Budgeted: what visitors get — anonymous (gzip and identity) and logged-in. The MISS row (cache
  // off) is reported beside them, not judged: a first visit after a content change costs that once.
  const verdicts: VerdictRow[] = [];
  const reported: string[] = [];
  for (const r of rows) {
    if (r.connections !== VERDICT_CONNECTIONS || r.row.startsWith("bare")) continue;
    const value = `${fmt(r.ratio * 100)}% · p99 ${fmt(r.load.p99, 1)} ms${r.load.errors ? ` · ${r.load.errors} errors` : ""}${r.row.startsWith("anonymous HIT") && r.xCache !== "HIT" ? ` · not from the page cache (X-Cache ${r.xCache})` : ""}`;
    if (r.row === "anonymous MISS") reported.push(`${r.page} ${r.row} (render path, reported): ${value}`);
    else verdicts.push({ target: `${r.page} ${r.row}: ≥ 25% of bare, p99 < 50 ms`, value, ok: r.ratio >= 0.25 && r.load.p99 < 50 && r.load.errors === 0 });
  }
  if (reported.length) console.log(`\n  ${reported.join("\n  ")}`);
  return { rows, verdicts };
}

/** The rows as JSON for saveResult(). */
export const rowsJson = (rows: PageRow[]) =>
  rows.map((r) => ({ page: r.page, path: r.path, row: r.row, connections: r.connections, rps: r.load.rps, vs_bare: r.ratio, p50: r.load.p50, p95: r.load.p95, p99: r.load.p99, max: r.load.max, errors: r.load.errors, requests: r.load.requests, seconds: r.load.seconds, body_bytes: r.bodyBytes, encoding: r.encoding, x_cache: r.xCache }));
