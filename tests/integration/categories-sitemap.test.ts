// Sitemaps (§9): the index lists the pages and articles parts and documents-N files of 10,000 visible documents
// each; files are generated to DATA_DIR/sitemap by the "sitemap.generate" job (daily, and moved to
// now by PUT /api/v1/sitemap) and served from disk, or built on the fly before the first run.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getSqlite } from "#db/client.ts";
import { DOCS_PER_FILE, SITEMAP_JOB, generateSitemaps, setSitemapDir } from "#src/features/site/sitemap.ts";
import { enqueue, getJob } from "#src/jobs/queue.ts";
import { startWorker } from "#src/jobs/worker.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { addCategory, addDocument } from "./categories-fixtures.ts";

const t = setupTestApp();
let dir: string;
const ORIGIN = "http://localhost";
const get = (path: string) => t.req("GET", path);
const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "wk-sitemap-"));
  setSitemapDir(dir);
  const sqlite = getSqlite();
  const cat = addCategory("站点地图分类");
  // 10,001 visible documents plus hidden ones, in one transaction (a few hundred ms).
  const ins = sqlite.prepare("INSERT INTO document (uuid, title, user_id, category_id, hash, ext, status, deleted_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'pdf', ?, ?, ?, ?)");
  sqlite.transaction(() => {
    for (let i = 1; i <= DOCS_PER_FILE + 1; i++) ins.run(`u${String(i).padStart(5, "0")}`, `文档${i}`, t.rootId, cat, "0".repeat(32), 2, null, 1_700_000_000_000 + i, 1_700_000_000_000 + i);
    ins.run("hidden-converting", "转换中", t.rootId, cat, "0".repeat(32), 1, null, 1, 1);
    ins.run("hidden-deleted", "已删除", t.rootId, cat, "0".repeat(32), 2, Date.now(), 1, 1);
  })();
  addDocument("普通文档", cat);
});
afterAll(() => {
  setSitemapDir(null);
  rmSync(dir, { recursive: true, force: true });
});

describe("before any generation: built on the fly", () => {
  test("the index lists pages and two document files", async () => {
    const r = await get("/sitemap.xml");
    expect(r.status).toBe(200);
    expect(r.res.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    expect(locs(r.text)).toEqual([`${ORIGIN}/sitemap/pages.xml`, `${ORIGIN}/sitemap/articles.xml`, `${ORIGIN}/sitemap/documents-1.xml`, `${ORIGIN}/sitemap/documents-2.xml`]);
  });

  test("documents-1 holds 10,000 URLs with lastmod; documents-2 the rest; hidden documents never", async () => {
    const one = await get("/sitemap/documents-1.xml");
    const urls = locs(one.text);
    expect(urls).toHaveLength(DOCS_PER_FILE);
    expect(urls[0]).toBe(`${ORIGIN}/document/u00001`);
    expect(one.text).toContain(`<lastmod>${new Date(1_700_000_000_001).toISOString()}</lastmod>`);
    const two = locs((await get("/sitemap/documents-2.xml")).text);
    expect(two).toHaveLength(2);
    expect(two[0]).toBe(`${ORIGIN}/document/u10001`);
    expect(one.text + two.join()).not.toContain("hidden-");
    expect((await get("/sitemap/documents-3.xml")).status).toBe(404);
    expect((await get("/sitemap/nothing.xml")).status).toBe(404);
    expect(locs((await get("/sitemap/pages.xml")).text)).toContain(`${ORIGIN}/category`);
  });
});

describe("generated files", () => {
  test("generateSitemaps writes 10,000 per file and the server then answers from disk", async () => {
    const m = await generateSitemaps(ORIGIN);
    expect(m.files.map((f) => [f.name, f.count])).toEqual([["documents-1", DOCS_PER_FILE], ["documents-2", 2]]);
    expect(readdirSync(dir).sort()).toEqual(["documents-1.xml", "documents-2.xml", "manifest.json"]);
    expect(locs(readFileSync(join(dir, "documents-1.xml"), "utf8"))).toHaveLength(DOCS_PER_FILE);
    // Proof the disk copy is what gets served: mark it and read it back over HTTP.
    const file = join(dir, "documents-2.xml");
    writeFileSync(file, readFileSync(file, "utf8").replace("</urlset>", "<!-- from disk --></urlset>"));
    expect((await get("/sitemap/documents-2.xml")).text).toContain("<!-- from disk -->");
    const index = await get("/sitemap.xml");
    expect(index.text).toContain(`<loc>${ORIGIN}/sitemap/documents-2.xml</loc><lastmod>`);
  });

  test("files of another origin are not served; a shorter run removes stale files", async () => {
    expect((await t.req("GET", "http://other.example/sitemap/documents-2.xml")).text).not.toContain("<!-- from disk -->");
    getSqlite().run("UPDATE document SET status = 4 WHERE uuid >= 'u10000'");
    await generateSitemaps(ORIGIN);
    expect(readdirSync(dir).sort()).toEqual(["documents-1.xml", "manifest.json"]);
    expect(locs((await get("/sitemap.xml")).text)).toEqual([`${ORIGIN}/sitemap/pages.xml`, `${ORIGIN}/sitemap/articles.xml`, `${ORIGIN}/sitemap/documents-1.xml`]);
    getSqlite().run("UPDATE document SET status = 2 WHERE uuid >= 'u10000' AND uuid LIKE 'u%'");
  });
});

describe("PUT /api/v1/sitemap and the job", () => {
  test("admin only", async () => {
    expect((await t.req("PUT", "/api/v1/sitemap")).status).toBe(401);
    expect((await t.req("PUT", "/api/v1/sitemap", { token: t.userToken })).status).toBe(403);
  });

  test("moves the scheduled daily run to now (one recurring job), and the worker writes the files", async () => {
    const scheduled = enqueue(SITEMAP_JOB, {}, { runAfter: Date.now() + 86400_000 });
    const r = await t.req("PUT", "/api/v1/sitemap", { token: t.rootToken });
    expect(r.status).toBe(200);
    expect(r.body.job_id).toBe(scheduled.id);
    expect(getJob(scheduled.id)!.run_after).toBe(0);
    expect(JSON.parse(getJob(scheduled.id)!.payload)).toEqual({ origin: ORIGIN });
    // Without a manifest, only the payload names the origin.
    rmSync(join(dir, "manifest.json"));
    const worker = startWorker({ concurrency: 1, pollMs: 20 });
    try {
      for (let i = 0; i < 250 && getJob(scheduled.id)!.status !== "done"; i++) await Bun.sleep(20);
    } finally {
      await worker.stop();
    }
    const job = getJob(scheduled.id)!;
    expect(job.status).toBe("done");
    expect(JSON.parse(job.result)).toEqual({ origin: ORIGIN, files: 2, urls: DOCS_PER_FILE + 2 });
    expect(existsSync(join(dir, "manifest.json"))).toBe(true);
    // Completing scheduled exactly one next daily run.
    const next = getSqlite().query("SELECT count(*) AS n FROM jobs WHERE kind = ? AND status = 'queued'").get(SITEMAP_JOB) as { n: number };
    expect(next.n).toBe(1);
  });
});
