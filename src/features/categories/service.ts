import { asc, count, eq, getTableColumns, inArray } from "drizzle-orm";
import { getDb, getSqlite } from "#db/client.ts";
import { article } from "#db/schema/articles.ts";
import { document, documentCategory } from "#db/schema/documents.ts";
import { category } from "#db/schema/site.ts";
import { crudService } from "#src/features/admin/crud/service.ts";
import { recountArticleCategories } from "#src/features/articles/categories.ts";
import { refreshCategoryCounts } from "#src/features/documents/counts.ts";
import { setting } from "#src/features/settings/service.ts";
import { bumpContentVersion } from "#src/lib/contentVersion.ts";
import { badRequest } from "#src/lib/errors.ts";
import type { CategoryListQuery } from "./schema.ts";
import { buildTree, chainOf, publicRows, subtreeIds, type Node } from "./tree.ts";

export type CategoryRow = typeof category.$inferSelect;
export const HAS_CHILDREN_OR_DOCUMENTS = "该分类下还有子分类或文档";

const allRows = (): CategoryRow[] => getDb().select().from(category).orderBy(asc(category.sort), asc(category.id)).all();

/** Parent rules: it exists, has the same type, and is neither the row itself nor below it. */
function checkRow(row: Record<string, unknown>, id: number | null) {
  const type = Number(row.type ?? 0);
  let parent = Number(row.parent_id ?? 0);
  const rows = getDb().select({ id: category.id, parent_id: category.parent_id, type: category.type }).from(category).all();
  if (id !== null) {
    const before = rows.find((r) => r.id === id);
    // Children and document chains assume one type per tree.
    if (before && before.type !== type && (rows.some((r) => r.parent_id === id) || hasDocuments([id]))) throw badRequest("该分类下还有子分类或文档，不能修改分类类型");
  }
  if (!parent) return;
  if (parent === id) throw badRequest("上级分类不能是自己");
  const byId = new Map(rows.map((r) => [r.id, r]));
  const p = byId.get(parent);
  if (!p) throw badRequest("上级分类不存在");
  if (p.type !== type) throw badRequest("上级分类必须是同一类型（文档或文章）的分类");
  // Bounded by the row count, so a cycle already in the data cannot loop forever.
  for (let steps = 0; parent && steps <= byId.size; steps++) {
    if (parent === id) throw badRequest("上级分类不能是自己的下级分类");
    parent = byId.get(parent)?.parent_id ?? 0;
  }
}

function hasDocuments(ids: number[]): boolean {
  if (!ids.length) return false;
  const db = getDb();
  const chained = db.select({ n: count() }).from(documentCategory).where(inArray(documentCategory.category_id, ids)).get()!.n;
  // Leaf ids too: a document whose chain was never written still points at its category.
  if (chained > 0 || db.select({ n: count() }).from(document).where(inArray(document.category_id, ids)).get()!.n > 0) return true;
  // Articles (recycle bin included) keep only their leaf category.
  return db.select({ n: count() }).from(article).where(inArray(article.category_id, ids)).get()!.n > 0;
}

const crud = crudService({
  table: category,
  defaults: { parent_id: 0, type: 0, icon: "", cover: "", sort: 0, enable: true, description: "", show_description: false },
  check: checkRow,
  beforeDelete(ids) {
    const gone = new Set(ids);
    const kids = getDb().select({ id: category.id }).from(category).where(inArray(category.parent_id, ids)).all();
    if (kids.some((k) => !gone.has(k.id)) || hasDocuments(ids)) throw badRequest(HAS_CHILDREN_OR_DOCUMENTS);
  },
});

/**
 * Rewrites document_category (leaf + ancestors) for documents whose leaf lies in `leafIds`, then
 * recounts `recount`. Needed when a category moves: its documents now sit under other ancestors.
 */
export function rebuildDocumentChains(leafIds: number[], recount: number[]) {
  const rows = getDb().select({ id: category.id, parent_id: category.parent_id }).from(category).all();
  const parentOf = new Map(rows.map((r) => [r.id, r.parent_id]));
  const sqlite = getSqlite();
  const docs = leafIds.length
    ? getDb().select({ id: document.id, category_id: document.category_id }).from(document).where(inArray(document.category_id, leafIds)).all()
    : [];
  const del = sqlite.prepare("DELETE FROM document_category WHERE document_id = ?");
  const ins = sqlite.prepare("INSERT OR IGNORE INTO document_category (document_id, category_id) VALUES (?, ?)");
  sqlite.transaction(() => {
    for (const d of docs) {
      del.run(d.id);
      for (const c of chainOf(parentOf, d.category_id)) ins.run(d.id, c);
    }
    refreshCategoryCounts(recount);
  })();
}

export const categoryService = {
  mustGet: crud.mustGet,
  create: (input: Record<string, unknown>) => crud.create(input) as unknown as CategoryRow,
  update(id: number, patch: Record<string, unknown>) {
    const parents = () => new Map(getDb().select({ id: category.id, parent_id: category.parent_id }).from(category).all().map((r) => [r.id, r.parent_id]));
    const before = crud.mustGet(id) as unknown as CategoryRow;
    const oldAncestors = chainOf(parents(), before.parent_id);
    const row = crud.update(id, patch) as unknown as CategoryRow;
    if (row.parent_id !== before.parent_id) {
      const all = parents();
      const subtree = subtreeIds([...all].map(([i, p]) => ({ id: i, parent_id: p })), id);
      const recount = [...oldAncestors, ...chainOf(all, row.parent_id), ...subtree];
      // Articles store their leaf alone, so there is no chain to rewrite, only both chains' counts.
      if (row.type === 1) recountArticleCategories(recount);
      else rebuildDocumentChains(subtree, recount);
      bumpContentVersion();
    }
    return row;
  },
  remove: (ids: number[]) => crud.remove(ids) as unknown as CategoryRow[],
};

/** Every category of one type, sorted: the admin tree. */
export const categoriesOfType = (type: number): CategoryRow[] => allRows().filter((r) => r.type === type);

const COLUMNS = getTableColumns(category);

/** GET /category/list: flat, sorted by sort then id; visitors get the enabled, reachable rows only. */
export function listCategories(q: CategoryListQuery, admin: boolean) {
  let rows = allRows();
  if (!admin) rows = publicRows(rows, false);
  else if (q.enable !== undefined) rows = rows.filter((r) => r.enable === q.enable);
  if (q.type?.length) rows = rows.filter((r) => q.type!.includes(r.type));
  if (q.parent_id !== undefined) rows = rows.filter((r) => r.parent_id === q.parent_id);
  const total = rows.length;
  rows = rows.slice((q.page - 1) * q.size, q.page * q.size);
  const fields = q.field?.filter((f) => f in COLUMNS);
  // `id` always comes along: a client limiting fields still needs to tell rows apart.
  const pick = fields?.length ? ["id", ...fields.filter((f) => f !== "id")] : null;
  const out = pick ? rows.map((r) => Object.fromEntries(pick.map((f) => [f, r[f as keyof CategoryRow]]))) : rows;
  return { total, category: out };
}

export type PublicCategory = Pick<CategoryRow, "id" | "parent_id" | "title" | "icon" | "cover" | "doc_count" | "description" | "show_description" | "sort">;

/** Document categories visitors see (enabled, reachable, and the hide-empty rule), as flat rows. */
export function publicDocCategories(type = 0): PublicCategory[] {
  const rows = getDb()
    .select({ id: category.id, parent_id: category.parent_id, title: category.title, icon: category.icon, cover: category.cover, doc_count: category.doc_count, description: category.description, show_description: category.show_description, sort: category.sort, enable: category.enable })
    .from(category).where(eq(category.type, type)).orderBy(asc(category.sort), asc(category.id)).all();
  const hide = type === 0 && !!setting<boolean>("display", "hide_category_without_document");
  return publicRows(rows, hide).map(({ enable: _e, ...r }) => r);
}

export const publicDocTree = (): Node<PublicCategory>[] => buildTree(publicDocCategories(0));

/** The visible category with its ancestor chain and children, or null when visitors may not see it. */
export function categoryPage(id: number) {
  const rows = publicDocCategories(0);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const cat = byId.get(id);
  if (!cat) return null;
  const chain = chainOf(new Map(rows.map((r) => [r.id, r.parent_id])), id).map((i) => byId.get(i)!);
  const children = rows.filter((r) => r.parent_id === id);
  const siblings = cat.parent_id ? rows.filter((r) => r.parent_id === cat.parent_id) : [];
  return { category: cat, chain, children, siblings };
}
