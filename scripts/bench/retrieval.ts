// Retrieval quality (issue 16), one run: the labelled questions of tests/fixtures/retrieval/
// (written by hand over the converted sample documents) against
//   · BM25 page-level — retrieve() with embeddings off (retrieval/keyword.ts)
//   · BM25 chunk-level — the embedding chunker's windows in a temp FTS5 table, mapped to pages
//   · vector and hybrid (RRF) — when an embedding model is configured through the environment:
//       EMBED_BASE_URL + EMBED_MODEL (+ EMBED_KEY, EMBED_PROVIDER=custom, EMBED_DIMS) for an
//       OpenAI-compatible /embeddings, or EMBED_MODEL_PATH (+ EMBED_DIMS) for a local ONNX folder;
//       RERANK_BASE_URL + RERANK_MODEL (+ RERANK_KEY) add a reranked row.
//     `--stand-in` uses the tests' fake server instead (hashed character bigrams, and character
//     overlap for rerank): it proves the path end to end, its numbers say nothing about quality.
// recall@5, MRR and nDCG@10 per system, split by question kind (keyword / paraphrase); then the
// keyword knobs (title boost, common-word share, words kept) and the chunk size, one at a time.
// The library is the sample files converted by the real job in a temp database, plus
// BENCH_RETRIEVAL_FILLER (default 1000) Zipf-sampled documents so word statistics are a library's.
// Writes bench-results/retrieval.json (retrieval-stand-in.json with --stand-in).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeDatabase, configureDatabase, openDatabase } from "#db/client.ts";
import { capPerDocument, readablePages } from "#src/features/ai/retrieval/access.ts";
import { KEYWORD_TUNING, keywordRetrieve, type KeywordTuning } from "#src/features/ai/retrieval/keyword.ts";
import { vectorPages } from "#src/features/ai/retrieval/vector.ts";
import { retrieve } from "#src/features/ai/retrieve.ts";
import { embedQuery } from "#src/features/embedding/vectors.ts";
import { updateConfig } from "#src/features/settings/service.ts";
import { startFakeLlm, type FakeLlm } from "../../tests/helpers/fakeLlm.ts";
import { fmt, printMachine, root, table } from "./lib.ts";
import { buildChunkIndex, chunkPages } from "./retrieval/chunkIndex.ts";
import { addFiller } from "./retrieval/filler.ts";
import { buildLibrary } from "./retrieval/library.ts";
import { score, type Scores } from "./retrieval/metrics.ts";
import { buildVectors, type EmbeddingSetup } from "./retrieval/vectorSetup.ts";

printMachine();

interface Question { id: number; question: string; kind: "keyword" | "paraphrase"; answers: { file: string; pages: number[] }[] }

const LIMIT = 10;
const FILLER = Number(process.env.BENCH_RETRIEVAL_FILLER ?? 1000);
const STAND_IN = process.argv.includes("--stand-in");
const questions = (JSON.parse(readFileSync(join(root, "tests/fixtures/retrieval/questions.json"), "utf8")) as { questions: Question[] }).questions;

const dir = mkdtempSync(join(tmpdir(), "wk-bench-retrieval-"));
configureDatabase(() => openDatabase(join(dir, "wenku.db")));
let fake: FakeLlm | null = null;

type Ranker = (q: string) => Promise<{ document_id: number; page: number }[]> | { document_id: number; page: number }[];
type Row = { system: string; all: Scores; keyword: Scores; paraphrase: Scores; ms: number };

try {
  const t0 = performance.now();
  const lib = await buildLibrary(dir);
  addFiller(FILLER, lib.ownerId);
  const fileOf = new Map(lib.docs.map((d) => [d.id, d.file]));
  for (const q of questions) for (const a of q.answers) if (!lib.byFile.has(a.file)) throw new Error(`问题 ${q.id}：示例文档 ${a.file} 不存在`);
  const scope = { userId: lib.ownerId, limit: LIMIT };
  const name = (p: { document_id: number; page: number }) => `${fileOf.get(p.document_id) ?? `filler-${p.document_id}`}#${p.page}`;

  async function evaluate(system: string, rank: Ranker): Promise<Row> {
    const runs: { ranked: string[]; relevant: Set<string>; kind: string }[] = [];
    const started = performance.now();
    for (const q of questions) {
      const ranked = (await rank(q.question)).slice(0, LIMIT).map(name);
      runs.push({ ranked, relevant: new Set(q.answers.flatMap((a) => a.pages.map((p) => `${a.file}#${p}`))), kind: q.kind });
    }
    const ms = (performance.now() - started) / questions.length;
    return { system, all: score(runs), keyword: score(runs.filter((r) => r.kind === "keyword")), paraphrase: score(runs.filter((r) => r.kind === "paraphrase")), ms };
  }

  const bm25Page = (tuning: KeywordTuning = KEYWORD_TUNING): Ranker => (q) => keywordRetrieve(q, scope, tuning);
  const bm25Chunk = (tuning: KeywordTuning = KEYWORD_TUNING): Ranker => (q) => chunkPages(q, LIMIT, 3, tuning);
  const rows: Row[] = [];
  rows.push(await evaluate("BM25 page-level (retrieve, embeddings off)", bm25Page()));
  const chunks = buildChunkIndex(400, 60);
  rows.push(await evaluate(`BM25 chunk-level (400/60, ${chunks} chunks)`, bm25Chunk()));

  // Vector rows: a real model from the environment, or the labelled stand-in.
  const env = process.env;
  let setup: EmbeddingSetup | null = null;
  let label = "";
  if (STAND_IN) {
    fake = startFakeLlm();
    setup = { provider: "custom", base_url: fake.baseUrl, api_key: "sk-test", model: "fake-bigram-hash", dimensions: 256 };
    label = " [STAND-IN: hashed bigrams, not quality]";
  } else if (env.EMBED_MODEL_PATH) {
    setup = { provider: "local", model_path: env.EMBED_MODEL_PATH, dimensions: Number(env.EMBED_DIMS) || 512 };
    label = ` [${env.EMBED_MODEL_PATH}]`;
  } else if (env.EMBED_BASE_URL && env.EMBED_MODEL) {
    setup = { provider: env.EMBED_PROVIDER ?? "custom", base_url: env.EMBED_BASE_URL, api_key: env.EMBED_KEY ?? "", model: env.EMBED_MODEL, dimensions: Number(env.EMBED_DIMS) || 1024 };
    label = ` [${env.EMBED_MODEL}]`;
  }
  let vectorInfo: Record<string, unknown> | null = null;
  if (setup) {
    const built = await buildVectors(setup);
    vectorInfo = { ...setup, api_key: undefined, chunks: built.chunks, build_s: built.ms / 1000, chunks_per_s: built.chunks / (built.ms / 1000) };
    rows.push(await evaluate(`vector only${label}`, async (q) => {
      const v = await embedQuery(q);
      return v ? capPerDocument(readablePages(vectorPages(v, scope, LIMIT * 8).slice(0, LIMIT * 3), scope), LIMIT) : [];
    }));
    rows.push(await evaluate(`hybrid RRF k=60${label}`, (q) => retrieve(q, scope)));
    const rerank = STAND_IN && fake ? { rerank_base_url: fake.baseUrl, rerank_api_key: "sk-test", rerank_model: "fake-char-overlap" }
      : env.RERANK_BASE_URL && env.RERANK_MODEL ? { rerank_base_url: env.RERANK_BASE_URL, rerank_api_key: env.RERANK_KEY ?? "", rerank_model: env.RERANK_MODEL } : null;
    if (rerank) {
      updateConfig(Object.entries({ rerank_enable: true, rerank_top_n: 20, ...rerank }).map(([n, value]) => ({ category: "embedding", name: n, value })));
      rows.push(await evaluate(`hybrid + rerank${STAND_IN ? " [STAND-IN: char overlap, not quality]" : ` [${env.RERANK_MODEL}]`}`, (q) => retrieve(q, scope)));
      updateConfig([{ category: "embedding", name: "rerank_enable", value: false }]);
    }
  }

  // Knobs, one at a time from the defaults (nDCG@10 over all questions decides).
  const tuning: { knob: string; value: number; recall5: number; mrr: number; ndcg10: number; ms: number }[] = [];
  const knobs: [keyof KeywordTuning, number[]][] = [["titleBoost", [0, 0.15, 0.3, 0.6, 1]], ["commonShare", [0.01, 0.02, 0.05, 0.1, 0.25, 1]], ["maxWords", [2, 3, 4, 6, 8]]];
  for (const [knob, values] of knobs) {
    for (const value of values) {
      const r = await evaluate("", bm25Page({ ...KEYWORD_TUNING, [knob]: value }));
      tuning.push({ knob: `page ${knob}`, value, recall5: r.all.recall5, mrr: r.all.mrr, ndcg10: r.all.ndcg10, ms: r.ms });
    }
  }
  for (const [size, overlap] of [[200, 40], [300, 50], [400, 60], [600, 80], [900, 100]] as const) {
    buildChunkIndex(size, overlap);
    const r = await evaluate("", bm25Chunk());
    tuning.push({ knob: "chunk size/overlap", value: size, recall5: r.all.recall5, mrr: r.all.mrr, ndcg10: r.all.ndcg10, ms: r.ms });
  }

  const kw = questions.filter((q) => q.kind === "keyword").length;
  console.log(`machine: ${navigator.hardwareConcurrency} cores · load ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")} · ${lib.docs.length} sample documents (${lib.docs.reduce((n, d) => n + d.pages, 0)} pages, converted by the real job) + ${FILLER} filler documents × 3 pages · ${questions.length} questions (${kw} keyword, ${questions.length - kw} paraphrase) · built in ${fmt((performance.now() - t0) / 1000, 1)} s`);
  if (!setup) console.log("vector / hybrid: no embedding model configured (EMBED_BASE_URL + EMBED_MODEL, EMBED_MODEL_PATH, or --stand-in)");
  const f = (n: number) => fmt(n, 3);
  console.log("");
  table(["system", "recall@5", "MRR", "nDCG@10", "kw nDCG", "para nDCG", "ms/q"],
    rows.map((r) => [r.system, f(r.all.recall5), f(r.all.mrr), f(r.all.ndcg10), f(r.keyword.ndcg10), f(r.paraphrase.ndcg10), fmt(r.ms, 1)]));
  console.log("\nkeyword knobs (one at a time; defaults: titleBoost 0.3, commonShare 0.05, maxWords 6; chunks 400/60)");
  table(["knob", "value", "recall@5", "MRR", "nDCG@10", "ms/q"], tuning.map((t) => [t.knob, String(t.value), f(t.recall5), f(t.mrr), f(t.ndcg10), fmt(t.ms, 1)]));
  mkdirSync(join(root, "bench-results"), { recursive: true });
  const out = join(root, `bench-results/retrieval${STAND_IN ? "-stand-in" : ""}.json`);
  writeFileSync(out, JSON.stringify({
    at: new Date().toISOString(), cores: navigator.hardwareConcurrency, filler: FILLER, questions: questions.length, stand_in: STAND_IN,
    vectors: vectorInfo, systems: rows, tuning,
  }, null, 1));
  console.log(`\nwritten ${out}`);
} finally {
  fake?.stop();
  closeDatabase();
  rmSync(dir, { recursive: true, force: true });
}
