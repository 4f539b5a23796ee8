import { and, asc, desc, eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { advertisement, banner, friendlink } from "#db/schema/site.ts";
import { navigationTree, type NavNode } from "#src/features/admin/navigation/service.ts";
import { publicDocCategories } from "#src/features/categories/service.ts";
import { buildTree } from "#src/features/categories/tree.ts";
import { contentVersion } from "#src/lib/contentVersion.ts";

/** `fixed`: "" for admin entries, else "home" | "category" | "article" (the built-in entries). */
export interface NavItem { id: number; title: string; href: string; target: string; color: string; fixed: string; children: NavItem[] }

const navItem = (n: NavNode): NavItem => ({ id: n.id, title: n.title, href: n.href, target: n.target, color: n.color, fixed: n.fixed, children: n.children.map(navItem) });
export interface CategoryNode { id: number; title: string; parent_id: number; icon: string; cover: string; doc_count: number; description: string; children: CategoryNode[] }
export interface AdItem { id: number; title: string; position: string; content: string }

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
  const data: LayoutData = {
    // The stored entries, fixed ones included, as the public list answers them.
    navigation: navigationTree({ enable: true, publicOnly: true }).navigation.map(navItem),
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
