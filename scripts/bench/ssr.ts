// SSR of home, a category page, a document (reader) page and /search?wd= against the bare static
// baseline of the same bytes (design.md §8: ≥ 25% of its req/s and p99 < 50 ms at 64 connections),
// for anonymous visitors (page cache HIT and MISS as separate rows) and a logged-in member; rows at
// 1/4/16/64 connections, gzip and identity on equal payloads. See pagebench.ts for the rows.
//
// Library: the seeded demo (scripts/seed.ts: real sample documents converted). BENCH_SSR_DOCS=N
// adds N generated documents (3 pages of text each, indexed for search, spread over the demo's
// categories) before the server starts, e.g. BENCH_SSR_DOCS=100000 for the "p99 < 50 ms at 100k
// documents" budget (builds in minutes; not in the default `bun run bench`).
// BENCH_APP_DIR=/path/to/checkout measures that checkout's server with this bench code.
import { join } from "node:path";
import { measurePages, memberToken, rowsJson } from "./pagebench.ts";
import { APP_DIR, DURATION_MS, fmt, LEVELS, login, prepareDirs, printMachine, saveResult, startServer, verdict } from "./lib.ts";

printMachine();
const EXTRA_DOCS = Number(process.env.BENCH_SSR_DOCS ?? 0);
const SEARCH_WD = process.env.BENCH_SSR_QUERY ?? "文档";

const dirs = await prepareDirs({ seed: true });
let buildSeconds = 0;
if (EXTRA_DOCS > 0) buildSeconds = await addDocuments(dirs.dataDir, EXTRA_DOCS);
const server = await startServer(dirs);
try {
  const adminToken = await login(server.url);
  const member = await memberToken(server.url, adminToken);
  const home = await (await fetch(`${server.url}/`, { headers: { accept: "text/html" } })).text();
  const category = /href="(\/category\/\d+)"/.exec(home)?.[1];
  const document = /href="(\/document\/[0-9a-zA-Z]+)"/.exec(home)?.[1];
  if (!category || !document) throw new Error("the home page links no category or no document: is the demo seeded?");
  const pages = [
    { name: "home", path: "/" },
    { name: "category", path: category },
    { name: "document", path: document },
    { name: "search", path: `/search?wd=${encodeURIComponent(SEARCH_WD)}` },
  ];
  console.log(`SSR vs a bare Bun.serve of the same bytes: ${LEVELS.join("/")} connections, ${DURATION_MS / 1000} s per run (autocannon, own process), 127.0.0.1, NODE_ENV=production, LOG_LEVEL=warn`);
  console.log(`app ${APP_DIR} · library: seeded demo${EXTRA_DOCS ? ` + ${EXTRA_DOCS} generated documents × 3 pages (built in ${fmt(buildSeconds, 1)} s)` : ""} · pages ${pages.map((p) => p.path).join(" ")}`);
  const { rows, verdicts } = await measurePages(server.url, pages, { adminToken, memberToken: member });
  const ok = verdict(verdicts);
  saveResult("ssr", { app_dir: APP_DIR, extra_documents: EXTRA_DOCS, levels: LEVELS, duration_ms: DURATION_MS, pages, rows: rowsJson(rows) });
  process.exitCode = ok ? 0 : 1;
} finally {
  await server.stop();
  dirs.cleanup();
}

/**
 * N published documents of 3 pages of text each, linked to the demo's categories and indexed for
 * search with the app's own indexer (of APP_DIR, so an older checkout indexes its own way).
 */
async function addDocuments(dataDir: string, n: number): Promise<number> {
  const t0 = performance.now();
  const { configureDatabase, openDatabase, getSqlite, closeDatabase } = (await import(join(APP_DIR, "db/client.ts"))) as typeof import("#db/client.ts");
  configureDatabase(() => openDatabase(join(dataDir, "wenku.db")));
  const { indexDocument } = (await import(join(APP_DIR, "src/features/search/indexer.ts"))) as typeof import("#src/features/search/indexer.ts");
  const db = getSqlite();
  let seed = 42;
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const CHARS = "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济";
  const text = (len: number) => {
    let s = "";
    for (let i = 0; i < len; i++) s += CHARS[Math.floor(rnd() * CHARS.length)];
    return s;
  };
  const owner = (db.query("SELECT id FROM user ORDER BY id LIMIT 1").get() as { id: number }).id;
  const cats = (db.query("SELECT id FROM category WHERE type = 0").all() as { id: number }[]).map((c) => c.id);
  const doc = db.query("INSERT INTO document (uuid, title, keywords, description, user_id, category_id, hash, ext, size, pages, preview, width, height, status) VALUES (?, ?, ?, ?, ?, ?, ?, 'pdf', ?, 3, 3, 595, 842, 2) RETURNING id");
  const page = db.query("INSERT INTO document_page (document_id, page, text) VALUES (?, ?, ?)");
  const link = db.query("INSERT INTO document_category (document_id, category_id) VALUES (?, ?)");
  for (let start = 0; start < n; start += 2000) {
    db.transaction(() => {
      for (let i = start; i < Math.min(n, start + 2000); i++) {
        const cat = cats[i % cats.length]!;
        const { id } = doc.get(crypto.randomUUID().replaceAll("-", ""), `${text(8)}文档资料`, text(4), text(60), owner, cat, crypto.randomUUID().replaceAll("-", ""), 100_000 + i) as { id: number };
        link.run(id, cat);
        for (let p = 1; p <= 3; p++) page.run(id, p, text(300));
        indexDocument(id);
      }
    })();
  }
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  closeDatabase();
  return (performance.now() - t0) / 1000;
}
