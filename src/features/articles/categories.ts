import { asc, eq } from "drizzle-orm";
import { getDb, getSqlite } from "#db/client.ts";
import { category } from "#db/schema/site.ts";
import { chainOf, subtreeIds } from "#src/features/categories/tree.ts";
import { contentVersion } from "#src/lib/contentVersion.ts";
import { badRequest } from "#src/lib/errors.ts";

// Article categories are the type-1 rows of the category table (spec §3). An article stores its
// leaf only; chains, titles and subtrees come from this snapshot, rebuilt when content changes
// (every category write bumps the content version).

interface Row { id: number; parent_id: number; title: string; enable: boolean }
interface Snapshot { rows: Row[]; byId: Map<number, Row>; parentOf: Map<number, number> }

let memo: { version: number; snap: Snapshot } | null = null;

function snapshot(): Snapshot {
  if (memo?.version === contentVersion()) return memo.snap;
  const rows = getDb().select({ id: category.id, parent_id: category.parent_id, title: category.title, enable: category.enable })
    .from(category).where(eq(category.type, 1)).orderBy(asc(category.sort), asc(category.id)).all();
  const snap = { rows, byId: new Map(rows.map((r) => [r.id, r])), parentOf: new Map(rows.map((r) => [r.id, r.parent_id])) };
  memo = { version: contentVersion(), snap };
  return snap;
}

export const ARTICLE_CATEGORY_UNUSABLE = "文章分类不存在或已禁用";

/**
 * The leaf an article may be filed under, from `category_id` as sent: a root → leaf path (the
 * cascader's value) or the leaf alone. Every id must lie on the leaf's chain, which must reach a
 * root through enabled type-1 categories. An empty list files the article under no category (0).
 */
export function usableLeaf(ids: number[]): number {
  if (!ids.length) return 0;
  const s = snapshot();
  const leaf = ids.at(-1)!;
  const chain = chainOf(s.parentOf, leaf);
  const complete = chain.length > 0 && s.byId.get(chain[0]!)!.parent_id === 0;
  if (!complete || chain.some((c) => !s.byId.get(c)!.enable) || ids.some((id) => !chain.includes(id))) throw badRequest(ARTICLE_CATEGORY_UNUSABLE);
  return leaf;
}

/** Root → leaf ids of a category (empty for 0 or a category gone since). */
export const chainIds = (leaf: number): number[] => (leaf ? chainOf(snapshot().parentOf, leaf) : []);

/** Root → leaf titles with ids. */
export const chainPath = (leaf: number) => chainIds(leaf).map((id) => ({ id, title: snapshot().byId.get(id)!.title }));

export const categoryTitle = (id: number) => snapshot().byId.get(id)?.title ?? "";

/** A category and all below it: what a category filter matches. */
export const subtreeOf = (id: number): number[] => subtreeIds(snapshot().rows, id);

export interface CategoryOption { value: number; label: string; depth: number }

/** Depth-first options for selects; `all` also lists disabled categories (admin). */
export function articleCategoryOptions(all = false): CategoryOption[] {
  const rows = snapshot().rows.filter((r) => all || r.enable);
  const out: CategoryOption[] = [];
  const walk = (parent: number, depth: number, seen: Set<number>) => {
    for (const r of rows) {
      if (r.parent_id !== parent || seen.has(r.id)) continue;
      seen.add(r.id);
      out.push({ value: r.id, label: r.enable ? r.title : `${r.title}（已禁用）`, depth });
      walk(r.id, depth + 1, seen);
    }
  };
  walk(0, 0, new Set());
  return out;
}

/**
 * category.doc_count of article categories = approved articles outside the recycle bin in each
 * category's subtree. Recomputed, never incremented, so no missed event leaves it wrong; given the
 * leaves an article write touched, only their chains are recounted.
 */
export function refreshArticleCategoryCounts(leaves?: number[]) {
  if (!leaves) return recountArticleCategories(null);
  recountArticleCategories(leaves.flatMap(chainIds));
}

/**
 * Recounts exactly these article categories (all when null), read from the table rather than the
 * snapshot: a category that just moved has left the chains the snapshot still knows. UNION (not
 * UNION ALL) keeps a cycle in bad data from recursing forever.
 */
export function recountArticleCategories(categoryIds: number[] | null) {
  const ids = categoryIds && [...new Set(categoryIds.filter((n) => Number.isInteger(n) && n > 0))];
  if (ids && !ids.length) return;
  const only = ids ? ` AND id IN (${ids.map(() => "?").join(",")})` : "";
  getSqlite().run(`WITH RECURSIVE sub(root, id) AS (
      SELECT id, id FROM category WHERE type = 1${only}
      UNION SELECT sub.root, c.id FROM category c JOIN sub ON c.parent_id = sub.id WHERE c.type = 1)
    UPDATE category SET doc_count = (
      SELECT count(*) FROM sub JOIN article a ON a.category_id = sub.id
      WHERE sub.root = category.id AND a.status = 1 AND a.deleted_at IS NULL)
    WHERE type = 1${only}`, ids ? [...ids, ...ids] : []);
}
