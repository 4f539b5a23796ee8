import { readFileSync } from "node:fs";
import { join } from "node:path";
import { getSqlite } from "#db/client.ts";
import { log } from "#src/http/requestLog.ts";
import { bumpContentVersion } from "#src/lib/contentVersion.ts";
import { enqueueOnce, getJob } from "#src/jobs/queue.ts";
import { registerJob } from "#src/jobs/worker.ts";
import { markdownText } from "#src/features/articles/markdown.ts";
import { headTexts, type IndexSettings, indexFingerprint, indexSettings, indexText } from "./text.ts";

// Keeps search_fts in step with the documents' text. Calls run on the process's one connection,
// so inside a caller's transaction they commit or roll back with the data they index.

/** rowid = document id × 2^20 + page: a document's rows are one rowid range. */
export const PAGE_BITS = 20;
const SPAN = 2 ** PAGE_BITS;
export const rowidOf = (documentId: number, page: number) => documentId * SPAN + page;

type Tx = unknown;

// Databases migrated while 0006 was still a placeholder (`SELECT 1;`) never got the index tables:
// drizzle does not rerun an applied migration. They are created on first use, once per connection,
// with a rebuild queued to fill them; a database migrated normally only pays a WeakSet lookup.
const checked = new WeakSet<object>();
export function ensureSearchTables() {
  const db = getSqlite();
  if (checked.has(db)) return;
  checked.add(db);
  if (db.query("SELECT 1 FROM sqlite_master WHERE name = 'search_fts'").get()) return;
  const ddl = readFileSync(join(import.meta.dir, "../../../db/migrations/0006_search_index.sql"), "utf8").replace(/^--.*$/gm, "");
  for (const stmt of ddl.split("--> statement-breakpoint")) if (stmt.trim()) db.exec(stmt);
  enqueueOnce(REBUILD_JOB);
  log("warn", "search index tables were missing: created, rebuild queued");
}

/** Removes a document from the index. */
export function unindexDocument(id: number, _tx?: Tx) {
  ensureSearchTables();
  getSqlite().query("DELETE FROM search_fts WHERE rowid BETWEEN ? AND ?").run(rowidOf(id, 0), rowidOf(id, SPAN - 1));
}

/**
 * (Re)indexes a document from its current title, keywords, description and page text. Every
 * status is indexed; searches keep only visible documents, so a status change needs no reindex.
 * Row page 0 holds title, keywords and description; rows 1…N the text of each page. (Repeating
 * the title on every page row would make a long document's title words look common to bm25.)
 */
export function indexDocument(id: number, _tx?: Tx, pre?: Presegmented) {
  ensureSearchTables();
  const db = getSqlite();
  const doc = db.query("SELECT title, keywords, description FROM document WHERE id = ?").get(id) as { title: string; keywords: string; description: string } | null;
  unindexDocument(id);
  if (!doc) return;
  // Segmented elsewhere (a conversion's Worker) with the settings in force now: used as is.
  const current = pre && pre.settings.dictionary === indexSettings().dictionary && pre.settings.traditional === indexSettings().traditional ? pre : null;
  const head = headTexts(doc);
  const headIndex = current && head.every((t, i) => t === current.head[i]) ? current.headIndex : head.map(indexText);
  const insert = db.query("INSERT INTO search_fts (rowid, title, keywords, description, body) VALUES (?, ?, ?, ?, ?)");
  insert.run(rowidOf(id, 0), headIndex[0]!, headIndex[1]!, headIndex[2]!, "");
  if (current) {
    // Pages past the span of a document's rowids are not indexed, as below.
    current.bodies.slice(0, SPAN - 1).forEach((body, i) => {
      if (body) insert.run(rowidOf(id, i + 1), "", "", "", body);
    });
    return;
  }
  const pages = db.query("SELECT page, text FROM document_page WHERE document_id = ? AND page BETWEEN 1 AND ? ORDER BY page").all(id, SPAN - 1) as { page: number; text: string }[];
  for (const p of pages) {
    const body = indexText(p.text);
    if (body) insert.run(rowidOf(id, p.page), "", "", "", body);
  }
}

/**
 * A document's index rows segmented ahead of the commit (off the event loop): `head` the row-0
 * texts they were made from (headTexts), `bodies[i]` page i+1's index text, exactly the page rows
 * the same commit writes. indexDocument falls back to segmenting itself when the settings changed
 * since, and re-segments row 0 when the title, keywords or description changed.
 */
export interface Presegmented { settings: IndexSettings; head: string[]; headIndex: string[]; bodies: string[] }

/**
 * Articles share the index above every document row: rowid = ARTICLE_ROWS + article id × 2^20 +
 * part (0 title, keywords and description; 1 the body's text). `rowid >> 20` of an article row is
 * 2^32 + id, which no document id reaches, so document queries never meet article rows.
 */
export const ARTICLE_ROWS = 2 ** 52;
export const articleRowid = (articleId: number, part: number) => ARTICLE_ROWS + articleId * SPAN + part;

export function unindexArticle(id: number, _tx?: Tx) {
  ensureSearchTables();
  getSqlite().query("DELETE FROM search_fts WHERE rowid BETWEEN ? AND ?").run(articleRowid(id, 0), articleRowid(id, SPAN - 1));
}

/** (Re)indexes an article in any status; searches keep only approved ones outside the recycle bin. */
export function indexArticle(id: number, _tx?: Tx) {
  ensureSearchTables();
  const db = getSqlite();
  const a = db.query("SELECT title, keywords, description, content FROM article WHERE id = ?").get(id) as { title: string; keywords: string; description: string; content: string } | null;
  unindexArticle(id);
  if (!a) return;
  const insert = db.query("INSERT INTO search_fts (rowid, title, keywords, description, body) VALUES (?, ?, ?, ?, ?)");
  const [title, keywords, description] = headTexts(a).map(indexText);
  insert.run(articleRowid(id, 0), title!, keywords!, description!, "");
  const body = indexText(markdownText(a.content));
  if (body) insert.run(articleRowid(id, 1), "", "", "", body);
}

function meta(key: string): string | null {
  ensureSearchTables();
  return (getSqlite().query("SELECT value FROM search_meta WHERE key = ?").get(key) as { value: string } | null)?.value ?? null;
}
const setMeta = (key: string, value: string) => getSqlite().query("INSERT INTO search_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(key, value);

export const REBUILD_JOB = "search.rebuild";
const BATCH = 100;

/**
 * Rebuilds every document's rows in batches of one transaction each, yielding between batches
 * so pages keep being served; searches work throughout (old rows until a document is redone).
 */
export async function rebuildIndex(progress: (pct: number) => boolean | void = () => {}, signal?: AbortSignal) {
  const db = getSqlite();
  const fingerprint = indexFingerprint();
  const total = (db.query("SELECT count(*) AS n FROM document").get() as { n: number }).n;
  const next = db.query("SELECT id FROM document WHERE id > ? ORDER BY id LIMIT ?");
  let last = 0;
  let done = 0;
  for (;;) {
    if (signal?.aborted) throw signal.reason;
    const ids = (next.all(last, BATCH) as { id: number }[]).map((r) => r.id);
    if (!ids.length) break;
    db.transaction(() => ids.forEach((id) => indexDocument(id))).immediate();
    last = ids.at(-1)!;
    done += ids.length;
    progress(total ? Math.min(99, Math.floor((done / total) * 100)) : 99);
    await Bun.sleep(0);
  }
  for (let lastArticle = 0; ;) {
    if (signal?.aborted) throw signal.reason;
    const ids = (db.query("SELECT id FROM article WHERE id > ? ORDER BY id LIMIT ?").all(lastArticle, BATCH) as { id: number }[]).map((r) => r.id);
    if (!ids.length) break;
    db.transaction(() => ids.forEach((id) => indexArticle(id))).immediate();
    lastArticle = ids.at(-1)!;
    await Bun.sleep(0);
  }
  // Rows of documents (and articles) that no longer exist (removed by something that bypassed unindexing).
  db.query(`DELETE FROM search_fts WHERE rowid IN (SELECT rowid FROM search_fts WHERE rowid < ${ARTICLE_ROWS} AND (rowid >> ${PAGE_BITS}) NOT IN (SELECT id FROM document))`).run();
  db.query(`DELETE FROM search_fts WHERE rowid IN (SELECT rowid FROM search_fts WHERE rowid >= ${ARTICLE_ROWS} AND ((rowid - ${ARTICLE_ROWS}) >> ${PAGE_BITS}) NOT IN (SELECT id FROM article))`).run();
  // Merge the index's segments: smaller on disk and faster to query after a bulk write.
  db.exec("INSERT INTO search_fts (search_fts) VALUES ('optimize')");
  db.transaction(() => {
    setMeta("fingerprint", fingerprint);
    setMeta("rebuilt_at", String(Date.now()));
  })();
  // Answers may differ now (new words, new folding): cached searches and pages must not outlive them.
  bumpContentVersion();
  return { documents: done };
}

registerJob(REBUILD_JOB, async ({ progress, signal }) => {
  const started = performance.now();
  const out = await rebuildIndex(progress, signal);
  log("info", "search index rebuilt", { ...out, ms: Math.round(performance.now() - started) });
  return { result: out };
}, { timeoutMs: 6 * 3600_000 });

/** Queues a rebuild unless one is waiting or running; answers the job either way. */
export function requestRebuild() {
  const job = enqueueOnce(REBUILD_JOB, {}, { maxAttempts: 3 });
  if (job) setMeta("job_id", String(job.id));
  return rebuildStatus();
}

/** The latest rebuild job's state, and whether settings changed since the index was built. */
export function rebuildStatus() {
  const id = Number(meta("job_id"));
  const job = id ? getJob(id) : null;
  const fp = meta("fingerprint");
  return {
    status: job?.status ?? "none",
    progress: job ? (job.status === "done" ? 100 : job.progress) : 0,
    error: job?.error ?? "",
    rebuilt_at: Number(meta("rebuilt_at")) || null,
    /** the dictionary or traditional folding changed after the last rebuild */
    stale: fp !== null ? fp !== indexFingerprint() : indexFingerprint() !== indexFingerprintDefault(),
  };
}

// A fresh site indexes with the default settings; only a change from those calls for a rebuild.
const indexFingerprintDefault = () => `${Bun.hash("").toString(36)}:1`;
