// JavaScript a visitor's browser loads for `/` (design.md §8: ≤ 60 KB gzipped): the module
// scripts and modulepreloads in the HTML, the island chunks the page's island manifest names, and
// everything those import, statically or dynamically, fetched from the running production server.
import { gzipSync } from "node:zlib";
import { fmt, prepareDirs, startServer, table, verdict } from "./lib.ts";

const BUDGET = 60 * 1024;

const dirs = await prepareDirs({ seed: true });
const server = await startServer(dirs);
try {
  const html = await (await fetch(`${server.url}/`, { headers: { accept: "text/html" } })).text();
  const attr = (tag: string, name: string) => new RegExp(`${name}="([^"]+)"`).exec(tag)?.[1];
  const queue: string[] = [];
  for (const [tag] of html.matchAll(/<script\b[^>]*>/g)) {
    const src = attr(tag, "src");
    if (src) queue.push(src);
  }
  for (const [tag] of html.matchAll(/<link\b[^>]*>/g)) {
    if (attr(tag, "rel") === "modulepreload") queue.push(attr(tag, "href")!);
  }
  const manifest = /<script id="island-manifest" type="application\/json">([^<]*)<\/script>/.exec(html)?.[1];
  const islands = manifest ? (JSON.parse(manifest) as Record<string, string>) : {};
  queue.push(...Object.values(islands));

  const files = new Map<string, { raw: number; gz: number; served: number; encoding: string }>();
  while (queue.length) {
    const url = new URL(queue.shift()!, `${server.url}/`);
    if (url.origin !== server.url || files.has(url.pathname)) continue;
    const asBrowser = await fetch(url, { headers: { "accept-encoding": "gzip, deflate, br" }, decompress: false } as RequestInit);
    const served = (await asBrowser.arrayBuffer()).byteLength;
    const res = await fetch(url, { headers: { "accept-encoding": "identity" } });
    if (res.status !== 200) throw new Error(`${url.pathname}: ${res.status}`);
    const body = new Uint8Array(await res.arrayBuffer());
    files.set(url.pathname, { raw: body.byteLength, gz: gzipSync(body, { level: 9 }).byteLength, served, encoding: asBrowser.headers.get("content-encoding") ?? "none" });
    const text = new TextDecoder().decode(body);
    for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}\/[^"']+\.js|\/assets\/[^"']+\.js)["']/g)) {
      queue.push(new URL(m[1]!, url).pathname);
    }
  }

  const rows = [...files].sort((a, b) => b[1].gz - a[1].gz);
  const total = rows.reduce((t, [, f]) => ({ raw: t.raw + f.raw, gz: t.gz + f.gz, served: t.served + f.served }), { raw: 0, gz: 0, served: 0 });
  console.log(`JavaScript loaded by / (islands on the page: ${Object.keys(islands).join(", ") || "none"})`);
  table(
    ["file", "raw B", "gzip -9 B", "as served B", "encoding"],
    [...rows.map(([p, f]) => [p, String(f.raw), String(f.gz), String(f.served), f.encoding]), ["total", String(total.raw), String(total.gz), String(total.served), ""]],
  );
  const ok = verdict([
    { target: "public page JS ≤ 60 KB gzipped", value: `${fmt(total.gz / 1024, 1)} KB (${rows.length} files)`, ok: total.gz <= BUDGET },
    { target: "what the server sends ≤ 60 KB", value: `${fmt(total.served / 1024, 1)} KB`, ok: total.served <= BUDGET },
  ]);
  process.exitCode = ok ? 0 : 1;
} finally {
  await server.stop();
  dirs.cleanup();
}
