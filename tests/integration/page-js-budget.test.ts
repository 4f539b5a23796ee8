// Public page JS budget (design.md §8: ≤ 60 KB gzip per public page, islands only), checked cheaply
// in the test suite; scripts/bench/size.ts measures the same thing in Chromium. A fresh browser build
// (scripts/build.ts into a temp DIST_DIR, so dist/ is left alone) gives the files and their gzip -9
// copies; each public page rendered by the app names its islands. A page's JS = the client entry +
// every island the page names (eager or hydrated when visible, both counted) + everything those import
// statically, each file once. Dynamic imports (dialogs loaded on first click) are not counted.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { MEMBERS, joinGroup, makeArticleCategory, publish } from "./articles-fixtures.ts";
import { makeCategory, makeDoc } from "./reader-fixtures.ts";
import { setupTestApp } from "#tests/helpers/testApp.ts";

const BUDGET = 60 * 1024;
const root = resolve(import.meta.dir, "../..");
const t = setupTestApp();
let dist = "";
let manifest: { client: string; islands: Record<string, string>; imports: Record<string, string[]> };
let docPath = "";
let articlePath = "";
let categoryPath = "";

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), "wk-budget-dist-"));
  const built = Bun.spawnSync(["bun", "scripts/build.ts"], { cwd: root, env: { ...process.env, DIST_DIR: dist }, stdout: "pipe", stderr: "pipe" });
  if (built.exitCode !== 0) throw new Error(`build failed: ${built.stderr.toString()}`);
  manifest = JSON.parse(readFileSync(join(dist, "manifest.json"), "utf8"));
  joinGroup(t.userId, MEMBERS);
  const cat = makeCategory("预算分类");
  categoryPath = `/category/${cat.id}`;
  docPath = `/document/${makeDoc({ userId: t.rootId, categoryIds: [cat.id], title: "预算文档" }).uuid}`;
  const acat = makeArticleCategory("预算文章分类").id;
  articlePath = `/article/${(await publish(t, t.rootToken, { title: "预算文章", content: "正文", category_id: [acat] })).identifier}`;
}, 60_000);
afterAll(() => rmSync(dist, { recursive: true, force: true }));

/** gzip -9 bytes of one built file (scripts/build.ts writes the .gz copy). */
const gz = (url: string) => statSync(join(dist, `${url.replace(/^\//, "")}.gz`)).size;

/** Island names a rendered page uses (the markers its HTML carries). */
const islandsOf = (html: string) => [...new Set([...html.matchAll(/data-island="(\w+)"/g)].map((m) => m[1]!))];

function pageJs(islands: string[]) {
  const seen = new Set<string>();
  const queue = [manifest.client];
  for (const name of islands) {
    const url = manifest.islands[name];
    if (!url) throw new Error(`island ${name} is not in the build`);
    queue.push(url);
  }
  while (queue.length) {
    const url = queue.shift()!;
    if (seen.has(url)) continue;
    seen.add(url);
    queue.push(...(manifest.imports[url] ?? []));
  }
  let bytes = 0;
  for (const url of seen) bytes += gz(url);
  return { bytes, files: seen.size };
}

describe("public page JS", () => {
  test("the browser build ships no React runtime (react and react-dom resolve to preact/compat)", () => {
    for (const url of Object.keys(manifest.imports)) {
      const code = readFileSync(join(dist, url.replace(/^\//, "")), "utf8");
      expect([url, /Minified React error|reactjs\.org\/docs\/error-decoder/.test(code)]).toEqual([url, false]);
    }
  });

  test("every public page loads at most 60 KB of gzip JS", async () => {
    const pages: [string, string | undefined][] = [
      ["/", undefined], [categoryPath, undefined], [docPath, undefined], [docPath, t.userToken], [`/search?wd=${encodeURIComponent("预算")}`, undefined],
      ["/article", undefined], [articlePath, undefined], [articlePath, t.userToken], ["/login", undefined], ["/register", undefined], ["/joinvip", undefined],
      ["/post", t.userToken], ["/upload", t.userToken],
    ];
    const over: string[] = [];
    for (const [path, token] of pages) {
      const r = await t.req("GET", path, { headers: { accept: "text/html" }, token });
      expect([path, r.status]).toEqual([path, 200]);
      const islands = islandsOf(r.text);
      expect(islands.length).toBeGreaterThan(0);
      if (path === "/post") expect(islands).toContain("ArticleEditor");
      if (path === "/upload") expect(islands).toContain("UploadForm");
      const js = pageJs(islands);
      if (process.env.PAGE_JS_VERBOSE) console.log(path, token ? "member" : "", js.bytes, js.files);
      if (js.bytes > BUDGET) over.push(`${path}${token ? " (member)" : ""}: ${js.bytes} B gzip in ${js.files} files (${islands.join(",")})`);
    }
    expect(over).toEqual([]);
  });
});
