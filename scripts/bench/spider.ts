// Spider throughput (operations issue), in one process against a fresh temp database and document
// folder, with the loopback site of the spider tests (tests/helpers/spiderSite.ts) offering N
// distinct 100 KB PDFs besides its traps. The worker runs as the server runs it (2 jobs at once).
//   · collect + download: from submitting the URL to every link downloaded or refused, per minute
//   · publish: from "发布" to every document created (conversion is the convert bench's business)
//   · the same with the default politeness delay (1 s per host), which is what a real site sees
// Prints a table, then one JSON line with the numbers, then the verdict.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fmt, printMachine, table, verdict } from "./lib.ts";

printMachine();

process.env.LOG_LEVEL ??= "warn";
const { and, eq, inArray } = await import("drizzle-orm");
const { closeDatabase, configureDatabase, getDb, openDatabase } = await import("#db/client.ts");
const { jobs } = await import("#db/schema/jobs.ts");
const { category } = await import("#db/schema/site.ts");
const { spiderDocument } = await import("#db/schema/spider.ts");
const { user } = await import("#db/schema/users.ts");
const { setDocumentsRoot } = await import("#src/features/documents/paths.ts");
const { updateConfig } = await import("#src/features/settings/service.ts");
const { createUrls, publishDocuments } = await import("#src/features/spider/service.ts");
const { clearRobotsCache } = await import("#src/features/spider/robots.ts");
const { startWorker } = await import("#src/jobs/worker.ts");
await import("#src/features/spider/jobs.ts");
const { startSpiderSite } = await import("../../tests/helpers/spiderSite.ts");

const FAST_FILES = 300;
const POLITE_FILES = 20;
const SPIDER_KINDS = ["spider.collect", "spider.download", "spider.publish"];

const dir = mkdtempSync(join(tmpdir(), "wk-bench-spider-"));
configureDatabase(() => openDatabase(join(dir, "wenku.db")));
setDocumentsRoot(join(dir, "documents"));
const worker = startWorker({ concurrency: 2, pollMs: 20 });

async function idle() {
  while (getDb().select({ id: jobs.id }).from(jobs).where(and(inArray(jobs.kind, SPIDER_KINDS), inArray(jobs.status, ["queued", "running"]))).all().length) await Bun.sleep(10);
}

/** One run: a fresh site with `files` bulk PDFs; answers the downloads and publishes per minute. */
async function run(files: number, delayMs: number, owner: number, cat: number) {
  const site = startSpiderSite({ extraFiles: files });
  clearRobotsCache();
  updateConfig([{ category: "spider", name: "allow_private_addresses", value: true }, { category: "spider", name: "delay_ms", value: delayMs }, { category: "spider", name: "max_documents", value: 10_000 }]);
  try {
    const t0 = performance.now();
    const [task] = createUrls({ urls: `${site.url}/`, category_id: cat, user_id: owner, depth: 0, same_site: true, exts: ["pdf", "docx", "txt", "xlsx", "doc"], max_size: 1, price: 0 }, owner);
    await idle();
    const collectMs = performance.now() - t0;
    const rows = getDb().select().from(spiderDocument).where(eq(spiderDocument.spider_url_id, task!.id)).all();
    const ok = rows.filter((r) => r.status === 3 && !r.duplicate);
    const t1 = performance.now();
    if (ok.length) publishDocuments(ok.map((r) => r.id));
    await idle();
    const publishMs = performance.now() - t1;
    const published = getDb().select().from(spiderDocument).where(and(eq(spiderDocument.spider_url_id, task!.id), eq(spiderDocument.status, 7))).all().length;
    // The polite run offers the same files again: they come back as duplicates of the first run's documents.
    return { links: rows.length, downloaded: ok.length, fetched: rows.filter((r) => r.status === 3).length, collectMs, perMin: (rows.length / collectMs) * 60_000, published, publishMs, publishPerMin: (published / publishMs) * 60_000 };
  } finally {
    site.stop();
  }
}

try {
  const owner = getDb().insert(user).values({ username: "bench_spider", password: "-", is_root: true }).returning().get().id;
  const cat = getDb().insert(category).values({ title: "采集", type: 0 }).returning().get().id;
  const fast = await run(FAST_FILES, 0, owner, cat);
  const polite = await run(POLITE_FILES, 1000, owner, cat);
  console.log(`machine: ${navigator.hardwareConcurrency} cores · loopback site · 2 jobs at once · 100 KB PDFs`);
  table(["", "links", "downloaded", "time", "links per minute"], [
    ["collect + download, no delay", String(fast.links), String(fast.downloaded), `${fmt(fast.collectMs / 1000, 2)} s`, `${fmt(fast.perMin)} docs/min`],
    ["publish (documents created)", String(fast.downloaded), String(fast.published), `${fmt(fast.publishMs / 1000, 2)} s`, `${fmt(fast.publishPerMin)} docs/min`],
    ["collect + download, 1 s per host", String(polite.links), `${polite.fetched} (duplicates)`, `${fmt(polite.collectMs / 1000, 2)} s`, `${fmt(polite.perMin)} docs/min`],
  ]);
  const summary = {
    bench: "spider", links: fast.links, downloaded: fast.downloaded, download_docs_per_min: Math.round(fast.perMin), publish_docs_per_min: Math.round(fast.publishPerMin),
    polite_docs_per_min: Math.round(polite.perMin),
  };
  console.log(JSON.stringify(summary));
  const ok = verdict([
    { target: "every bulk link downloaded and published", value: `${fast.downloaded}/${FAST_FILES + 4}, ${fast.published}`, ok: fast.downloaded === FAST_FILES + 4 && fast.published === fast.downloaded },
    { target: "download ≥ 600 docs/min without delay", value: `${fmt(fast.perMin)}/min`, ok: fast.perMin >= 600 },
    // The politeness delay, not the machine, is the limit: one request a second per host.
    { target: "1 s delay holds a host to ≤ 60 requests/min", value: `${fmt(polite.perMin)}/min`, ok: polite.perMin <= 62 },
  ]);
  process.exitCode = ok ? 0 : 1;
} finally {
  await worker.stop();
  setDocumentsRoot(null);
  closeDatabase();
  rmSync(dir, { recursive: true, force: true });
}
