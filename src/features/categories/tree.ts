// Pure helpers over the flat category rows (a site has tens to a few hundred categories, so the
// whole table is read at once and walked in memory).

export interface FlatCategory { id: number; parent_id: number; enable: boolean; doc_count: number }
export type Node<T> = T & { children: Node<T>[] };

/**
 * Nests rows under their parents in row order. A row whose parent is missing from `rows` (disabled,
 * hidden or deleted) is dropped with its subtree instead of surfacing as a top-level entry.
 */
export function buildTree<T extends { id: number; parent_id: number }>(rows: T[]): Node<T>[] {
  const byId = new Map(rows.map((r) => [r.id, { ...r, children: [] as Node<T>[] }]));
  const roots: Node<T>[] = [];
  for (const n of byId.values()) {
    if (!n.parent_id) roots.push(n);
    else byId.get(n.parent_id)?.children.push(n);
  }
  return roots;
}

/** Ids from the root down to `id` (inclusive); stops at a missing parent or a cycle in bad data. */
export function chainOf(parentOf: Map<number, number>, id: number): number[] {
  const chain: number[] = [];
  const seen = new Set<number>();
  for (let cur = id; cur && parentOf.has(cur) && !seen.has(cur); cur = parentOf.get(cur)!) {
    seen.add(cur);
    chain.unshift(cur);
  }
  return chain;
}

/** `id` and every category below it. */
export function subtreeIds(rows: { id: number; parent_id: number }[], id: number): number[] {
  const out = [id];
  const seen = new Set(out);
  for (let i = 0; i < out.length; i++) {
    for (const r of rows) if (r.parent_id === out[i] && !seen.has(r.id)) (seen.add(r.id), out.push(r.id));
  }
  return out;
}

/**
 * What visitors may see: enabled rows whose ancestors are all enabled; with `hideEmpty`
 * (display.hide_category_without_document) also none without documents. doc_count counts a
 * category's whole subtree, so an empty parent never hides a non-empty child.
 */
export function publicRows<T extends FlatCategory>(rows: T[], hideEmpty: boolean): T[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const shown = (r: T): boolean => {
    const seen = new Set<number>();
    for (let cur: T | undefined = r; cur; cur = cur.parent_id ? byId.get(cur.parent_id) : undefined) {
      if (seen.has(cur.id) || !cur.enable || (hideEmpty && cur.doc_count <= 0)) return false;
      seen.add(cur.id);
      if (cur.parent_id && !byId.has(cur.parent_id)) return false;
    }
    return true;
  };
  return rows.filter(shown);
}
