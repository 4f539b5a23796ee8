// Text that reads like a library's: words sampled from jieba's dictionary by frequency (Zipf-like,
// as real Chinese text is: common words everywhere, most words rare), seeded so every run is the
// same. Shared by the benches that need a filler library (chat.ts, retrieval/filler.ts).
import { readFileSync } from "node:fs";
import { join } from "node:path";

export interface ZipfText {
  /** a seeded integer in [0, n) */
  rnd: (n: number) => number;
  /** one dictionary word, drawn by frequency */
  word: () => string;
  /** a page of 160 words with punctuation */
  pageText: () => string;
}

export function zipfText(seed = 42): ZipfText {
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const words = readFileSync(join(import.meta.dir, "../../node_modules/@node-rs/jieba/dict.txt"), "utf8").split("\n")
    .map((l) => l.split(" ")).filter((p) => p.length >= 2 && /^\p{Script=Han}{2,4}$/u.test(p[0]!)).map((p) => ({ w: p[0]!, f: Number(p[1]) }))
    .sort((a, b) => b.f - a.f).slice(0, 60_000);
  const cumulative: number[] = [];
  words.reduce((sum, x, i) => (cumulative[i] = sum + x.f), 0);
  const total = cumulative.at(-1)!;
  const word = () => {
    const r = (rnd(2 ** 30) / 2 ** 30) * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < r) lo = mid + 1;
      else hi = mid;
    }
    return words[lo]!.w;
  };
  const PUNCT = ["，", "，", "，", "。", "、", "；"];
  const pageText = () => Array.from({ length: 160 }, (_, i) => word() + (i % 6 === 5 ? PUNCT[rnd(PUNCT.length)] : "")).join("") + "。";
  return { rnd, word, pageText };
}
