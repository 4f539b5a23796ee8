import { and, eq, inArray } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { attachment } from "#db/schema/site.ts";
import { imagePaths, renderMarkdown, type Rendered } from "./markdown.ts";
import { summaryOf } from "./summary.ts";

/** Attachment type of article images (spec §3). */
export const ATTACHMENT_ARTICLE = 3;

// Rendered articles by id, version and a hash of the content: every edit bumps the version, and the
// hash keeps an entry from answering for another database's article of the same id and version (a
// restored backup; tests opening fresh databases in one process). The oldest leave first when full.
const CACHE_MAX = 300;
const cache = new Map<string, Rendered & { summary: string }>();

/** Which of these image paths are enabled article attachments of this site. */
function knownImages(content: string): Set<string> {
  const paths = imagePaths(content);
  if (!paths.length) return new Set();
  const rows = getDb().select({ path: attachment.path }).from(attachment)
    .where(and(eq(attachment.type, ATTACHMENT_ARTICLE), eq(attachment.enable, true), inArray(attachment.path, paths))).all();
  return new Set(rows.map((r) => r.path));
}

/** Markdown of unsaved text (the editor's preview): same rules as a published article, not cached. */
export const renderContent = (content: string): Rendered => renderMarkdown(content, knownImages(content));

/** The page's HTML and TOC, and the summary the text gives (to tell an author's own summary from it). */
export function renderArticle(a: { id: number; version: number; content: string }): Rendered & { summary: string } {
  const key = `${a.id}:${a.version}:${Bun.hash(a.content).toString(36)}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const out = { ...renderContent(a.content), summary: summaryOf(a.content) };
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  cache.set(key, out);
  return out;
}

/** Tests and benchmarks measure a cold render. */
export const clearRenderCache = () => cache.clear();
