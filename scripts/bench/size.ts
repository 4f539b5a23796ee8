// JavaScript each public page loads (design.md §8: ≤ 60 KB gzipped; the chat page's island has its
// own 120 KB budget): for every page, the module scripts and modulepreloads in its HTML, the island
// chunks its island manifest names, and everything those import, statically or dynamically
// (followed transitively through the served files), fetched from the running production server.
// Dynamic imports are counted although a browser fetches them only when used, so that figure is an
// upper bound of what the page can load. The same pages are then opened in Chromium (Debian's,
// through playwright-core, as the e2e tests do) and every script response counted until the
// network is idle: what the page really loads. The verdict judges the browser figure when Chromium
// is there (BENCH_SIZE_BROWSER=0 to skip it), else the crawl. Sizes: gzip -9 of each file; "as
// served" = the bytes sent to a browser asking for gzip.
// Pages: the seeded demo's home, a category, a document, /search, /article, an article, /login,
// /register, /joinvip; as a logged-in member /chat, /post, /upload and an order's /order page.
import { existsSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { memberToken } from "./pagebench.ts";
import { fmt, login, prepareDirs, printMachine, saveResult, startServer, table, verdict, type VerdictRow } from "./lib.ts";

printMachine();
const BUDGET = 60 * 1024;
const CHAT_BUDGET = 120 * 1024;

const dirs = await prepareDirs({ seed: true });
const server = await startServer(dirs);
try {
  const adminToken = await login(server.url);
  const member = await memberToken(server.url, adminToken);
  const memberCookie = { cookie: `wk_token=${member}` };
  const html = async (path: string, headers: Record<string, string> = {}) => {
    const r = await fetch(server.url + path, { headers: { accept: "text/html", ...headers }, redirect: "manual" });
    return { status: r.status, text: await r.text() };
  };
  const home = (await html("/")).text;
  const articles = (await html("/article")).text;
  const link = (text: string, re: RegExp) => re.exec(text)?.[1];
  // An order for /order: recharge switched on (as an admin would), a member's recharge order.
  let orderPath: string | undefined;
  {
    await fetch(`${server.url}/api/v1/config`, {
      method: "PUT", headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ config: [{ category: "recharge", name: "enable", value: true }, { category: "recharge", name: "credit_exchange", value: 10 }] }),
    });
    const r = await fetch(`${server.url}/api/v1/order`, { method: "POST", headers: { authorization: `Bearer ${member}`, "content-type": "application/json" }, body: JSON.stringify({ order_type: 3, quantity: 100 }) });
    const no = r.status === 200 ? ((await r.json()) as { order_no?: string }).order_no : undefined;
    if (no) orderPath = `/order?order_no=${no}`;
  }
  const pages: { path: string | undefined; label: string; headers?: Record<string, string>; budget?: number }[] = [
    { label: "/", path: "/" },
    { label: "/category/{id}", path: link(home, /href="(\/category\/\d+)"/) },
    { label: "/document/{uuid}", path: link(home, /href="(\/document\/[0-9a-zA-Z]+)"/) },
    { label: "/search?wd=文档", path: `/search?wd=${encodeURIComponent("文档")}` },
    { label: "/article", path: "/article" },
    { label: "/article/{id}", path: link(articles, /href="(\/article\/[^"/?#]+)"/) },
    { label: "/login", path: "/login" },
    { label: "/register", path: "/register" },
    { label: "/joinvip", path: "/joinvip" },
    { label: "/chat (member)", path: "/chat", headers: memberCookie, budget: CHAT_BUDGET },
    { label: "/post (member)", path: "/post", headers: memberCookie },
    { label: "/upload (member)", path: "/upload", headers: memberCookie },
    { label: "/order (member)", path: orderPath, headers: memberCookie },
  ];

  /** Every JS file a page loads: scripts, modulepreloads, island chunks, and their imports. */
  const sizes = new Map<string, { raw: number; gz: number; served: number }>();
  const sources = new Map<string, string>();
  async function pageJs(text: string) {
    const attr = (tag: string, name: string) => new RegExp(`${name}="([^"]+)"`).exec(tag)?.[1];
    const queue: string[] = [];
    for (const [tag] of text.matchAll(/<script\b[^>]*>/g)) {
      const src = attr(tag, "src");
      if (src) queue.push(src);
    }
    for (const [tag] of text.matchAll(/<link\b[^>]*>/g)) if (attr(tag, "rel") === "modulepreload") queue.push(attr(tag, "href")!);
    const manifest = /<script id="island-manifest" type="application\/json">([^<]*)<\/script>/.exec(text)?.[1];
    const islands = manifest ? (JSON.parse(manifest) as Record<string, string>) : {};
    queue.push(...Object.values(islands));
    const seen = new Set<string>();
    while (queue.length) {
      const url = new URL(queue.shift()!, `${server.url}/`);
      if (url.origin !== server.url || seen.has(url.pathname)) continue;
      seen.add(url.pathname);
      if (!sizes.has(url.pathname)) {
        const asBrowser = await fetch(url, { headers: { "accept-encoding": "gzip, deflate, br" }, decompress: false } as RequestInit);
        const served = (await asBrowser.arrayBuffer()).byteLength;
        const res = await fetch(url, { headers: { "accept-encoding": "identity" } });
        if (res.status !== 200) throw new Error(`${url.pathname}: ${res.status}`);
        const body = new Uint8Array(await res.arrayBuffer());
        sizes.set(url.pathname, { raw: body.byteLength, gz: gzipSync(body, { level: 9 }).byteLength, served });
        sources.set(url.pathname, new TextDecoder().decode(body));
      }
      const code = sources.get(url.pathname) ?? "";
      for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}\/[^"']+\.js|\/assets\/[^"']+\.js)["']/g)) queue.push(new URL(m[1]!, url).pathname);
    }
    return { files: [...seen], islands: Object.keys(islands) };
  }

  /** Gzip -9 size of one served file (fetched once). */
  async function gzOf(pathname: string) {
    if (!sizes.has(pathname)) {
      const body = new Uint8Array(await (await fetch(server.url + pathname, { headers: { "accept-encoding": "identity" } })).arrayBuffer());
      const served = (await (await fetch(server.url + pathname, { headers: { "accept-encoding": "gzip, deflate, br" }, decompress: false } as RequestInit)).arrayBuffer()).byteLength;
      sizes.set(pathname, { raw: body.byteLength, gz: gzipSync(body, { level: 9 }).byteLength, served });
    }
    return sizes.get(pathname)!;
  }
  const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  const browser = process.env.BENCH_SIZE_BROWSER !== "0" && existsSync(chromiumPath)
    ? await chromium.launch({ executablePath: chromiumPath, args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"] })
    : null;
  /** Script files Chromium fetched for the page until the network was idle. */
  async function browserJs(path: string, headers?: Record<string, string>) {
    const context = await browser!.newContext();
    if (headers?.cookie) await context.addCookies([{ name: "wk_token", value: member, url: server.url }]);
    const page = await context.newPage();
    const scripts = new Set<string>();
    page.on("response", (r) => {
      const u = new URL(r.url());
      if (r.request().resourceType() === "script" && u.origin === server.url) scripts.add(u.pathname);
    });
    await page.goto(server.url + path, { waitUntil: "networkidle" });
    await context.close();
    let gz = 0;
    let served = 0;
    for (const f of scripts) {
      const sz = await gzOf(f);
      gz += sz.gz;
      served += sz.served;
    }
    return { files: scripts.size, gz, served };
  }

  const results: { label: string; path: string; status: number; files: number; raw: number; gz: number; served: number; islands: string[]; budget: number; largest: string; browser: { files: number; gz: number; served: number } | null }[] = [];
  const skipped: string[] = [];
  for (const p of pages) {
    if (!p.path) {
      skipped.push(`${p.label}: no such page in the seeded demo`);
      continue;
    }
    const page = await html(p.path, p.headers);
    if (page.status !== 200) {
      skipped.push(`${p.label}: ${p.path} answered ${page.status}`);
      continue;
    }
    const { files, islands } = await pageJs(page.text);
    const sum = (k: "raw" | "gz" | "served") => files.reduce((n, f) => n + sizes.get(f)![k], 0);
    const largest = [...files].sort((a, b) => sizes.get(b)!.gz - sizes.get(a)!.gz)[0] ?? "";
    const inBrowser = browser ? await browserJs(p.path, p.headers) : null;
    results.push({ label: p.label, path: p.path, status: page.status, files: files.length, raw: sum("raw"), gz: sum("gz"), served: sum("served"), islands, budget: p.budget ?? BUDGET, largest, browser: inBrowser });
  }
  await browser?.close();
  console.log(`JavaScript per public page: "crawl" = every file the HTML names and everything it may import (upper bound); "Chromium" = script responses until network idle${browser ? "" : " (not measured: no Chromium)"}`);
  table(
    ["page", "crawl files", "crawl gz B", "Chromium files", "Chromium gz B", "Chromium served B", "budget", "islands"],
    results.map((r) => [r.label, String(r.files), String(r.gz), r.browser ? String(r.browser.files) : "-", r.browser ? String(r.browser.gz) : "-", r.browser ? String(r.browser.served) : "-", `${r.budget / 1024} KB`, r.islands.join(",") || "-"]),
  );
  for (const s of skipped) console.log(`  not measured: ${s}`);
  const rows: VerdictRow[] = results.map((r) => {
    const judged = r.browser ?? r;
    return {
      target: `${r.label} JS ≤ ${r.budget / 1024} KB gzip`,
      value: `${fmt(judged.gz / 1024, 1)} KB gzip -9, ${fmt(judged.served / 1024, 1)} KB served (${judged.files} files, ${r.browser ? "Chromium" : "crawl"}; crawl upper bound ${fmt(r.gz / 1024, 1)} KB)`,
      ok: judged.gz <= r.budget && judged.served <= r.budget,
    };
  });
  if (skipped.length) rows.push({ target: "every public page measured", value: skipped.join("; "), ok: false });
  const ok = verdict(rows);
  saveResult("size", { pages: results, skipped, files: Object.fromEntries([...sizes].map(([k, v]) => [k, { raw: v.raw, gz: v.gz, served: v.served }])) });
  process.exitCode = ok ? 0 : 1;
} finally {
  await server.stop();
  dirs.cleanup();
}
