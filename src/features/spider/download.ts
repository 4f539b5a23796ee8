import { and, desc, eq, ne } from "drizzle-orm";
import { existsSync, rmSync } from "node:fs";
import { getDb, getSqlite } from "#db/client.ts";
import { document } from "#db/schema/documents.ts";
import { attachment } from "#db/schema/site.ts";
import { spiderDocument, spiderUrl } from "#db/schema/spider.ts";
import { user } from "#db/schema/users.ts";
import { tempPath } from "#src/features/admin/attachment/spool.ts";
import { sniffDocument } from "#src/features/convert/sniff.ts";
import { createDocuments } from "#src/features/documents/create.ts";
import { originalPath, uploadTmpDir } from "#src/features/documents/paths.ts";
import type { CreateBody } from "#src/features/documents/schema.ts";
import { allowedExts, removeDocumentFiles, sanitizeName, storageKey, storeOriginalFrom } from "#src/features/documents/storage.ts";
import { attachKnownUpload, isBanned } from "#src/features/documents/upload.ts";
import { setting } from "#src/features/settings/service.ts";
import { formatBytes } from "#src/lib/format.ts";
import { AppError } from "#src/lib/errors.ts";
import { openUrl, PermanentError, readLimited, spiderOptions, withTimeout } from "./fetch.ts";
import { urlExt } from "./links.ts";
import { assertRobotsAllow } from "./robots.ts";
import { ATTACHMENT_SPIDER, type SpiderDocRow } from "./service.ts";

// Downloading one found link and publishing a downloaded file. The type comes from the bytes
// (convert/sniff.ts, the same sniffing the upload uses), never from the URL; the bytes are kept
// once per MD5 in the same place uploads keep theirs, so publishing is an "instant upload" of a
// file the server already holds, and a file the library already has is not stored again.

const TEXT_EXTS = new Set(["txt", "md", "markdown"]);

/** A web page served where a document was promised (login walls, error pages, "soft 404"s). */
function looksLikeHtml(head: Uint8Array): boolean {
  const text = new TextDecoder("utf-8", { fatal: false }).decode(head.subarray(0, 1024)).replace(/^\uFEFF/, "").trimStart().toLowerCase();
  return text.startsWith("<!doctype html") || text.startsWith("<html") || text.startsWith("<head") || text.startsWith("<body")
    || (text.startsWith("<") && (text.includes("<html") || text.includes("<body")));
}

/** The largest file this row may download: the URL's own limit, never above the spider setting. */
const limitOf = (maxSizeMb: number) => Math.min(maxSizeMb, Math.max(1, Number(setting("spider", "max_size")) || 50)) * 1024 * 1024;

/**
 * Downloads, checks and stores one document; answers the row update to commit with the job.
 * Throws PermanentError for refusals, anything else for errors worth retrying.
 */
export async function downloadDocument(row: SpiderDocRow, signal: AbortSignal): Promise<() => void> {
  const task = getDb().select().from(spiderUrl).where(eq(spiderUrl.id, row.spider_url_id)).get();
  if (!task) throw new PermanentError("所属的采集网址已删除");
  const opts = spiderOptions();
  const url = new URL(row.url);
  const sig = withTimeout(signal, opts.timeoutMs);
  await assertRobotsAllow(url, opts, sig);
  const { res } = await openUrl(url, opts, sig);
  if (!res.ok) {
    await res.body?.cancel().catch(() => {});
    if (res.status >= 500 || res.status === 429) throw new Error(`网站暂时无法响应（HTTP ${res.status}）`);
    throw new PermanentError(`文件地址返回 HTTP ${res.status}`);
  }
  const limit = limitOf(task.max_size);
  const tmp = tempPath(uploadTmpDir());
  const sink = Bun.file(tmp).writer();
  const md5 = new Bun.CryptoHasher("md5");
  let size = 0;
  try {
    size = await readLimited(res, limit, (chunk) => {
      md5.update(chunk);
      sink.write(chunk);
    }, (n) => `文件过大：${formatBytes(n)}，超过上限 ${formatBytes(limit)}，已停止下载`);
    await sink.end();
    return checkAndStore(row, task.exts, tmp, size, md5.digest("hex"), res.headers.get("content-type") ?? "");
  } catch (err) {
    await Promise.resolve(sink.end()).catch(() => {});
    throw err;
  } finally {
    rmSync(tmp, { force: true });
  }
}

function checkAndStore(row: SpiderDocRow, exts: string, tmp: string, size: number, hash: string, contentType: string): () => void {
  if (size === 0) throw new PermanentError("下载到的文件是空的（0 字节）");
  const bytes = Bun.mmap(tmp, { shared: false });
  const claimed = urlExt(new URL(row.url));
  if (looksLikeHtml(bytes)) {
    throw new PermanentError(`内容是网页（HTML），不是文档${claimed ? `：网址以 .${claimed} 结尾但内容不符` : ""}${contentType ? `（服务器声明类型 ${contentType.split(";")[0]}）` : ""}，已拒绝`);
  }
  const sniffed = sniffDocument(bytes, claimed);
  if (!sniffed) throw new PermanentError(`无法识别文件内容，不是支持的文档格式${claimed ? `（网址扩展名 .${claimed} 与内容不符）` : ""}`);
  if (sniffed.kind === "text" && claimed && !TEXT_EXTS.has(claimed)) throw new PermanentError(`内容是纯文本，与网址扩展名 .${claimed} 不符，已拒绝`);
  if (!allowedExts().includes(sniffed.ext)) throw new PermanentError(`网站设置不允许上传 ${sniffed.ext.toUpperCase()} 格式的文档`);
  const wanted = exts ? exts.split(",") : [];
  if (wanted.length && !wanted.includes(sniffed.ext)) throw new PermanentError(`内容识别为 ${sniffed.ext.toUpperCase()}，不在本任务采集的文件类型中`);
  if (isBanned(hash)) throw new PermanentError("该文档已被禁止上传");
  const base = { hash, ext: sniffed.ext, size, status: 3 };
  // Already in the library: marked with that document, the bytes are not kept a second time.
  const existing = getDb().select({ id: document.id, title: document.title, deleted_at: document.deleted_at }).from(document)
    .where(eq(document.hash, hash)).orderBy(desc(document.id)).get();
  if (existing) {
    return () => void setDoc(row.id, { ...base, duplicate: true, document_id: existing.id, message: `文库中已有相同文档《${existing.title}》（ID ${existing.id}${existing.deleted_at ? "，在回收站中" : ""}），未重复保存` });
  }
  // Found before under another link: that download's file and attachment serve both.
  const twin = getDb().select({ id: spiderDocument.id, attachment_id: spiderDocument.attachment_id }).from(spiderDocument)
    .where(and(eq(spiderDocument.hash, hash), ne(spiderDocument.id, row.id), ne(spiderDocument.attachment_id, 0), eq(spiderDocument.duplicate, false))).get();
  if (twin) return () => void setDoc(row.id, { ...base, duplicate: true, attachment_id: twin.attachment_id, message: `与采集文档 #${twin.id} 内容相同，未重复保存` });
  storeOriginalFrom(tmp, hash, sniffed.ext);
  const name = sanitizeName(`${row.title || "未命名文档"}.${sniffed.ext}`, sniffed.ext);
  return () => {
    // Deleted while downloading: no attachment for a row that is gone, and the file goes too unless
    // something else holds these bytes (same synchronous turn as the commit, so nothing can claim them between).
    const still = getDb().select({ status: spiderDocument.status }).from(spiderDocument).where(eq(spiderDocument.id, row.id)).get();
    if (still?.status !== 2) {
      const used = getDb().select({ id: document.id }).from(document).where(eq(document.hash, hash)).get() || getDb().select({ id: attachment.id }).from(attachment).where(eq(attachment.hash, hash)).get();
      if (!used) removeDocumentFiles(hash);
      return;
    }
    const owner = getDb().select({ user_id: spiderUrl.user_id }).from(spiderUrl).where(eq(spiderUrl.id, row.spider_url_id)).get();
    const att = getDb().insert(attachment).values({
      hash, user_id: owner?.user_id ?? 0, type: ATTACHMENT_SPIDER, type_id: row.id, path: storageKey(hash, sniffed.ext), name, size, ext: sniffed.ext,
      description: row.url.slice(0, 1000),
    }).returning().get();
    setDoc(row.id, { ...base, attachment_id: att.id, message: `下载成功（${sniffed.ext.toUpperCase()}，${formatBytes(size)}）` });
  };
}

const setDoc = (id: number, patch: Partial<typeof spiderDocument.$inferInsert>) =>
  getDb().update(spiderDocument).set({ ...patch, updated_at: Date.now() }).where(eq(spiderDocument.id, id)).run();

/**
 * Publishes a downloaded file as a document of the task's owner and category, through the same
 * createDocuments an upload uses (group review rules, category chain, conversion job). The
 * spider row and the document are written in one transaction, so a retry never publishes twice.
 */
export function publishDocument(row: SpiderDocRow): { document_id?: number; error?: string } {
  const fail = (message: string) => (setDoc(row.id, { status: 8, message }), { error: message });
  const task = getDb().select().from(spiderUrl).where(eq(spiderUrl.id, row.spider_url_id)).get();
  if (!task) return fail("所属的采集网址已删除");
  if (row.duplicate || row.document_id) return fail("重复的文档不再发布");
  const owner = getDb().select({ id: user.id, is_root: user.is_root }).from(user).where(eq(user.id, task.user_id)).get();
  if (!owner) return fail(`所有者用户不存在（ID ${task.user_id}）`);
  const att = getDb().select().from(attachment).where(and(eq(attachment.id, row.attachment_id), eq(attachment.type, ATTACHMENT_SPIDER))).get();
  if (!att || !existsSync(originalPath(att.hash, att.ext))) return fail("下载的文件已不存在，请删除后重新采集");
  const title = (row.title || att.name.replace(/\.[^.]+$/, "") || "未命名文档").slice(0, 255);
  try {
    return getSqlite().transaction(() => {
      const still = getDb().select({ status: spiderDocument.status }).from(spiderDocument).where(eq(spiderDocument.id, row.id)).get();
      if (still?.status !== 6) return { error: "状态已变化" };
      const actor = { id: owner.id, is_root: owner.is_root };
      const upload = attachKnownUpload(actor, att, `${title}.${att.ext}`, "");
      const body: CreateBody = { category_id: [task.category_id], document: [{ title, attachment_id: upload.id, price: task.price }] };
      const [doc] = createDocuments(actor, body, "");
      setDoc(row.id, { status: 7, document_id: doc!.id, message: `已发布为文档《${title}》（ID ${doc!.id}），等待转换` });
      return { document_id: doc!.id };
    }).immediate();
  } catch (err) {
    if (err instanceof AppError) return fail(err.message);
    throw err;
  }
}
