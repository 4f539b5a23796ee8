import { and, asc, desc, eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { advertisement, banner, friendlink, navigation } from "#db/schema/site.ts";
import { publicDocCategories } from "#src/features/categories/service.ts";
import { buildTree } from "#src/features/categories/tree.ts";
import { contentVersion } from "#src/lib/contentVersion.ts";

export interface NavItem { id: number; title: string; href: string; target: string; color: string; children: NavItem[] }
export interface CategoryNode { id: number; title: string; parent_id: number; icon: string; cover: string; doc_count: number; description: string; children: CategoryNode[] }
export interface AdItem { id: number; title: string; position: string; content: string }

function tree<T extends { id: number; parent_id: number }>(rows: T[]): (T & { children: any[] })[] {
  const byId = new Map(rows.map((r) => [r.id, { ...r, children: [] as any[] }]));
  const roots: (T & { children: any[] })[] = [];
  for (const n of byId.values()) {
    const p = n.parent_id ? byId.get(n.parent_id) : undefined;
    (p ? p.children : roots).push(n);
  }
  return roots;
}

export interface LayoutData {
  navigation: NavItem[];
  docCategories: CategoryNode[];
  articleCategories: CategoryNode[];
  friendlinks: { id: number; title: string; link: string }[];
}

let memo: { version: number; data: LayoutData } | null = null;

/** What every public layout needs; rebuilt only when content changes. */
export function layoutData(): LayoutData {
  if (memo?.version === contentVersion()) return memo.data;
  const db = getDb();
  const navRows = db.select().from(navigation).where(eq(navigation.enable, true)).orderBy(asc(navigation.sort), asc(navigation.id)).all();
  const data: LayoutData = {
    navigation: tree(navRows.map((n) => ({ id: n.id, parent_id: n.parent_id, title: n.title, href: n.href, target: n.target, color: n.color }))) as NavItem[],
    // Enabled and reachable only, minus empty document categories when display.hide_category_without_document is on.
    docCategories: buildTree(publicDocCategories(0)),
    articleCategories: buildTree(publicDocCategories(1)),
    friendlinks: db.select({ id: friendlink.id, title: friendlink.title, link: friendlink.link }).from(friendlink).where(eq(friendlink.enable, true)).orderBy(asc(friendlink.sort), asc(friendlink.id)).all(),
  };
  memo = { version: contentVersion(), data };
  return data;
}

// Enabled ads change only through admin writes (which bump the content version), so renders read
// them from memory; the start/end window is still checked at `now` on every call.
let adsMemo: { version: number; rows: (AdItem & { start_time: number | null; end_time: number | null })[] } | null = null;

/** Enabled ads for the positions, inside their start/end window at `now`, newest first. */
export function adsFor(positions: string[], now = Date.now()): AdItem[] {
  if (!positions.length) return [];
  if (adsMemo?.version !== contentVersion()) {
    const rows = getDb()
      .select({ id: advertisement.id, title: advertisement.title, position: advertisement.position, content: advertisement.content, start_time: advertisement.start_time, end_time: advertisement.end_time })
      .from(advertisement)
      .where(eq(advertisement.enable, true))
      .orderBy(desc(advertisement.id))
      .all();
    adsMemo = { version: contentVersion(), rows };
  }
  return adsMemo.rows
    .filter((a) => positions.includes(a.position) && (a.start_time === null || a.start_time <= now) && (a.end_time === null || a.end_time > now))
    .map(({ start_time: _s, end_time: _e, ...a }) => a);
}

export function enabledBanners(type = 0) {
  return getDb().select({ id: banner.id, title: banner.title, path: banner.path, url: banner.url })
    .from(banner).where(and(eq(banner.enable, true), eq(banner.type, type))).orderBy(asc(banner.sort), asc(banner.id)).all();
}
