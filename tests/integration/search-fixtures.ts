// Documents for the search tests, written straight into the tables the way a finished conversion
// leaves them (status, pages, per-page text) and indexed with indexDocument().
import { getSqlite } from "#db/client.ts";
import { indexDocument } from "#src/features/search/indexer.ts";

export interface DocInput {
  title: string;
  pages?: string[];
  keywords?: string;
  description?: string;
  status?: number;
  ext?: string;
  downloads?: number;
  userId?: number;
  categoryIds?: number[];
  createdAt?: number;
  deleted?: boolean;
  /** pages rendered for reading (the preview limit); all of them unless given */
  preview?: number;
}

let n = 0;

/** Inserts a document (converted unless told otherwise) and indexes it; answers its id and uuid. */
export function addDoc(d: DocInput): { id: number; uuid: string } {
  const db = getSqlite();
  const uuid = crypto.randomUUID().replaceAll("-", "");
  const pages = d.pages ?? [];
  const row = db.query(`INSERT INTO document (uuid, title, keywords, description, user_id, category_id, hash, ext, size, pages, preview, status, download_count, created_at, deleted_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`).get(
    uuid, d.title, d.keywords ?? "", d.description ?? "", d.userId ?? 1, d.categoryIds?.at(-1) ?? 0, (++n, crypto.randomUUID().replaceAll("-", "")), d.ext ?? "pdf", 1024 * (n + 1),
    pages.length, d.preview ?? pages.length, d.status ?? 2, d.downloads ?? 0, d.createdAt ?? Date.now() - n * 1000, d.deleted ? Date.now() : null,
  ) as { id: number };
  pages.forEach((text, i) => db.query("INSERT INTO document_page (document_id, page, text) VALUES (?, ?, ?)").run(row.id, i + 1, text));
  for (const c of d.categoryIds ?? []) db.query("INSERT INTO document_category (document_id, category_id) VALUES (?, ?)").run(row.id, c);
  indexDocument(row.id);
  return { id: row.id, uuid };
}

/** Unrelated documents, so bm25's word statistics look like a real library's, not a three-row one. */
export function addFiller(count = 30) {
  const topics = ["天气预报", "烹饪技巧", "旅游攻略", "体育新闻", "园艺知识", "汽车保养", "摄影入门", "音乐欣赏", "书法练习", "家居装修"];
  for (let i = 0; i < count; i++) {
    const t = topics[i % topics.length]!;
    addDoc({ title: `${t}手册第${i + 1}册`, pages: [`${t}的基本方法与注意事项。第${i}部分。`, `更多关于${t}的内容。`] });
  }
}

export const uuidsOf = (body: { document: { uuid: string }[] }) => body.document.map((d) => d.uuid);
