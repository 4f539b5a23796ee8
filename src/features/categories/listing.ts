import { and, desc, eq, inArray, notInArray, sql, type SQL } from "drizzle-orm";
import { getDb, getSqlite } from "#db/client.ts";
import { document, documentCategory } from "#db/schema/documents.ts";
import { visibleDocument } from "#src/features/documents/status.ts";
import { contentVersion } from "#src/lib/contentVersion.ts";
import type { DocumentCardData } from "#src/views/components/DocumentCard.tsx";

/** The columns DocumentCard shows: select these for any list of document cards. */
export const DOCUMENT_CARD_COLUMNS = {
  uuid: document.uuid, title: document.title, ext: document.ext, pages: document.pages, view_count: document.view_count,
  download_count: document.download_count, score: document.score, price: document.price, cover: document.cover,
  description: document.description, created_at: document.created_at,
};

export const SORTS = {
  latest: { label: "最新上传", order: [desc(document.created_at), desc(document.id)] },
  download: { label: "最多下载", order: [desc(document.download_count), desc(document.id)] },
  view: { label: "最多浏览", order: [desc(document.view_count), desc(document.id)] },
  score: { label: "最高评分", order: [desc(document.score), desc(document.score_count), desc(document.id)] },
} as const;
export type SortKey = keyof typeof SORTS;

/** File-type filter of the category page: each key stands for these extensions. */
export const EXT_FILTERS = {
  pdf: { label: "PDF", exts: ["pdf"] },
  doc: { label: "Word", exts: ["doc", "docx", "wps", "rtf", "odt"] },
  ppt: { label: "PPT", exts: ["ppt", "pptx", "odp"] },
  xls: { label: "Excel", exts: ["xls", "xlsx", "ods", "csv"] },
  txt: { label: "TXT", exts: ["txt", "md"] },
  other: { label: "其他", exts: [] as string[] },
} as const;
export type ExtKey = keyof typeof EXT_FILTERS;
const KNOWN_EXTS = Object.values(EXT_FILTERS).flatMap((f) => f.exts);

function extCondition(ext: ExtKey | undefined): SQL | undefined {
  if (!ext) return undefined;
  return ext === "other" ? notInArray(document.ext, KNOWN_EXTS) : inArray(document.ext, [...EXT_FILTERS[ext].exts]);
}

export const PAGE_SIZE = 20;

/** Visible documents on the site, from the top-level counters (no scan of the document table). */
const visibleTotal = () => (getSqlite().query("SELECT coalesce(sum(doc_count), 0) AS n FROM category WHERE parent_id = 0 AND type = 0").get() as { n: number }).n;

/**
 * One page of visible documents in a category's subtree (document_category holds the ancestors).
 * `docCount` (category.doc_count) stands in for a count(*) when no file type is picked. Plans by
 * size: a large category's newest documents come from walking the created_at index and probing
 * document_category's primary key (stops after one page); a small one is joined and sorted.
 * Download/view/score orders have no index on document, so they always sort the category's rows.
 */
export function categoryDocuments(categoryId: number, opts: { sort: SortKey; ext?: ExtKey; page: number; docCount?: number }): { total: number; docs: DocumentCardData[] } {
  const db = getDb();
  const offset = (opts.page - 1) * PAGE_SIZE;
  const joined = () => db.select(DOCUMENT_CARD_COLUMNS).from(documentCategory).innerJoin(document, eq(document.id, documentCategory.document_id))
    .where(and(eq(documentCategory.category_id, categoryId), visibleDocument(), extCondition(opts.ext)));
  const counted = opts.ext || opts.docCount === undefined
    ? db.select({ n: sql<number>`count(*)` }).from(documentCategory).innerJoin(document, eq(document.id, documentCategory.document_id))
      .where(and(eq(documentCategory.category_id, categoryId), visibleDocument(), extCondition(opts.ext))).get()!.n
    : opts.docCount;
  const dense = opts.sort === "latest" && (opts.docCount ?? counted) * 50 >= visibleTotal();
  const docs = dense
    ? db.select(DOCUMENT_CARD_COLUMNS).from(document)
      .where(and(visibleDocument(), extCondition(opts.ext), sql`EXISTS (SELECT 1 FROM document_category dc WHERE dc.document_id = ${document.id} AND dc.category_id = ${categoryId})`))
      .orderBy(...SORTS.latest.order).limit(PAGE_SIZE).offset(offset).all()
    : joined().orderBy(...SORTS[opts.sort].order).limit(PAGE_SIZE).offset(offset).all();
  // A counter that lags behind (it is refreshed after writes) must not hide what the page shows.
  return { total: Math.max(counted, docs.length ? offset + docs.length : 0), docs };
}

const HOT_TTL_MS = 10 * 60_000;
const hotMemo = new Map<string, { at: number; version: number; docs: DocumentCardData[] }>();

/**
 * Most viewed visible documents of a category subtree (the category page's sidebar). Sorting a
 * large category by views costs a scan of its rows, so the answer is kept up to ten minutes while
 * the content version stays (a hidden or deleted document bumps it, so it never lingers here).
 */
export function hotDocuments(categoryId: number, limit = 8, now = Date.now()): DocumentCardData[] {
  const key = `${categoryId}:${limit}`;
  const hit = hotMemo.get(key);
  if (hit && hit.version === contentVersion() && now - hit.at < HOT_TTL_MS) return hit.docs;
  const docs = getDb().select(DOCUMENT_CARD_COLUMNS).from(documentCategory).innerJoin(document, eq(document.id, documentCategory.document_id))
    .where(and(eq(documentCategory.category_id, categoryId), visibleDocument())).orderBy(...SORTS.view.order).limit(limit).all();
  if (hotMemo.size >= 1000) hotMemo.clear();
  hotMemo.set(key, { at: now, version: contentVersion(), docs });
  return docs;
}

/** Recommended documents, newest recommendation first (index document_recommend). */
export function recommendedDocuments(limit = 8): DocumentCardData[] {
  return getDb().select(DOCUMENT_CARD_COLUMNS).from(document).where(and(eq(document.is_recommend, true), visibleDocument()))
    .orderBy(desc(document.recommend_at), desc(document.id)).limit(limit).all();
}

/** Newest visible documents (index document_status: status, deleted_at, created_at). */
export function latestDocuments(limit = 12): DocumentCardData[] {
  return getDb().select(DOCUMENT_CARD_COLUMNS).from(document).where(visibleDocument()).orderBy(desc(document.created_at), desc(document.id)).limit(limit).all();
}

/**
 * The newest visible documents of several category subtrees in ONE statement: a UNION ALL of
 * per-category subqueries, each walking the created_at index and probing document_category's
 * primary key, stopping after `limit` rows.
 */
export function blockDocuments(categoryIds: number[], limit = 8): Map<number, DocumentCardData[]> {
  const out = new Map<number, DocumentCardData[]>(categoryIds.map((id) => [id, []]));
  if (!categoryIds.length) return out;
  const cols = "d.uuid, d.title, d.ext, d.pages, d.view_count, d.download_count, d.score, d.price, d.cover, d.description, d.created_at";
  const one = `SELECT * FROM (SELECT ? AS block, ${cols} FROM document d
    WHERE d.status = 2 AND d.deleted_at IS NULL
      AND EXISTS (SELECT 1 FROM document_category dc WHERE dc.document_id = d.id AND dc.category_id = ?)
    ORDER BY d.created_at DESC, d.id DESC LIMIT ?)`;
  const stmt = getSqlite().prepare(categoryIds.map(() => one).join("\nUNION ALL\n"));
  const rows = stmt.all(...categoryIds.flatMap((id) => [id, id, limit])) as (DocumentCardData & { block: number })[];
  for (const { block, ...doc } of rows) out.get(block)?.push(doc);
  return out;
}
