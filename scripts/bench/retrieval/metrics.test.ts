import { describe, expect, test } from "bun:test";
import { ndcgAt, recallAt, reciprocalRank, score } from "./metrics.ts";

const rel = new Set(["a#1", "a#2"]);

describe("retrieval metrics", () => {
  test("recall@k counts the relevant pages among the first k", () => {
    expect(recallAt(["a#1", "x#1", "a#2"], rel, 5)).toBe(1);
    expect(recallAt(["a#1", "x#1", "a#2"], rel, 2)).toBe(0.5);
    expect(recallAt([], rel, 5)).toBe(0);
  });

  test("reciprocal rank of the first relevant page", () => {
    expect(reciprocalRank(["x#1", "a#2"], rel)).toBe(0.5);
    expect(reciprocalRank(["x#1"], rel)).toBe(0);
  });

  test("nDCG is 1 for a perfect order and lower when relevant pages sink", () => {
    expect(ndcgAt(["a#1", "a#2", "x#1"], rel, 10)).toBeCloseTo(1, 12);
    const late = ndcgAt(["x#1", "a#1", "a#2"], rel, 10);
    expect(late).toBeGreaterThan(0);
    expect(late).toBeLessThan(1);
    expect(late).toBeCloseTo((1 / Math.log2(3) + 1 / Math.log2(4)) / (1 + 1 / Math.log2(3)), 12);
  });

  test("score averages over questions", () => {
    const s = score([{ ranked: ["a#1"], relevant: new Set(["a#1"]) }, { ranked: ["b#1"], relevant: new Set(["a#1"]) }]);
    expect(s).toMatchObject({ recall5: 0.5, mrr: 0.5, n: 2 });
    expect(s.ndcg10).toBeCloseTo(0.5, 12);
  });
});
