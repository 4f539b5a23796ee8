import { and, count, desc, eq, inArray, like, or, sql, type SQL } from "drizzle-orm";
import { getDb, getSqlite } from "#db/client.ts";
import { document } from "#db/schema/documents.ts";
import { attachment } from "#db/schema/site.ts";
import { spiderDocument, spiderUrl } from "#db/schema/spider.ts";
import { user } from "#db/schema/users.ts";
import { categoryTitles, usableChain } from "#src/features/documents/categories.ts";
import { uploadRefusal } from "#src/features/documents/policy.ts";
import { removeDocumentFiles } from "#src/features/documents/storage.ts";
import { setting } from "#src/features/settings/service.ts";
import { enqueue } from "#src/jobs/queue.ts";
import { badRequest } from "#src/lib/errors.ts";
import { addressRefusal, checkUrl, SsrfError } from "./ssrf.ts";
import { DOC, URL_STATUS, type CreateUrlsBody, type DocListQuery, type UrlListQuery } from "./schema.ts";

export const COLLECT_JOB = "spider.collect";
export const DOWNLOAD_JOB = "spider.download";
export const PUBLISH_JOB = "spider.publish";
/** Spec §3 attachment type 8: a file the spider downloaded. */
export const ATTACHMENT_SPIDER = 8;

export type SpiderUrlRow = typeof spiderUrl.$inferSelect;
export type SpiderDocRow = typeof spiderDocument.$inferSelect;

export const enqueueCollect = (id: number) => enqueue(COLLECT_JOB, { spider_url_id: id }, { maxAttempts: 3 });
export const enqueueDownload = (id: number) => enqueue(DOWNLOAD_JOB, { spider_document_id: id }, { maxAttempts: 3 });
export const enqueuePublish = (id: number) => enqueue(PUBLISH_JOB, { spider_document_id: id }, { maxAttempts: 2 });

/** Every line a URL: blank lines skipped, duplicates kept once, each one checked before anything is written. */
function parseUrls(body: CreateUrlsBody): string[] {
  const lines = (Array.isArray(body.urls) ? body.urls : body.urls.split(/\r?\n/)).map((l) => l.trim());
  const out: string[] = [];
  lines.forEach((line, i) => {
    if (!line) return;
    let u: URL;
    try {
      u = checkUrl(line);
    } catch (err) {
      throw badRequest(`第 ${i + 1} 行：${err instanceof SsrfError ? err.message : "网址格式不正确"}（${line.slice(0, 100)}）`);
    }
    // A literal address is judged now; names are resolved (and judged) when collected.
    const host = u.hostname.replace(/^\[|\]$/g, "");
    const refused = /^[\d.]+$|:/.test(host) ? addressRefusal(host) : null;
    if (refused && (refused.hard || !setting("spider", "allow_private_addresses"))) throw badRequest(`第 ${i + 1} 行：不允许采集${refused.why}（${host}）`);
    u.hash = "";
    if (!out.includes(u.href)) out.push(u.href);
  });
  if (!out.length) throw badRequest("请输入要采集的网址，每行一个");
  if (out.length > 100) throw badRequest(`一次最多提交 100 个网址，当前 ${out.length} 个`);
  return out;
}

/** The checked request: URLs, category, owner and options, or a 400 before anything is written. */
export function createUrls(body: CreateUrlsBody, createdBy: number): SpiderUrlRow[] {
  const urls = parseUrls(body);
  usableChain(body.category_id);
  const owner = getDb().select({ id: user.id, is_root: user.is_root }).from(user).where(eq(user.id, body.user_id)).get();
  if (!owner) throw badRequest(`所有者用户不存在（ID ${body.user_id}）`);
  const refusal = uploadRefusal(owner);
  if (refusal) throw badRequest(`所有者用户不能上传文档：${refusal}`);
  const maxMb = Math.max(1, Number(setting("spider", "max_size")) || 50);
  if (body.max_size > maxMb) throw badRequest(`文件大小上限不能超过采集设置中的 ${maxMb} MB`);
  return getSqlite().transaction(() => urls.map((url) => {
    const row = getDb().insert(spiderUrl).values({
      url, category_id: body.category_id, user_id: body.user_id, depth: body.depth, same_site: body.same_site, exts: body.exts.join(","),
      max_size: body.max_size, price: body.price, created_by: createdBy,
    }).returning().get();
    // Queued in the same transaction: a URL is never left without its job.
    enqueueCollect(row.id);
    return row;
  })).immediate();
}

const escapeLike = (s: string) => `%${s.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;

export function listUrls(q: UrlListQuery) {
  const where: SQL[] = [];
  if (q.status.length) where.push(inArray(spiderUrl.status, q.status));
  if (q.wd) where.push(sql`${spiderUrl.url} like ${escapeLike(q.wd)} escape '\\'`);
  const cond = where.length ? and(...where) : undefined;
  const total = getDb().select({ n: count() }).from(spiderUrl).where(cond).get()!.n;
  const rows = getDb().select().from(spiderUrl).where(cond).orderBy(desc(spiderUrl.id)).limit(q.size).offset((q.page - 1) * q.size).all();
  const cats = categoryTitles([...new Set(rows.map((r) => r.category_id))]);
  const users = usernames(rows.map((r) => r.user_id));
  return {
    total,
    spider_url: rows.map((r) => ({
      ...r, exts: r.exts ? r.exts.split(",") : [], status_label: URL_STATUS[r.status] ?? String(r.status),
      category_title: cats.get(r.category_id) ?? "", username: users.get(r.user_id) ?? "",
    })),
  };
}

function usernames(ids: number[]) {
  const uniq = [...new Set(ids)].filter(Boolean);
  return new Map(uniq.length ? getDb().select({ id: user.id, username: user.username }).from(user).where(inArray(user.id, uniq)).all().map((u) => [u.id, u.username]) : []);
}

export function listDocuments(q: DocListQuery) {
  const where: SQL[] = [];
  if (q.status.length) where.push(inArray(spiderDocument.status, q.status));
  if (q.spider_url_id) where.push(eq(spiderDocument.spider_url_id, q.spider_url_id));
  if (q.wd) where.push(or(sql`${spiderDocument.title} like ${escapeLike(q.wd)} escape '\\'`, like(spiderDocument.url, escapeLike(q.wd)))!);
  const cond = where.length ? and(...where) : undefined;
  const total = getDb().select({ n: count() }).from(spiderDocument).where(cond).get()!.n;
  const rows = getDb().select().from(spiderDocument).where(cond).orderBy(desc(spiderDocument.id)).limit(q.size).offset((q.page - 1) * q.size).all();
  const docIds = [...new Set(rows.map((r) => r.document_id).filter(Boolean))];
  const docs = new Map(docIds.length ? getDb().select({ id: document.id, uuid: document.uuid, title: document.title }).from(document).where(inArray(document.id, docIds)).all().map((d) => [d.id, d]) : []);
  return {
    total,
    spider_document: rows.map((r) => ({
      ...r, status_label: DOC[r.status] ?? String(r.status),
      document_uuid: docs.get(r.document_id)?.uuid ?? "", document_title: docs.get(r.document_id)?.title ?? "",
    })),
  };
}

/** Moves rows from one status to another and queues their jobs, in one transaction; answers how many. */
function requeue(ids: number[], from: number[], to: number, job: (id: number) => unknown, extra?: SQL): number {
  return getSqlite().transaction(() => {
    const rows = getDb().select({ id: spiderDocument.id }).from(spiderDocument)
      .where(and(inArray(spiderDocument.id, ids), inArray(spiderDocument.status, from), extra)).all();
    for (const r of rows) {
      getDb().update(spiderDocument).set({ status: to, message: "", updated_at: Date.now() }).where(eq(spiderDocument.id, r.id)).run();
      job(r.id);
    }
    return rows.length;
  }).immediate();
}

/** Retry: failed downloads go back to the download queue, failed publishes to the publish queue. */
export function retryDocuments(ids: number[]) {
  const downloads = requeue(ids, [4], 1, enqueueDownload);
  const publishes = requeue(ids, [8], 5, enqueuePublish);
  if (!downloads && !publishes) throw badRequest("选中的文档中没有下载失败或发布失败的，无需重试");
  return { message: `已重新加入队列：下载 ${downloads} 个，发布 ${publishes} 个`, download: downloads, publish: publishes };
}

/** Publish: downloaded, not duplicates, not yet published. */
export function publishDocuments(ids: number[]) {
  const n = requeue(ids, [3], 5, enqueuePublish, and(eq(spiderDocument.duplicate, false), eq(spiderDocument.document_id, 0)));
  const skipped = ids.length - n;
  if (!n) throw badRequest("选中的文档中没有可发布的（只有下载成功且不重复的文档可以发布）");
  return { message: skipped ? `已加入发布队列 ${n} 个，跳过 ${skipped} 个（未下载成功、重复或已发布）` : `已加入发布队列 ${n} 个`, publish: n, skipped };
}

/** Collect again: URLs that failed or finished are collected anew (documents already found are kept). */
export function retryUrls(ids: number[]) {
  const n = getSqlite().transaction(() => {
    const rows = getDb().select({ id: spiderUrl.id }).from(spiderUrl).where(and(inArray(spiderUrl.id, ids), inArray(spiderUrl.status, [2, 3]))).all();
    for (const r of rows) {
      getDb().update(spiderUrl).set({ status: 0, message: "", updated_at: Date.now() }).where(eq(spiderUrl.id, r.id)).run();
      enqueueCollect(r.id);
    }
    return rows.length;
  }).immediate();
  if (!n) throw badRequest("选中的网址正在采集或等待采集，无需重试");
  return { message: `已重新加入采集队列 ${n} 个`, count: n };
}

/**
 * Deletes spider documents and then their downloaded files when nothing else uses them: the
 * type-8 attachment goes when no other spider document points at it, the original when no
 * document or attachment of that hash remains. Published documents stay in the library.
 */
export function deleteDocuments(ids: number[], where?: SQL): number {
  const cond = where ?? inArray(spiderDocument.id, ids);
  const hashes = getSqlite().transaction(() => {
    const rows = getDb().select({ id: spiderDocument.id, attachment_id: spiderDocument.attachment_id, hash: spiderDocument.hash }).from(spiderDocument).where(cond).all();
    if (!rows.length) return null;
    getDb().delete(spiderDocument).where(inArray(spiderDocument.id, rows.map((r) => r.id))).run();
    const atts = [...new Set(rows.map((r) => r.attachment_id).filter(Boolean))];
    for (const a of atts) {
      const still = getDb().select({ id: spiderDocument.id }).from(spiderDocument).where(eq(spiderDocument.attachment_id, a)).get();
      if (!still) getDb().delete(attachment).where(and(eq(attachment.id, a), eq(attachment.type, ATTACHMENT_SPIDER))).run();
    }
    const gone = [...new Set(rows.map((r) => r.hash).filter((h) => /^[0-9a-f]{32}$/.test(h)))].filter((h) =>
      !getDb().select({ id: document.id }).from(document).where(eq(document.hash, h)).get()
      && !getDb().select({ id: attachment.id }).from(attachment).where(eq(attachment.hash, h)).get());
    return { n: rows.length, gone };
  }).immediate();
  if (!hashes) return 0;
  // Same JS turn as the commit: no download or upload can claim one of these hashes in between.
  for (const h of hashes.gone) removeDocumentFiles(h);
  return hashes.n;
}

export function deleteUrls(ids: number[]): number {
  const n = getSqlite().transaction(() => {
    deleteDocuments([], inArray(spiderDocument.spider_url_id, ids));
    return getSqlite().query(`DELETE FROM spider_url WHERE id IN (${ids.map(() => "?").join(",")})`).run(...ids).changes;
  })();
  return n;
}
