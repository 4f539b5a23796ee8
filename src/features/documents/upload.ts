import { and, desc, eq } from "drizzle-orm";
import { existsSync, rmSync } from "node:fs";
import { getDb } from "#db/client.ts";
import { bannedHash, document } from "#db/schema/documents.ts";
import { attachment } from "#db/schema/site.ts";
import { sniffDocument } from "#src/features/convert/sniff.ts";
import { badRequest, forbidden } from "#src/lib/errors.ts";
import { assertMayUpload, type Actor } from "./policy.ts";
import { visibleDocument } from "./status.ts";
import { tempPath, type SpooledFile } from "#src/features/admin/attachment/spool.ts";
import { originalPath, uploadTmpDir } from "./paths.ts";
import { allowedExts, extOf, maxDocumentBytes, receiveUploadedFile, sanitizeName, storageKey, storeOriginalFrom, tooLarge } from "./storage.ts";

export const ATTACHMENT_DOCUMENT = 2;
export const BANNED = "该文档已被禁止上传";
const TEXT_EXTS = new Set(["txt", "md", "markdown"]);
const MD5 = /^[0-9a-f]{32}$/;

export type AttachmentRow = typeof attachment.$inferSelect;
export const attachmentView = (a: AttachmentRow) => ({ id: a.id, hash: a.hash, name: a.name, size: a.size, ext: a.ext });

export const isBanned = (hash: string) => !!getDb().select({ hash: bannedHash.hash }).from(bannedHash).where(eq(bannedHash.hash, hash)).get();

const listExts = (exts: string[]) => exts.join("、");

/**
 * Receives an upload from the request: streamed to a temp file with a running size limit, then
 * checked and stored like storeSpooledDocument. The name's extension is checked before any byte
 * is stored.
 */
export async function receiveDocumentUpload(actor: Actor, req: Request, ip: string): Promise<AttachmentRow> {
  assertMayUpload(actor);
  const spooled = await receiveUploadedFile(req, checkClaimedExt);
  try {
    return storeSpooledDocument(actor, spooled, ip);
  } finally {
    spooled.cleanup();
  }
}

/** The name's extension, when it has one, must be an allowed one. */
function checkClaimedExt(name: string) {
  const allowed = allowedExts();
  const claimed = extOf(name || "");
  if (claimed && !allowed.includes(claimed)) throw badRequest(`不支持上传 .${claimed} 格式的文件，允许的格式：${listExts(allowed)}`);
}

/**
 * Checks an uploaded document and stores its original once per MD5. The type comes from the
 * content; the name's extension must be an allowed one and may not claim a binary format for
 * what is plain text. Answers the new type-2 attachment row. The temp file is moved into place
 * (or left for the caller to remove when those bytes are already stored).
 */
export function storeSpooledDocument(actor: Actor, file: SpooledFile, ip: string): AttachmentRow {
  assertMayUpload(actor);
  if (file.size === 0) throw badRequest("文件是空的（0 字节），请重新选择");
  if (file.size > maxDocumentBytes()) throw tooLarge();
  checkClaimedExt(file.name);
  const allowed = allowedExts();
  const claimed = extOf(file.name || "");
  // Mapped, not read: the kernel pages in only what sniffing looks at (a PDF's first kilobyte).
  const sniffed = sniffDocument(Bun.mmap(file.path, { shared: false }), file.name || "");
  if (!sniffed) throw badRequest(`无法识别文件内容，请上传有效的文档（按内容识别，支持：${listExts(allowed)}）`);
  if (sniffed.kind === "text" && claimed && !TEXT_EXTS.has(claimed)) throw badRequest(`文件内容与扩展名 .${claimed} 不符，请上传有效的文档`);
  if (!allowed.includes(sniffed.ext)) throw badRequest(`不支持上传该类型的文件（内容识别为 ${sniffed.ext.toUpperCase()}）`);
  const hash = file.md5;
  if (isBanned(hash)) throw forbidden(BANNED);
  const created = storeOriginalFrom(file.path, hash, sniffed.ext);
  try {
    return recordAttachment(actor, { hash, ext: sniffed.ext, size: file.size, name: sanitizeName(file.name || "", sniffed.ext), ip });
  } catch (err) {
    if (created) rmSync(originalPath(hash, sniffed.ext), { force: true });
    throw err;
  }
}

/** The same checks for a file already in memory (seed script, tools): spooled to disk first. */
export async function storeDocumentUpload(actor: Actor, file: File, ip: string): Promise<AttachmentRow> {
  assertMayUpload(actor);
  if (file.size > maxDocumentBytes()) throw tooLarge();
  const path = tempPath(uploadTmpDir());
  const bytes = new Uint8Array(await file.arrayBuffer());
  await Bun.write(path, bytes);
  const spooled: SpooledFile = {
    path, name: file.name || "", size: bytes.length, md5: new Bun.CryptoHasher("md5").update(bytes).digest("hex"), sha256: "",
    cleanup: () => rmSync(path, { force: true }),
  };
  try {
    return storeSpooledDocument(actor, spooled, ip);
  } finally {
    spooled.cleanup();
  }
}

function recordAttachment(actor: Actor, a: { hash: string; ext: string; size: number; name: string; ip: string }): AttachmentRow {
  return getDb().insert(attachment).values({
    hash: a.hash, user_id: actor.id, type: ATTACHMENT_DOCUMENT, path: storageKey(a.hash, a.ext), name: a.name, size: a.size, ext: a.ext, ip: a.ip.slice(0, 64),
  }).returning().get();
}

/**
 * A stored type-2 attachment of this MD5 whose original is still on disk, that this user may reuse
 * without sending the bytes: the file of a public document (converted, not deleted), or one the
 * user uploaded themselves. Anyone else's pending, rejected or unused upload is answered as
 * unknown, so an MD5 alone never turns someone's unreviewed file into a new document.
 */
function knownUpload(actor: Actor, hash: string): AttachmentRow | undefined {
  const isPublic = !!getDb().select({ id: document.id }).from(document).where(and(eq(document.hash, hash), visibleDocument())).get();
  const row = getDb().select().from(attachment)
    .where(and(eq(attachment.type, ATTACHMENT_DOCUMENT), eq(attachment.hash, hash), isPublic ? undefined : eq(attachment.user_id, actor.id)))
    .orderBy(desc(attachment.id)).get();
  return row && existsSync(originalPath(row.hash, row.ext)) ? row : undefined;
}

function assertHash(hash: string) {
  if (!MD5.test(hash)) throw badRequest("文件哈希格式不正确（应为 32 位 MD5）");
  if (isBanned(hash)) throw forbidden(BANNED);
}

/** Whether the browser may skip sending a file: the server already has these bytes. */
export function uploadExists(actor: Actor, hash: string): boolean {
  assertMayUpload(actor);
  assertHash(hash);
  return !!knownUpload(actor, hash);
}

/** The stored upload an instant upload refers to; 400 when the server does not have it. */
export function mustKnowUpload(actor: Actor, hash: string): AttachmentRow {
  assertHash(hash);
  const known = knownUpload(actor, hash);
  if (!known) throw badRequest("服务器上没有该文件，请重新上传");
  return known;
}

/** Instant upload: a new attachment row for this user pointing at the original already stored. */
export const attachKnownUpload = (actor: Actor, known: AttachmentRow, name: string, ip: string): AttachmentRow =>
  recordAttachment(actor, { hash: known.hash, ext: known.ext, size: known.size, name: sanitizeName(name, known.ext), ip });
