import { and, eq, inArray } from "drizzle-orm";
import { getDb, getSqlite } from "#db/client.ts";
import { spiderDocument, spiderUrl } from "#db/schema/spider.ts";
import { registerJob } from "#src/jobs/worker.ts";
import { assertRobotsAllow } from "./robots.ts";
import { fetchPage, PermanentError, spiderOptions, withTimeout } from "./fetch.ts";
import { DOCUMENT_EXTS, extractLinks, sameSite, titleOf, urlExt, type Link } from "./links.ts";
import { COLLECT_JOB, DOWNLOAD_JOB, enqueueDownload, PUBLISH_JOB } from "./service.ts";
import { downloadDocument, publishDocument } from "./download.ts";
import { setting } from "#src/features/settings/service.ts";

// The spider's three job kinds: collect a URL (fetch pages, record document links), download one
// document, publish one document. A refusal no retry can change (blocked address, robots.txt,
// too large, not a document) ends the row as failed at once; network errors are retried with the
// queue's backoff and the row is marked failed when attempts run out.

/** Pages a collection fetches at most (depth 2 on a big site would otherwise walk it all). */
const MAX_PAGES = 50;
/** Link extensions that are pages worth following at depth > 0. */
const PAGE_EXTS = new Set(["", "html", "htm", "shtml", "xhtml", "php", "asp", "aspx", "jsp"]);

const setUrl = (id: number, patch: Partial<typeof spiderUrl.$inferInsert>) =>
  getDb().update(spiderUrl).set({ ...patch, updated_at: Date.now() }).where(eq(spiderUrl.id, id)).run();
const setDoc = (id: number, patch: Partial<typeof spiderDocument.$inferInsert>) =>
  getDb().update(spiderDocument).set({ ...patch, updated_at: Date.now() }).where(eq(spiderDocument.id, id)).run();

/** A readable Chinese reason for a failed request. */
export function reason(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; code?: string; message?: string };
  if (e?.name === "TimeoutError" || e?.name === "AbortError") return `请求超时（超过 ${Math.round(timeoutMs / 1000)} 秒）`;
  if (e?.code === "ConnectionRefused" || /ECONNREFUSED|Unable to connect/i.test(String(e?.message))) return "无法连接到目标网站（连接被拒绝）";
  if (e?.code === "ConnectionClosed" || /socket|ECONNRESET/i.test(String(e?.message))) return "连接被目标网站中断";
  const msg = String(e?.message ?? err);
  return /[\u4e00-\u9fa5]/.test(msg) ? msg : `网络错误：${msg.slice(0, 200)}`;
}

export async function collect(id: number, signal: AbortSignal) {
  const row = getDb().select().from(spiderUrl).where(eq(spiderUrl.id, id)).get();
  if (!row) return;
  setUrl(id, { status: 1, message: "" });
  const opts = spiderOptions();
  const exts = new Set(row.exts ? row.exts.split(",") : DOCUMENT_EXTS);
  const maxDocs = Math.max(1, Number(setting("spider", "max_documents")) || 500);
  const start = new URL(row.url);
  const found = new Map<string, { link: Link; referer: string }>();
  const seen = new Set<string>([start.href]);
  const queue: { url: URL; depth: number }[] = [{ url: start, depth: 0 }];
  let pages = 0;
  // The start URL may itself be a document link.
  if (exts.has(urlExt(start))) found.set(start.href, { link: { url: start, text: "" }, referer: "" });
  else {
    while (queue.length && pages < MAX_PAGES && found.size < maxDocs) {
      const { url, depth } = queue.shift()!;
      try {
        await assertRobotsAllow(url, opts, withTimeout(signal, opts.timeoutMs));
        const page = await fetchPage(url, opts, withTimeout(signal, opts.timeoutMs));
        pages++;
        if (page.status >= 400) {
          if (depth === 0) throw new PermanentError(`网页返回 HTTP ${page.status}`);
          continue;
        }
        if (depth === 0 && !/html|xml/.test(page.type) && page.type) throw new PermanentError(`该网址不是网页（${page.type.split(";")[0]}），无法从中查找文档链接`);
        for (const link of extractLinks(page.html, page.url)) {
          const ext = urlExt(link.url);
          if (row.same_site && !sameSite(link.url, start)) continue;
          if (exts.has(ext)) {
            if (!found.has(link.url.href) && found.size < maxDocs) found.set(link.url.href, { link, referer: page.url.href });
          } else if (depth < row.depth && PAGE_EXTS.has(ext) && !seen.has(link.url.href)) {
            seen.add(link.url.href);
            queue.push({ url: link.url, depth: depth + 1 });
          }
        }
      } catch (err) {
        // Below the start page a refused or broken page is skipped; the start page decides the URL.
        if (depth === 0) throw err;
      }
    }
  }
  const inserted = record(row.id, [...found.values()]);
  return { pages, found: found.size, inserted };
}

/** Records found links as spider documents and queues their downloads, all in one transaction. */
function record(urlId: number, items: { link: Link; referer: string }[]): number {
  return getSqlite().transaction(() => {
    let n = 0;
    for (const { link, referer } of items) {
      const doc = getDb().insert(spiderDocument).values({ spider_url_id: urlId, url: link.url.href, referer, title: titleOf(link), status: 0 })
        .onConflictDoNothing().returning().get();
      if (!doc) continue;
      enqueueDownload(doc.id);
      setDoc(doc.id, { status: 1 });
      n++;
    }
    return n;
  }).immediate();
}

registerJob(COLLECT_JOB, async ({ payload, signal }) => {
  const id = Number(payload.spider_url_id);
  try {
    const r = await collect(id, signal);
    if (!r) return;
    const message = `抓取 ${r.pages} 个网页，发现 ${r.found} 个文档链接${r.found > r.inserted ? `（新增 ${r.inserted} 个，其余已记录过）` : ""}`;
    return { result: r, effects: () => void setUrl(id, { status: 2, message, pages: r.pages, found: r.found }) };
  } catch (err) {
    if (err instanceof PermanentError) return { result: { error: err.message }, effects: () => void setUrl(id, { status: 3, message: err.message }) };
    // Retried by the queue; the row shows why meanwhile.
    setUrl(id, { message: `${reason(err, spiderOptions().timeoutMs)}，稍后自动重试` });
    throw new Error(reason(err, spiderOptions().timeoutMs));
  }
}, {
  timeoutMs: 15 * 60_000,
  concurrency: () => 2,
  onExhausted: (job, error) => void setUrl(Number(JSON.parse(job.payload).spider_url_id), { status: 3, message: `采集失败：${error}` }),
});

registerJob(DOWNLOAD_JOB, async ({ payload, signal }) => {
  const id = Number(payload.spider_document_id);
  // Only rows waiting in the queue (or a download cut off by a crash) are downloaded.
  const claimed = getDb().update(spiderDocument).set({ status: 2, updated_at: Date.now() })
    .where(and(eq(spiderDocument.id, id), inArray(spiderDocument.status, [1, 2]))).returning().get();
  if (!claimed) return;
  try {
    const effects = await downloadDocument(claimed, signal);
    return { result: { downloaded: true }, effects };
  } catch (err) {
    if (err instanceof PermanentError) return { result: { error: err.message }, effects: () => void setDoc(id, { status: 4, message: err.message }) };
    setDoc(id, { message: `${reason(err, spiderOptions().timeoutMs)}，稍后自动重试` });
    throw new Error(reason(err, spiderOptions().timeoutMs));
  }
}, {
  timeoutMs: 30 * 60_000,
  concurrency: () => 2,
  onExhausted: (job, error) => void setDoc(Number(JSON.parse(job.payload).spider_document_id), { status: 4, message: `下载失败：${error}` }),
});

registerJob(PUBLISH_JOB, async ({ payload }) => {
  const id = Number(payload.spider_document_id);
  const claimed = getDb().update(spiderDocument).set({ status: 6, updated_at: Date.now() })
    .where(and(eq(spiderDocument.id, id), inArray(spiderDocument.status, [5, 6]))).returning().get();
  if (!claimed) return;
  const r = publishDocument(claimed);
  return { result: r };
}, {
  timeoutMs: 60_000,
  onExhausted: (job, error) => void setDoc(Number(JSON.parse(job.payload).spider_document_id), { status: 8, message: `发布失败：${error}` }),
});
