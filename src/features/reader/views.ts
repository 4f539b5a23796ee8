import { sql } from "drizzle-orm";
import { getDb, isBusyError, withBusyTimeout } from "#db/client.ts";
import { document } from "#db/schema/documents.ts";

/**
 * View counting off the hot path. A view counts at most once per (document, visitor) per 24 h,
 * where the visitor is the signed-in user or a hash of IP + user agent; crawlers and scripted
 * clients never count. Counts gather in memory and are written in one transaction every few
 * seconds (and at process exit), so a burst of readers costs no write per request.
 */
export const VIEW_TTL_MS = 24 * 3600_000;
const FLUSH_MS = 5_000;
const MAX_SEEN = 200_000;

// Matched against the User-Agent: crawlers, link previewers, HTTP libraries and headless browsers.
export const BOT_UA = /bot|spider|crawl|slurp|curl|wget|python|headless|phantom|selenium|puppeteer|playwright|lighthouse|scrapy|httpclient|okhttp|axios|node-fetch|undici|go-http|java\/|libwww|perl|ruby|php\/|postman|insomnia|facebookexternalhit|embedly|whatsapp|telegram|preview|mediapartners|feedfetcher|monitor|uptime|pingdom/i;

export const isBot = (ua: string | undefined) => !ua || ua.length < 10 || BOT_UA.test(ua);

// Insertion order is first-seen order and every entry lives the same TTL, so expired entries are
// always at the front of the Map: pruning never scans live ones.
const seen = new Map<string, number>();
const pending = new Map<number, number>();
let timer: ReturnType<typeof setInterval> | null = null;

export const visitorKey = (userId: number | undefined, ip: string, ua: string) =>
  userId ? `u${userId}` : `a${new Bun.CryptoHasher("sha1").update(`${ip}\n${ua}`).digest("base64url")}`;

function prune(now: number) {
  for (const [k, at] of seen) {
    if (now - at < VIEW_TTL_MS && seen.size <= MAX_SEEN) break;
    seen.delete(k);
  }
}

/** Records a view; answers whether it counted. */
export function recordView(documentId: number, visitor: string, now = Date.now()): boolean {
  const key = `${documentId}:${visitor}`;
  const at = seen.get(key);
  if (at !== undefined && now - at < VIEW_TTL_MS) return false;
  if (at !== undefined) seen.delete(key);
  seen.set(key, now);
  prune(now);
  pending.set(documentId, (pending.get(documentId) ?? 0) + 1);
  if (!timer) {
    timer = setInterval(flushViews, FLUSH_MS);
    timer.unref?.();
  }
  return true;
}

/** Writes the gathered counts in one transaction. */
export function flushViews() {
  if (!pending.size) return 0;
  const batch = [...pending];
  pending.clear();
  try {
    // Never wait on another process's write lock from the event loop: try again at the next tick.
    withBusyTimeout(0, () => getDb().transaction((tx) => {
      for (const [id, n] of batch) tx.update(document).set({ view_count: sql`${document.view_count} + ${n}` }).where(sql`${document.id} = ${id}`).run();
    }));
  } catch (err) {
    if (!isBusyError(err)) throw err;
    for (const [id, n] of batch) pending.set(id, (pending.get(id) ?? 0) + n);
    return 0;
  }
  return batch.length;
}

/** Tests start from a clean slate. */
export function resetViews() {
  seen.clear();
  pending.clear();
}

process.on("exit", () => {
  try {
    flushViews();
  } catch {}
});
