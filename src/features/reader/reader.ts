import { existsSync } from "node:fs";
import { eq, sql } from "drizzle-orm";
import { getDb, getSqlite } from "#db/client.ts";
import { user } from "#db/schema/users.ts";
import { pagePath } from "#src/features/documents/paths.ts";
import { getSettings } from "#src/features/settings/service.ts";
import { contentVersion } from "#src/lib/contentVersion.ts";
import { prepared } from "#db/prepared.ts";

export interface Crumb { id: number; title: string }
export type PageFormat = ".svg" | ".gzip.svg" | ".png" | ".webp";

/** The category chain of the document's leaf category, root first. */
export function categoryChain(categoryId: number): Crumb[] {
  if (!categoryId) return [];
  return getSqlite().query<Crumb, [number]>(`
    WITH RECURSIVE chain(id, title, parent_id, depth) AS (
      SELECT id, title, parent_id, 0 FROM category WHERE id = ?1
      UNION ALL SELECT c.id, c.title, c.parent_id, chain.depth + 1 FROM category c JOIN chain ON c.id = chain.parent_id WHERE chain.depth < 32
    ) SELECT id, title FROM chain ORDER BY depth DESC`).all(categoryId);
}

export const uploaderOf = (id: number) =>
  prepared("uploader", () => getDb().select({ id: user.id, username: user.username, avatar: user.avatar, doc_count: user.doc_count, vip_until: user.vip_until }).from(user)
    .where(eq(user.id, sql.placeholder("id"))).prepare()).get({ id }) ?? null;

// Which image format a conversion produced is a property of the files (converter.extension may
// change later), so it is read from page 1 on disk and remembered until content changes.
const formats = new Map<string, { version: number; format: PageFormat | null }>();

export function pageFormat(hash: string): PageFormat | null {
  const hit = formats.get(hash);
  if (hit && hit.version === contentVersion()) return hit.format;
  let format: PageFormat | null = null;
  if (existsSync(pagePath(hash, 1, ".svg", true))) format = ".gzip.svg";
  else if (existsSync(pagePath(hash, 1, ".svg"))) format = ".svg";
  else if (existsSync(pagePath(hash, 1, ".png"))) format = ".png";
  else if (existsSync(pagePath(hash, 1, ".webp"))) format = ".webp";
  if (formats.size > 5000) formats.clear();
  formats.set(hash, { version: contentVersion(), format });
  return format;
}

/** Settings that shape the reader: pages per "continue reading" step and the watermark. */
export function readerSettings() {
  const s = getSettings();
  const per = Math.max(1, Math.min(100, Math.floor(Number(s.display?.pages_per_read) || 5)));
  const text = String(s.system?.watermark ?? "").trim();
  return { per, watermark: s.system?.enable_watermark && text ? text : "" };
}

/** How many pages the first render shows: one step, or through the asked page rounded up to a step. */
export function initialPages(preview: number, per: number, asked: number): number {
  const through = asked > 0 ? Math.ceil(Math.min(asked, preview) / per) * per : per;
  return Math.max(0, Math.min(preview, Math.max(per, through)));
}

/** ?page=N as a page number within the preview, or 0 when absent or invalid. */
export function askedPage(raw: string | undefined, preview: number): number {
  if (!raw || !/^\d{1,6}$/.test(raw)) return 0;
  const n = Number(raw);
  return n >= 1 ? Math.min(n, Math.max(1, preview)) : 0;
}

const xmlEscape = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** The watermark as a CSS background: one rotated line of text in an SVG tile that repeats. */
export function watermarkCss(text: string): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="280" height="180"><text x="140" y="90" fill="rgba(0,0,0,0.13)" font-size="18" font-family="sans-serif" text-anchor="middle" dominant-baseline="middle" transform="rotate(-30 140 90)">${xmlEscape(text)}</text></svg>`;
  return `url("data:image/svg+xml,${encodeURIComponent(svg)}")`;
}

export const pageUrl = (uuid: string, format: PageFormat) => `/view/page/${uuid}/{n}${format}`;
