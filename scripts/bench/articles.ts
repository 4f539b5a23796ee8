// Articles: SSR throughput of /article and /article/{identifier} against a static file of the same
// bytes from the same production server (design.md §8, as ssr.ts does for /), the render time of a
// 20,000-character article (markdown → sanitised HTML, in-process, cold), and the JavaScript each
// article page loads (public pages ≤ 60 KB gzip).
//   anonymous  — the shared page cache (rendered once per content version)
//   logged-in  — a session cookie bypasses the cache: React renders on every request (the article's
//                HTML comes from the per-version render cache after the first request)
import { readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { renderMarkdown } from "#src/features/articles/markdown.ts";
import { fmt, load, login, merge, prepareDirs, startServer, table, verdict, type LoadResult } from "./lib.ts";

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);
const SLICE_MS = 1000;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);

/** About `chars` characters of the markdown an article has: headings, prose, lists, code, math, a table. */
export function longArticle(chars: number): string {
  const parts: string[] = [];
  for (let i = 1; parts.join("\n\n").length < chars; i++) {
    parts.push(
      `## 第 ${i} 节 性能与可维护性`,
      `服务端渲染把页面在服务器上生成好再交给浏览器，首屏更快，也更利于搜索引擎收录。本节讨论第 ${i} 个场景：**缓存**、*并发* 与 \`数据库\` 的取舍，并给出可以直接使用的 [参考资料](https://example.com/ref/${i})。`,
      "- 读多写少的页面适合整页缓存\n- 登录用户的页面需要逐次渲染\n- 写操作之后让缓存失效",
      "```ts\nexport function total(items: { price: number }[]) {\n  return items.reduce((n, x) => n + x.price, 0); // 单位：分\n}\n```",
      `行内公式 $a_${i}^2 + b^2 = c^2$，以及块公式：\n\n$$\\sum_{k=1}^{n} k = \\frac{n(n+1)}{2}$$`,
      "| 指标 | 数值 |\n|---|---|\n| p50 | 1.2 ms |\n| p99 | 4.8 ms |",
    );
  }
  return parts.join("\n\n").slice(0, chars);
}

// Render time first, in this process: nothing else competes for the CPU yet. A collection before
// each run keeps one render's garbage from being billed to the next.
const md = longArticle(20_000);
renderMarkdown(md);
const times: number[] = [];
for (let i = 0; i < 30; i++) {
  Bun.gc(true);
  const t0 = performance.now();
  renderMarkdown(md);
  times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
const renderMs = { min: times[0]!, p50: times[Math.floor(times.length / 2)]!, max: times.at(-1)! };
console.log(`render of a ${md.length}-character article (markdown → sanitised HTML, 30 runs after one warm-up): p50 ${fmt(renderMs.p50, 2)} ms, min ${fmt(renderMs.min, 2)} ms, max ${fmt(renderMs.max, 2)} ms`);

const dirs = await prepareDirs({ seed: true });
const server = await startServer(dirs);
try {
  const token = await login(server.url);
  const api = async (method: string, path: string, body: unknown) => {
    const r = await fetch(`${server.url}/api/v1${path}`, { method, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify(body) });
    if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
    return r.json() as Promise<{ id: number; identifier: string }>;
  };
  const cat = await api("POST", "/category", { title: "性能", type: 1 });
  for (let i = 1; i <= 30; i++) await api("POST", "/article", { title: `缓存与渲染的第 ${i} 个问题`, content: longArticle(1500), category_id: [cat.id] });
  const big = await api("POST", "/article", { title: "两万字的长文", content: md, category_id: [cat.id] });
  const articlePath = `/article/${big.identifier}`;

  const identity = { accept: "text/html", "accept-encoding": "identity" };
  const gzip = { accept: "text/html", "accept-encoding": "gzip, deflate, br" };
  const twins: string[] = [];
  /** The page's own HTML as a static file (same bytes, same compression), answered by the same server. */
  async function staticTwin(path: string) {
    const page = new Uint8Array(await (await fetch(server.url + path, { headers: identity })).arrayBuffer());
    const name = `bench-${crypto.randomUUID().slice(0, 8)}.html`;
    writeFileSync(join(dirs.distDir, "assets", name), page);
    twins.push(name);
    return { path: `/assets/${name}`, bytes: page.byteLength };
  }
  const listTwin = await staticTwin("/article");
  const readTwin = await staticTwin(articlePath);
  const cookie = { cookie: `wk_token=${token}` };
  const cases: { name: string; path: string; headers: Record<string, string>; connections?: number; base: string }[] = [
    { name: "static twin of /article (gzip)", path: listTwin.path, headers: gzip, base: "" },
    { name: "/article anonymous (gzip)", path: "/article", headers: gzip, base: "static twin of /article (gzip)" },
    { name: "/article logged-in SSR (gzip)", path: "/article", headers: { ...gzip, ...cookie }, base: "static twin of /article (gzip)" },
    { name: "static twin of article (gzip)", path: readTwin.path, headers: gzip, base: "" },
    { name: "/article/{id} anonymous (gzip)", path: articlePath, headers: gzip, base: "static twin of article (gzip)" },
    { name: "/article/{id} logged-in SSR (gzip)", path: articlePath, headers: { ...gzip, ...cookie }, base: "static twin of article (gzip)" },
    { name: "/article/{id} logged-in SSR (4 conns)", path: articlePath, headers: { ...gzip, ...cookie }, connections: 4, base: "static twin of article (gzip)" },
  ];
  console.log(`SSR vs static: ${CONNECTIONS} keep-alive connections, ${DURATION_MS / 1000} s each in ${SLICE_MS / 1000} s slices; /article ${listTwin.bytes} B, /article/{id} ${readTwin.bytes} B (a ${md.length}-character article)`);
  for (const c of cases) await load(server.url + c.path, { connections: 8, durationMs: 500, headers: c.headers });
  const slices = new Map<string, LoadResult[]>(cases.map((c) => [c.name, []]));
  for (const group of [cases.slice(0, 3), cases.slice(3)]) {
    for (let i = 0; i < Math.max(1, Math.round(DURATION_MS / SLICE_MS)); i++) {
      for (const c of group) slices.get(c.name)!.push(await load(server.url + c.path, { connections: c.connections ?? CONNECTIONS, durationMs: SLICE_MS, headers: c.headers }));
    }
  }
  const results = new Map([...slices].map(([k, v]) => [k, merge(v)]));
  for (const name of twins) unlinkSync(join(dirs.distDir, "assets", name));
  const ratio = (c: (typeof cases)[number]) => (c.base ? results.get(c.name)!.rps / results.get(c.base)!.rps : 1);
  table(
    ["case", "req/s", "vs static", "p50 ms", "p99 ms", "errors"],
    cases.map((c) => { const r = results.get(c.name)!; return [c.name, fmt(r.rps), `${fmt(ratio(c) * 100)}%`, fmt(r.p50, 1), fmt(r.p99, 1), String(r.errors)]; }),
  );

  // JavaScript each page loads: the hydration entry, its imports and every island chunk it names.
  const manifest = JSON.parse(readFileSync(join(dirs.distDir, "manifest.json"), "utf8")) as { client: string; imports: Record<string, string[]> };
  async function jsGzip(path: string, headers: Record<string, string> = {}) {
    const html = await (await fetch(server.url + path, { headers: { ...identity, ...headers } })).text();
    const urls = new Set([manifest.client, ...(manifest.imports[manifest.client] ?? []), ...[...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]!)]);
    let n = 0;
    for (const u of urls) n += gzipSync(readFileSync(join(dirs.distDir, u.replace(/^\/assets\//, "assets/"))), { level: 9 }).length;
    return n;
  }
  const js = { list: await jsGzip("/article"), read: await jsGzip(articlePath), post: await jsGzip("/post", cookie) };
  console.log(`JS gzip -9: /article ${fmt(js.list / 1024, 1)} KB · /article/{id} ${fmt(js.read / 1024, 1)} KB · /post ${fmt(js.post / 1024, 1)} KB`);

  const byName = (n: string) => cases.find((c) => c.name === n)!;
  const ok = verdict([
    { target: "anonymous /article ≥ 25% of static", value: `${fmt(ratio(byName("/article anonymous (gzip)")) * 100)}%`, ok: ratio(byName("/article anonymous (gzip)")) >= 0.25 },
    { target: "anonymous /article/{id} ≥ 25% of static", value: `${fmt(ratio(byName("/article/{id} anonymous (gzip)")) * 100)}%`, ok: ratio(byName("/article/{id} anonymous (gzip)")) >= 0.25 },
    { target: "p99 /article/{id} < 50 ms (logged-in, 4 conns)", value: `${fmt(results.get("/article/{id} logged-in SSR (4 conns)")!.p99, 1)} ms`, ok: results.get("/article/{id} logged-in SSR (4 conns)")!.p99 < 50 },
    { target: "20,000-character render p50 < 50 ms", value: `${fmt(renderMs.p50, 2)} ms`, ok: renderMs.p50 < 50 },
    { target: "article pages JS ≤ 60 KB gzip", value: `${fmt(Math.max(js.list, js.read, js.post) / 1024, 1)} KB`, ok: Math.max(js.list, js.read, js.post) <= 60 * 1024 },
    { target: "no errors", value: String(cases.reduce((n, c) => n + results.get(c.name)!.errors, 0)), ok: cases.every((c) => results.get(c.name)!.errors === 0) },
  ]);
  process.exitCode = ok ? 0 : 1;
} finally {
  await server.stop();
  dirs.cleanup();
}
