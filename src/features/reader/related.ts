import { and, desc, eq, ne } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { document, documentCategory } from "#db/schema/documents.ts";
import { visibleDocument } from "#src/features/documents/status.ts";
import { contentVersion } from "#src/lib/contentVersion.ts";
import { segmentWords } from "#src/lib/segmenter.ts";

export interface RelatedDoc {
  id: number; uuid: string; title: string; ext: string; pages: number; size: number; score: number;
  view_count: number; download_count: number; favorite_count: number; price: number; cover: string; created_at: number;
}

export const RELATED_LIMIT = 8;
const CANDIDATES = 1000;
const CACHE_MAX = 2000;
const cache = new Map<number, { version: number; items: RelatedDoc[] }>();

const SPLIT = /[\s,，;；、|/]+/;

/** The document's own keywords column first, then the words of its title. */
export function keywordsOf(d: { title: string; keywords: string }): string[] {
  const words = [...d.keywords.split(SPLIT), ...segmentWords(d.title)].map((w) => w.trim().toLowerCase()).filter((w) => w.length >= 2 && !/^\d+$/.test(w));
  return [...new Set(words)].slice(0, 24);
}

const columns = {
  id: document.id, uuid: document.uuid, title: document.title, keywords: document.keywords, ext: document.ext, pages: document.pages, size: document.size,
  score: document.score, view_count: document.view_count, download_count: document.download_count, favorite_count: document.favorite_count,
  price: document.price, cover: document.cover, created_at: document.created_at,
};

/**
 * Other visible documents of the same top category whose titles or keywords share this document's
 * keywords, best match first, then the most read of the category to fill the list. Cached per
 * document until content changes.
 */
export function relatedDocuments(d: { id: number; title: string; keywords: string }, topCategoryId: number): RelatedDoc[] {
  const hit = cache.get(d.id);
  if (hit && hit.version === contentVersion()) return hit.items;
  const version = contentVersion();
  const words = keywordsOf(d);
  const db = getDb();
  const where = and(visibleDocument(), ne(document.id, d.id), topCategoryId ? eq(documentCategory.category_id, topCategoryId) : undefined);
  const rows = topCategoryId
    ? db.select(columns).from(document).innerJoin(documentCategory, eq(documentCategory.document_id, document.id)).where(where).orderBy(desc(document.id)).limit(CANDIDATES).all()
    : db.select(columns).from(document).where(where).orderBy(desc(document.id)).limit(CANDIDATES).all();
  const scored = rows.map((r) => {
    const title = r.title.toLowerCase();
    const kw = r.keywords.toLowerCase();
    let s = 0;
    for (const w of words) s += (title.includes(w) ? 3 : 0) + (kw.includes(w) ? 2 : 0);
    return { r, s };
  });
  const matched = scored.filter((x) => x.s > 0).sort((a, b) => b.s - a.s || b.r.view_count - a.r.view_count).map((x) => x.r);
  const fill = scored.filter((x) => x.s === 0).map((x) => x.r).sort((a, b) => b.view_count - a.view_count);
  const items = [...matched, ...fill].slice(0, RELATED_LIMIT).map(({ keywords: _k, ...r }) => r);
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  cache.set(d.id, { version, items });
  return items;
}

export const clearRelatedCache = () => cache.clear();
