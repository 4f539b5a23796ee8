import { asc, eq, inArray } from "drizzle-orm";
import { getDb, type Db } from "#db/client.ts";
import { documentCategory } from "#db/schema/documents.ts";
import { category } from "#db/schema/site.ts";
import { chainOf } from "#src/features/categories/tree.ts";
import { badRequest } from "#src/lib/errors.ts";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type Row = { id: number; parent_id: number; title: string; enable: boolean };

/** Document categories (type 0) in display order; a site has at most a few hundred. */
const docCategories = (): Row[] =>
  getDb().select({ id: category.id, parent_id: category.parent_id, title: category.title, enable: category.enable })
    .from(category).where(eq(category.type, 0)).orderBy(asc(category.sort), asc(category.id)).all();

export const CATEGORY_UNUSABLE = "文档分类不存在或已禁用";

/**
 * The chain root → leaf of a category documents may be filed under: a type-0 category that is
 * enabled and whose ancestors are all enabled (a disabled parent hides its whole subtree).
 */
export function usableChain(id: number): number[] {
  const rows = docCategories();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const chain = chainOf(new Map(rows.map((r) => [r.id, r.parent_id])), id);
  const complete = chain.length > 0 && chain.at(-1) === id && byId.get(chain[0]!)!.parent_id === 0;
  if (!complete || chain.some((c) => !byId.get(c)!.enable)) throw badRequest(CATEGORY_UNUSABLE);
  return chain;
}

/** Replaces a document's document_category rows with its leaf and all ancestors. */
export function writeChain(documentId: number, chain: number[], tx: Tx) {
  tx.delete(documentCategory).where(eq(documentCategory.document_id, documentId)).run();
  for (const c of chain) tx.insert(documentCategory).values({ document_id: documentId, category_id: c }).onConflictDoNothing().run();
}

export const chainsOf = (documentIds: number[]) =>
  documentIds.length ? getDb().select().from(documentCategory).where(inArray(documentCategory.document_id, documentIds)).all().map((r) => r.category_id) : [];

export interface CategoryOption { value: number; label: string; depth: number }

/** Depth-first options for a tree select; `all` also lists disabled categories (admin). */
export function categoryOptions(all = false): CategoryOption[] {
  const rows = docCategories().filter((r) => all || r.enable);
  const out: CategoryOption[] = [];
  const walk = (parent: number, depth: number, seen: Set<number>) => {
    for (const r of rows) {
      if (r.parent_id !== parent || seen.has(r.id)) continue;
      seen.add(r.id);
      out.push({ value: r.id, label: r.enable ? r.title : `${r.title}（已禁用）`, depth });
      walk(r.id, depth + 1, seen);
    }
  };
  // Starting from the roots leaves out orphans (parent gone): documents cannot be filed under them.
  walk(0, 0, new Set());
  return out;
}

/** id → title for the given categories. */
export function categoryTitles(ids: number[]): Map<number, string> {
  const list = [...new Set(ids.filter((n) => n > 0))];
  if (!list.length) return new Map();
  return new Map(getDb().select({ id: category.id, title: category.title }).from(category).where(inArray(category.id, list)).all().map((r) => [r.id, r.title]));
}

/** Breadcrumb of a category: root → leaf titles with ids. */
export function categoryPath(id: number): { id: number; title: string }[] {
  const rows = docCategories();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return chainOf(new Map(rows.map((r) => [r.id, r.parent_id])), id).map((c) => ({ id: c, title: byId.get(c)!.title }));
}
