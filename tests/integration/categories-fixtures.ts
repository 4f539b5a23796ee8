// Rows for the category tests, written straight to the database: categories, and documents with
// their document_category chain (leaf + ancestors) as the upload feature records them.
import { getSqlite } from "#db/client.ts";
import { refreshCategoryCounts } from "#src/features/documents/counts.ts";
import { bumpContentVersion } from "#src/lib/contentVersion.ts";

export function addCategory(title: string, parent = 0, o: { type?: number; enable?: boolean; sort?: number; description?: string; show_description?: boolean } = {}): number {
  const row = getSqlite().query("INSERT INTO category (title, parent_id, type, enable, sort, description, show_description) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id")
    .get(title, parent, o.type ?? 0, o.enable === false ? 0 : 1, o.sort ?? 0, o.description ?? "", o.show_description ? 1 : 0) as { id: number };
  bumpContentVersion();
  return row.id;
}

export interface DocOpts {
  ext?: string; status?: number; deleted?: boolean; views?: number; downloads?: number; score?: number;
  createdAt?: number; recommendAt?: number | null; price?: number; userId?: number;
}

let seq = 0;
const chain = (leaf: number): number[] => {
  const ids: number[] = [];
  const q = getSqlite().query("SELECT parent_id FROM category WHERE id = ?");
  for (let cur = leaf; cur && ids.length < 100; cur = (q.get(cur) as { parent_id: number } | null)?.parent_id ?? 0) ids.push(cur);
  return ids;
};

/** A document in `category` (its leaf); visible unless status/deleted say otherwise. Answers id and uuid. */
export function addDocument(title: string, category: number, o: DocOpts = {}): { id: number; uuid: string } {
  const sqlite = getSqlite();
  seq++;
  const uuid = `doc-${seq}-${crypto.randomUUID().slice(0, 8)}`;
  const now = o.createdAt ?? Date.now() - 1_000_000 + seq;
  const { id } = sqlite.query(`INSERT INTO document (uuid, title, user_id, category_id, hash, ext, pages, status, deleted_at, view_count, download_count, score, score_count,
      is_recommend, recommend_at, price, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 3, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`)
    .get(uuid, title, o.userId ?? 1, category, seq.toString(16).padStart(32, "0"), o.ext ?? "pdf", o.status ?? 2, o.deleted ? Date.now() : null,
      o.views ?? 0, o.downloads ?? 0, o.score ?? 0, o.score ? 1 : 0, o.recommendAt ? 1 : 0, o.recommendAt ?? null, o.price ?? 0, now, now) as { id: number };
  const ins = sqlite.query("INSERT INTO document_category (document_id, category_id) VALUES (?, ?)");
  for (const c of chain(category)) ins.run(id, c);
  return { id, uuid };
}

/** After adding documents: doc_count as the documents feature keeps it, and caches invalidated. */
export function refreshCounts() {
  refreshCategoryCounts();
  bumpContentVersion();
}
