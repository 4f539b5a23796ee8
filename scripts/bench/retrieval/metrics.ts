// Ranking metrics of the retrieval harness, over pages named "file#page". Binary relevance: a
// page either answers the question or not (the labelled set marks no degrees).

/** Share of the relevant pages found among the first k. */
export function recallAt(ranked: string[], relevant: Set<string>, k: number): number {
  if (!relevant.size) return 0;
  return ranked.slice(0, k).filter((p) => relevant.has(p)).length / relevant.size;
}

/** 1 / rank of the first relevant page (0 when none is ranked). */
export function reciprocalRank(ranked: string[], relevant: Set<string>): number {
  const i = ranked.findIndex((p) => relevant.has(p));
  return i < 0 ? 0 : 1 / (i + 1);
}

/** Normalised discounted cumulative gain at k: 1 when the relevant pages fill the first places. */
export function ndcgAt(ranked: string[], relevant: Set<string>, k: number): number {
  const dcg = ranked.slice(0, k).reduce((sum, p, i) => sum + (relevant.has(p) ? 1 / Math.log2(i + 2) : 0), 0);
  let ideal = 0;
  for (let i = 0; i < Math.min(k, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
  return ideal ? dcg / ideal : 0;
}

export interface Scores { recall5: number; mrr: number; ndcg10: number; n: number }

/** Mean of the three metrics over questions (each: its ranked pages and its relevant set). */
export function score(runs: { ranked: string[]; relevant: Set<string> }[]): Scores {
  const n = runs.length || 1;
  const sum = (f: (r: (typeof runs)[number]) => number) => runs.reduce((s, r) => s + f(r), 0) / n;
  return {
    recall5: sum((r) => recallAt(r.ranked, r.relevant, 5)),
    mrr: sum((r) => reciprocalRank(r.ranked, r.relevant)),
    ndcg10: sum((r) => ndcgAt(r.ranked, r.relevant, 10)),
    n: runs.length,
  };
}
