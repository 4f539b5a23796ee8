import { describe, expect, test } from "bun:test";
import { RRF_K, reciprocalRankFusion } from "./fusion.ts";

const keys = (lists: string[][], k?: number) => reciprocalRankFusion(lists, k).map((f) => f.key);

describe("reciprocal-rank fusion", () => {
  test("a key both lists rank beats keys only one list ranks first", () => {
    // b is second in both lists: 2/(60+2) > 1/(60+1), so agreement wins over one first place.
    expect(keys([["a", "b", "c"], ["d", "b", "e"]])).toEqual(["b", "a", "d", "c", "e"]);
  });

  test("scores are the sum of 1/(k + rank) over the lists", () => {
    const [b] = reciprocalRankFusion([["a", "b"], ["b"]]);
    expect(b!.key).toBe("b");
    expect(b!.score).toBeCloseTo(1 / (RRF_K + 2) + 1 / (RRF_K + 1), 12);
    expect(b!.best).toBe(1);
  });

  test("one list alone keeps its order", () => {
    expect(keys([["x", "y", "z"]])).toEqual(["x", "y", "z"]);
    expect(keys([[], ["x", "y", "z"]])).toEqual(["x", "y", "z"]);
  });

  test("ties: better single rank first, then the earlier list", () => {
    // a and c: first in one list each → tie on score and rank; a comes from the first list.
    expect(keys([["a"], ["c"]])).toEqual(["a", "c"]);
    expect(keys([["c"], ["a"]])).toEqual(["c", "a"]);
  });

  test("a key repeated in one list counts once, at its first place", () => {
    const fused = reciprocalRankFusion([["a", "a", "b"]]);
    expect(fused.map((f) => f.key)).toEqual(["a", "b"]);
    expect(fused[1]!.score).toBeCloseTo(1 / (RRF_K + 2), 12);
  });

  test("a small k lets first places dominate; a large one rewards agreement deeper down", () => {
    const lists = [["a", "b", "c", "d"], ["e", "f", "g", "d"]];
    // d is 4th in both: with k = 0, 1/1 (a) > 2/4 (d); with k = 60, 2/64 > 1/61.
    expect(keys(lists, 0)[0]).toBe("a");
    expect(keys(lists, 60)[0]).toBe("d");
  });

  test("empty input and a bad k", () => {
    expect(reciprocalRankFusion([])).toEqual([]);
    expect(() => reciprocalRankFusion([["a"]], -1)).toThrow(RangeError);
    expect(() => reciprocalRankFusion([["a"]], Number.NaN)).toThrow(RangeError);
  });
});
