// Articles: SSR of /article and /article/{identifier} against the bare static baseline of the same
// bytes (a bare Bun.serve in its own process, design.md §8, as ssr.ts does for home/category/
// document/search): anonymous cache HIT, cache MISS (page cache off) and a logged-in member at
// 1/4/16/64 connections (pagebench.ts); the render time of a 20,000-character article (markdown →
// sanitised HTML, in-process, cold); and the JavaScript each article page loads (public pages
// ≤ 60 KB gzip; size.ts measures every public page).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { renderMarkdown } from "#src/features/articles/markdown.ts";
import { measurePages, memberToken, rowsJson } from "./pagebench.ts";
import { DURATION_MS, fmt, LEVELS, login, prepareDirs, printMachine, saveResult, startServer, verdict } from "./lib.ts";

printMachine();

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
  const member = await memberToken(server.url, token);
  console.log(`SSR vs a bare Bun.serve of the same bytes: ${LEVELS.join("/")} connections, ${DURATION_MS / 1000} s per run; /article/{id} is a ${md.length}-character article`);
  const ssr = await measurePages(server.url, [{ name: "/article", path: "/article" }, { name: "/article/{id}", path: articlePath }], { adminToken: token, memberToken: member });

  // JavaScript each page loads: the hydration entry, its imports and every island chunk it names.
  const manifest = JSON.parse(readFileSync(join(dirs.distDir, "manifest.json"), "utf8")) as { client: string; imports: Record<string, string[]> };
  async function jsGzip(path: string, headers: Record<string, string> = {}) {
    const html = await (await fetch(server.url + path, { headers: { ...identity, ...headers } })).text();
    const urls = new Set([manifest.client, ...(manifest.imports[manifest.client] ?? []), ...[...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]!)]);
    let n = 0;
    for (const u of urls) n += gzipSync(readFileSync(join(dirs.distDir, u.replace(/^\/assets\//, "assets/"))), { level: 9 }).length;
    return n;
  }
  const js = { list: await jsGzip("/article"), read: await jsGzip(articlePath), post: await jsGzip("/post", { cookie: `wk_token=${token}` }) };
  console.log(`JS gzip -9: /article ${fmt(js.list / 1024, 1)} KB · /article/{id} ${fmt(js.read / 1024, 1)} KB · /post ${fmt(js.post / 1024, 1)} KB`);

  const ok = verdict([
    ...ssr.verdicts,
    { target: "20,000-character render p50 < 50 ms", value: `${fmt(renderMs.p50, 2)} ms`, ok: renderMs.p50 < 50 },
    { target: "article pages JS ≤ 60 KB gzip", value: `${fmt(Math.max(js.list, js.read, js.post) / 1024, 1)} KB`, ok: Math.max(js.list, js.read, js.post) <= 60 * 1024 },
  ]);
  saveResult("articles", { duration_ms: DURATION_MS, render_ms: renderMs, js_gzip: js, rows: rowsJson(ssr.rows) });
  process.exitCode = ok ? 0 : 1;
} finally {
  await server.stop();
  dirs.cleanup();
}
