// Background documents so word statistics look like a library's, not eleven documents': text sampled
// from jieba's dictionary by word frequency (Zipf-like, as real Chinese text is: common words
// everywhere, most words rare), seeded so every run is the same. They answer no question; they
// only make common words common and add keyword matches that are noise (as in scripts/bench/chat.ts).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { getSqlite } from "#db/client.ts";
import { indexDocument } from "#src/features/search/indexer.ts";

export function addFiller(count: number, ownerId: number, pages = 3) {
  if (count <= 0) return;
  let seed = 42;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const words = readFileSync(join(import.meta.dir, "../../../node_modules/@node-rs/jieba/dict.txt"), "utf8").split("\n")
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
  const db = getSqlite();
  const doc = db.query<{ id: number }, [string, string, number, string, number, number]>(
    "INSERT INTO document (uuid, title, user_id, hash, ext, pages, preview, status) VALUES (?, ?, ?, ?, 'pdf', ?, ?, 2) RETURNING id");
  const page = db.query("INSERT INTO document_page (document_id, page, text) VALUES (?, ?, ?)");
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const title = `${word()}${word()}${["教程", "讲义", "手册", "笔记", "概论"][rnd(5)]}`;
      const id = doc.get(crypto.randomUUID().replaceAll("-", ""), title, ownerId, crypto.randomUUID().replaceAll("-", ""), pages, pages)!.id;
      for (let p = 1; p <= pages; p++) page.run(id, p, pageText());
      indexDocument(id);
    }
  })();
}
