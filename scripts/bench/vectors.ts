// Vectors benchmark (issue 16), one run:
//  1. Embedding throughput (chunks/s) through the real local path: the rebuild job of a new space
//     over documents made from the sample texts, embedded by @huggingface/transformers on
//     onnxruntime-node with the tests' TINY model (tests/helpers/tinyEmbeddingModel.ts: one Gather,
//     one MatMul). It measures the pipeline around the model (tokeniser, batching, sqlite-vec
//     writes, job bookkeeping), not a real model: bge-small-zh-v1.5 (4 layers… 24M parameters) is
//     far slower per chunk; place the real folder under DATA_DIR/models and run with
//     `--model <folder>` to measure it.
//  2. KNN latency in sqlite-vec (vec0, cosine, the production table shape) at 1,000,000 chunks ×
//     384 dims of random unit vectors in a temp database, and a smaller size for comparison:
//     build time, database size, RSS, p50/p95 of k=50 queries.
// Usage: bun scripts/bench/vectors.ts [--size 1000000] [--small 100000] [--docs 300] [--model <folder>] [--dims 384]
import { Database } from "bun:sqlite";
import { cpSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import * as sqliteVec from "sqlite-vec";
import { configureDatabase, getSqlite, openDatabase } from "#db/client.ts";
import { fmt, printMachine, saveResult, table } from "./lib.ts";
import { samples } from "../samples/content.ts";
import { buildTinyEmbeddingModel } from "../../tests/helpers/tinyEmbeddingModel.ts";

const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : def;
};
const SIZE = Number(arg("size", "1000000"));
const SMALL = Number(arg("small", "100000"));
const DOCS = Number(arg("docs", "300"));
const DIMS = Number(arg("dims", "384"));
const REAL_MODEL = arg("model", "");
const QUERIES = 30;
const K = 50;

printMachine();
const rssMb = () => Math.round(process.memoryUsage().rss / 2 ** 20);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

// ---- 1. embedding throughput through the rebuild job ----
async function throughput() {
  const dataDir = mkdtempSync(join(tmpdir(), "wk-bench-vec-"));
  try {
    const folder = join(dataDir, "models", REAL_MODEL ? basename(REAL_MODEL) : "tiny-zh");
    if (REAL_MODEL) cpSync(REAL_MODEL, folder, { recursive: true });
    else buildTinyEmbeddingModel(folder, DIMS);
    const dims = REAL_MODEL ? Number(JSON.parse(await Bun.file(join(folder, "config.json")).text()).hidden_size) : DIMS;
    configureDatabase(() => openDatabase(join(dataDir, "wenku.db")));
    const { setModelDataDir } = await import("#src/features/embedding/local.ts");
    setModelDataDir(dataDir);
    const { updateConfig } = await import("#src/features/settings/service.ts");
    const { syncSpaces, activeSpace } = await import("#src/features/embedding/spaces.ts");
    await import("#src/features/embedding/jobs.ts");
    const { startWorker } = await import("#src/jobs/worker.ts");
    // Page texts from the sample documents, cut to ~900 characters and shuffled per document.
    // Every string inside the samples (html, slide texts, table cells…), tags stripped.
    const strings: string[] = [];
    JSON.stringify(samples, (_k, v) => (typeof v === "string" && strings.push(v), v));
    const text = strings.join(" ").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
    const pages = Array.from({ length: Math.ceil(text.length / 900) }, (_, i) => text.slice(i * 900, (i + 1) * 900));
    const db = getSqlite();
    db.exec("INSERT INTO user (username, password) VALUES ('bench', 'x')");
    const addDoc = db.query("INSERT INTO document (uuid, title, user_id, hash, ext, pages, preview, status) VALUES (?, ?, 1, ?, 'pdf', ?, ?, 2) RETURNING id");
    const addPage = db.query("INSERT INTO document_page (document_id, page, text) VALUES (?, ?, ?)");
    db.transaction(() => {
      for (let d = 0; d < DOCS; d++) {
        const n = 3 + (d % 5);
        const id = (addDoc.get(crypto.randomUUID(), `文档${d}`, crypto.randomUUID(), n, n) as { id: number }).id;
        for (let p = 0; p < n; p++) addPage.run(id, p + 1, `${d}-${p} ${pages[(d * 7 + p * 3) % pages.length]}`);
      }
    })();
    updateConfig([
      ["enable", true], ["provider", "local"], ["model_path", basename(folder)], ["dimensions", dims], ["batch_size", 16], ["chunk_size", 400], ["chunk_overlap", 60],
    ].map(([name, value]) => ({ category: "embedding", name: name as string, value: value as string })));
    const t0 = performance.now();
    syncSpaces();
    const worker = startWorker({ concurrency: 1, pollMs: 10 });
    // Event-loop stalls while embedding: how long a request would wait at worst.
    let worstGap = 0;
    let last = performance.now();
    const probe = setInterval(() => {
      const now = performance.now();
      worstGap = Math.max(worstGap, now - last - 5);
      last = now;
    }, 5);
    while (!activeSpace()) await Bun.sleep(50);
    clearInterval(probe);
    const seconds = (performance.now() - t0) / 1000;
    await worker.stop();
    const chunks = (db.query("SELECT count(*) AS n FROM chunk").get() as { n: number }).n;
    const out = { model: REAL_MODEL ? basename(REAL_MODEL) : `tiny test model (${dims} dims, 1 Gather + 1 MatMul)`, documents: DOCS, chunks, seconds, chunks_per_s: chunks / seconds, worst_event_loop_stall_ms: worstGap, rss_mb: rssMb() };
    return out;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---- 2. KNN at scale ----
function unitVectors(n: number, dims: number, seed: number): Float32Array {
  let a = seed >>> 0;
  const rand = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
  };
  const out = new Float32Array(n * dims);
  for (let i = 0; i < n; i++) {
    let norm = 0;
    for (let j = 0; j < dims; j++) norm += (out[i * dims + j] = rand()) ** 2;
    norm = Math.sqrt(norm);
    for (let j = 0; j < dims; j++) out[i * dims + j]! /= norm;
  }
  return out;
}

function knn(n: number) {
  const dir = mkdtempSync(join(tmpdir(), "wk-bench-knn-"));
  try {
    const file = join(dir, "vec.db");
    const db = new Database(file, { create: true });
    sqliteVec.load(db);
    db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL");
    db.exec(`CREATE VIRTUAL TABLE chunk_vec_1 USING vec0(embedding float[${DIMS}] distance_metric=cosine)`);
    const insert = db.query("INSERT INTO chunk_vec_1 (rowid, embedding) VALUES (?, ?)");
    const rss0 = rssMb();
    const t0 = performance.now();
    const BATCH = 20_000;
    for (let start = 0; start < n; start += BATCH) {
      const m = Math.min(BATCH, n - start);
      const vs = unitVectors(m, DIMS, start + 1);
      db.transaction(() => {
        for (let i = 0; i < m; i++) insert.run(start + i + 1, vs.subarray(i * DIMS, (i + 1) * DIMS));
      })();
    }
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const buildS = (performance.now() - t0) / 1000;
    const size = statSync(file).size;
    const q = unitVectors(QUERIES + 2, DIMS, 987654);
    const stmt = db.query(`SELECT rowid, distance FROM chunk_vec_1 WHERE embedding MATCH ? AND k = ${K}`);
    const times: number[] = [];
    for (let i = 0; i < QUERIES + 2; i++) {
      const t = performance.now();
      const rows = stmt.all(q.subarray(i * DIMS, (i + 1) * DIMS)) as unknown[];
      if (rows.length !== K) throw new Error(`expected ${K} neighbours, got ${rows.length}`);
      if (i >= 2) times.push(performance.now() - t); // the first two warm the page cache
    }
    const rssQuery = rssMb();
    db.close();
    return { chunks: n, dims: DIMS, k: K, build_s: buildS, inserts_per_s: n / buildS, db_mb: size / 2 ** 20, p50_ms: pct(times, 50), p95_ms: pct(times, 95), rss_mb_before: rss0, rss_mb_after_queries: rssQuery };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const emb = await throughput();
console.log(`\nEmbedding throughput (local path, ${emb.model})`);
table(["documents", "chunks", "seconds", "chunks/s", "worst loop stall ms", "RSS MB"], [[String(emb.documents), String(emb.chunks), fmt(emb.seconds, 1), fmt(emb.chunks_per_s, 1), fmt(emb.worst_event_loop_stall_ms, 0), String(emb.rss_mb)]]);

const knnRows = [knn(SMALL), knn(SIZE)];
console.log(`\nKNN in sqlite-vec (vec0, cosine, k=${K}, ${QUERIES} queries, random unit vectors)`);
table(["chunks", "dims", "build s", "inserts/s", "DB MB", "p50 ms", "p95 ms", "RSS MB"], knnRows.map((r) => [r.chunks.toLocaleString("en-US"), String(r.dims), fmt(r.build_s, 1), fmt(r.inserts_per_s, 0), fmt(r.db_mb, 0), fmt(r.p50_ms, 1), fmt(r.p95_ms, 1), String(r.rss_mb_after_queries)]));
console.log(`\nsaved ${saveResult("vectors", { embedding: emb, knn: knnRows })}`);
process.exit(0);
