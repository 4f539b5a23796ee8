import { embedQuery } from "#src/features/embedding/vectors.ts";
import { log } from "#src/http/requestLog.ts";
import type { RetrievalScope, RetrievedPage } from "../retrieve.ts";
import { capPerDocument, fillWithFirstPages, readablePages } from "./access.ts";
import { reciprocalRankFusion } from "./fusion.ts";
import { keywordPages, keywordRetrieve } from "./keyword.ts";
import { rerank, rerankConfig } from "./rerank.ts";
import { vectorPages } from "./vector.ts";

// Hybrid retrieval (design.md §6): BM25 pages and the pages of the query's nearest chunks, each
// filtered by what the user may read, fused by reciprocal rank, optionally reranked, then capped
// per document like keyword retrieval. The embedding is asked for first and the keyword search
// runs while it is on its way, so the provider's latency hides the SQL's.

// The chat waits for this before its first token: a provider that does not answer in time is
// treated as down for this question (keyword results only), never as a failed answer.
export const QUERY_EMBED_TIMEOUT_MS = 2000;
// Candidates per list before fusion: deeper than the answer so that agreement further down counts.
const CANDIDATES_PER_LIMIT = 3;
// Nearest chunks per page wanted: pages have several chunks, and some neighbours are unreadable.
const CHUNKS_PER_LIMIT = 8;

const key = (p: { document_id: number; page: number }) => `${p.document_id}:${p.page}`;

export async function hybridRetrieve(query: string, scope: RetrievalScope): Promise<RetrievedPage[]> {
  const limit = Math.max(1, Math.min(50, scope.limit));
  const vector = query.trim() ? queryVector(query, scope.signal) : Promise.resolve(null);
  const depth = Math.min(100, limit * CANDIDATES_PER_LIMIT);
  // Uncapped per document here: the cap applies once, to the fused order.
  const keyword = keywordPages(query, scope, depth, depth);
  const v = await vector;
  if (!v) return keywordRetrieve(query, scope);
  const near = vectorPages(v, scope, Math.min(400, limit * CHUNKS_PER_LIMIT));
  const semantic = readablePages(near.slice(0, depth), scope);
  const byKey = new Map<string, Omit<RetrievedPage, "score">>();
  for (const p of [...keyword, ...semantic]) if (!byKey.has(key(p))) byKey.set(key(p), p);
  let ranked: RetrievedPage[] = reciprocalRankFusion([keyword.map(key), semantic.map(key)])
    .map((f) => ({ ...byKey.get(f.key)!, score: Math.round(f.score * 10_000) / 10_000 }));
  ranked = await reranked(query, ranked, scope.signal);
  return fillWithFirstPages(capPerDocument(ranked, limit), scope, limit);
}

/** The query's embedding, or null (logged) when the provider fails or is too slow. */
async function queryVector(query: string, signal?: AbortSignal): Promise<Float32Array | null> {
  const timeout = AbortSignal.timeout(QUERY_EMBED_TIMEOUT_MS);
  const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
  try {
    // A provider that ignores the signal is still not waited for past the time-out.
    return await Promise.race([
      embedQuery(query, both),
      new Promise<never>((_, reject) => both.addEventListener("abort", () => reject(both.reason), { once: true })),
    ]);
  } catch (err) {
    warnEvery("embed", "query embedding failed, keyword retrieval only", { error: timeout.aborted ? `timed out after ${QUERY_EMBED_TIMEOUT_MS} ms` : String((err as Error)?.message ?? err) });
    return null;
  }
}

/** The candidates reordered by the configured reranker (the first top_n of them), or as they are. */
async function reranked(query: string, ranked: RetrievedPage[], signal?: AbortSignal): Promise<RetrievedPage[]> {
  const cfg = rerankConfig();
  if (!cfg || ranked.length < 2) return ranked;
  const head = ranked.slice(0, cfg.top_n);
  try {
    const scores = await rerank(cfg, query, head.map((p) => `${p.title}\n${p.text}`), signal);
    const placed = new Set(scores.map((s) => s.index));
    // Candidates the service left out keep their fused order after those it scored.
    return [
      ...scores.map((s) => ({ ...head[s.index]!, score: Math.round(s.score * 10_000) / 10_000 })),
      ...head.filter((_, i) => !placed.has(i)),
      ...ranked.slice(cfg.top_n),
    ];
  } catch (err) {
    warnEvery("rerank", "rerank failed, fused order kept", { error: String((err as Error)?.message ?? err) });
    return ranked;
  }
}

// A provider that is down fails every question: one log line a minute says so without flooding.
const lastWarned = new Map<string, number>();
function warnEvery(kind: string, msg: string, fields: Record<string, unknown>) {
  const now = Date.now();
  if (now - (lastWarned.get(kind) ?? 0) < 60_000) return;
  lastWarned.set(kind, now);
  log("warn", msg, fields);
}
