import { sql } from "drizzle-orm";
import { getDb, isBusyError, withBusyTimeout } from "#db/client.ts";
import { article } from "#db/schema/articles.ts";
import { VIEW_TTL_MS } from "#src/features/reader/views.ts";

// Article views are counted like document views (features/reader/views.ts): once per (article,
// visitor) per 24 h, gathered in memory and written in one transaction every few seconds, so a
// burst of readers costs no write per request. Its own maps: the counters live in another table.
const FLUSH_MS = 5_000;
const MAX_SEEN = 200_000;
const seen = new Map<string, number>();
const pending = new Map<number, number>();
let timer: ReturnType<typeof setInterval> | null = null;

function prune(now: number) {
  for (const [k, at] of seen) {
    if (now - at < VIEW_TTL_MS && seen.size <= MAX_SEEN) break;
    seen.delete(k);
  }
}

/** Records a view; answers whether it counted. */
export function recordArticleView(articleId: number, visitor: string, now = Date.now()): boolean {
  const key = `${articleId}:${visitor}`;
  const at = seen.get(key);
  if (at !== undefined && now - at < VIEW_TTL_MS) return false;
  if (at !== undefined) seen.delete(key);
  seen.set(key, now);
  prune(now);
  pending.set(articleId, (pending.get(articleId) ?? 0) + 1);
  if (!timer) {
    timer = setInterval(flushArticleViews, FLUSH_MS);
    timer.unref?.();
  }
  return true;
}

export function flushArticleViews() {
  if (!pending.size) return 0;
  const batch = [...pending];
  pending.clear();
  try {
    withBusyTimeout(0, () => getDb().transaction((tx) => {
      for (const [id, n] of batch) tx.update(article).set({ view_count: sql`${article.view_count} + ${n}` }).where(sql`${article.id} = ${id}`).run();
    }));
  } catch (err) {
    if (!isBusyError(err)) throw err;
    for (const [id, n] of batch) pending.set(id, (pending.get(id) ?? 0) + n);
    return 0;
  }
  return batch.length;
}

export function resetArticleViews() {
  seen.clear();
  pending.clear();
}

process.on("exit", () => {
  try {
    flushArticleViews();
  } catch {}
});
