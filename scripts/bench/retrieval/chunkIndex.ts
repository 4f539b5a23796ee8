// BM25 over chunks instead of pages, for comparison only: every page cut by the embedding chunker
// (the same windows vectors are made from), indexed with the site's segmentation in a temp FTS5
// table, searched with the same query words, and mapped back to pages (a page at its best chunk).
import { getSqlite } from "#db/client.ts";
import { KEYWORD_TUNING, keywordMatch, type KeywordTuning } from "#src/features/ai/retrieval/keyword.ts";
import { chunkPage } from "#src/features/embedding/chunker.ts";
import { PAGE_BITS } from "#src/features/search/indexer.ts";
import { indexText } from "#src/features/search/text.ts";

export interface ChunkHitPage { document_id: number; page: number; score: number }

/** (Re)builds the chunk table for every page in the database; answers how many chunks it holds. */
export function buildChunkIndex(size: number, overlap: number): number {
  const db = getSqlite();
  db.exec("DROP TABLE IF EXISTS bench_chunk_fts; DROP TABLE IF EXISTS bench_chunk");
  db.exec("CREATE VIRTUAL TABLE bench_chunk_fts USING fts5(body, content='', tokenize='unicode61 remove_diacritics 0')");
  db.exec("CREATE TABLE bench_chunk (id INTEGER PRIMARY KEY, document_id INTEGER NOT NULL, page INTEGER NOT NULL)");
  const pages = db.query<{ document_id: number; page: number; text: string }, []>("SELECT document_id, page, text FROM document_page WHERE page > 0 ORDER BY document_id, page").all();
  const row = db.query("INSERT INTO bench_chunk (document_id, page) VALUES (?, ?) RETURNING id");
  const fts = db.query("INSERT INTO bench_chunk_fts (rowid, body) VALUES (?, ?)");
  let n = 0;
  db.transaction(() => {
    for (const p of pages) {
      for (const c of chunkPage(p.text, { size, overlap })) {
        const body = indexText(c.text);
        if (!body) continue;
        const { id } = row.get(p.document_id, p.page) as { id: number };
        fts.run(id, body);
        n++;
      }
    }
  })();
  return n;
}

/** Pages ranked by their best chunk's BM25 plus the same share of the title row as page retrieval. */
export function chunkPages(query: string, limit: number, perDocument = 3, tuning: KeywordTuning = KEYWORD_TUNING): ChunkHitPage[] {
  const match = keywordMatch(query, tuning);
  if (!match) return [];
  const rows = getSqlite().query<ChunkHitPage, Record<string, string | number>>(`
    WITH m AS MATERIALIZED (SELECT rowid AS id, bm25(bench_chunk_fts) AS s FROM bench_chunk_fts WHERE bench_chunk_fts MATCH :match),
    r AS MATERIALIZED (SELECT rowid >> ${PAGE_BITS} AS doc, rowid & ${2 ** PAGE_BITS - 1} AS page, bm25(search_fts, 10.0, 5.0, 2.0, 1.0) AS s FROM search_fts WHERE search_fts MATCH :match),
    t AS (SELECT doc, s FROM r WHERE page = 0)
    SELECT c.document_id, c.page, max(-(m.s + :boost * coalesce(t.s, 0))) AS score
    FROM m JOIN bench_chunk c ON c.id = m.id LEFT JOIN t ON t.doc = c.document_id
    GROUP BY c.document_id, c.page ORDER BY score DESC LIMIT :take`).all({ match, boost: tuning.titleBoost, take: limit * 4 });
  const per = new Map<number, number>();
  const out: ChunkHitPage[] = [];
  for (const r of rows) {
    const k = per.get(r.document_id) ?? 0;
    if (k >= perDocument) continue;
    per.set(r.document_id, k + 1);
    out.push(r);
    if (out.length === limit) break;
  }
  return out;
}
