// Reciprocal-rank fusion (Cormack, Clarke & Büttcher 2009): each list votes 1 / (k + rank) for
// its items. Only ranks count, never raw scores, so BM25's unbounded scores and the vectors'
// distances need no calibration against each other. k = 60 is the paper's value; the retrieval
// harness (scripts/bench/retrieval.ts) found no better one on our labelled set, see the README.

export const RRF_K = 60;

export interface Fused { key: string; score: number; /** best (1-based) rank the item had in any list */ best: number }

/**
 * Fuses ranked lists of keys (best first; a key repeated within a list counts at its first
 * place). Answers every key once, highest fused score first; ties go to the key with the better
 * single rank, then to the earlier list, so the result is the same on every run.
 */
export function reciprocalRankFusion(lists: readonly (readonly string[])[], k = RRF_K): Fused[] {
  if (!(k >= 0)) throw new RangeError("k must be a non-negative number");
  const out = new Map<string, Fused & { order: number }>();
  let order = 0;
  for (const list of lists) {
    const seen = new Set<string>();
    let rank = 0;
    for (const key of list) {
      if (seen.has(key)) continue;
      seen.add(key);
      rank++;
      const f = out.get(key);
      if (f) {
        f.score += 1 / (k + rank);
        f.best = Math.min(f.best, rank);
      } else out.set(key, { key, score: 1 / (k + rank), best: rank, order: order++ });
    }
  }
  return [...out.values()]
    .sort((a, b) => b.score - a.score || a.best - b.best || a.order - b.order)
    .map(({ key, score, best }) => ({ key, score, best }));
}
