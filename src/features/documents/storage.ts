import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { dirname, relative } from "node:path";
import { setting } from "#src/features/settings/service.ts";
import { badRequest, payloadTooLarge } from "#src/lib/errors.ts";
import { moveInto, spoolMultipartFile, type SpooledFile } from "#src/features/admin/attachment/spool.ts";
import { documentDir, documentsRoot, originalPath, uploadTmpDir } from "./paths.ts";

// Reading an uploaded document off the request and writing its original under the hash folder.

/** Multipart framing around the file: boundaries, part headers, a short name field. */
const MULTIPART_OVERHEAD = 64 * 1024;
const MAX_NAME = 255;

/** `security.document_allowed_ext` (".pdf,.docx …") as bare lower-case extensions. */
export function allowedExts(): string[] {
  const raw = String(setting("security", "document_allowed_ext") ?? "");
  return [...new Set(raw.split(/[\s,，;；|]+/).map((e) => e.trim().replace(/^\./, "").toLowerCase()).filter((e) => /^[a-z0-9]{1,8}$/.test(e)))];
}

export const maxDocumentMb = () => Math.max(1, Math.floor(Number(setting("security", "max_document_size")) || 50));
export const maxDocumentBytes = () => maxDocumentMb() * 1024 * 1024;
export const tooLarge = () => payloadTooLarge(`文档大小不能超过 ${maxDocumentMb()} MB`);

export const extOf = (name: string) => /\.([a-z0-9]{1,8})$/i.exec(name)?.[1]!.toLowerCase() ?? "";

/**
 * A display name safe to store and show: no folders (`a/../b` → `b`), no control or bidi-override
 * characters, no leading dots, at most 255 characters with the extension kept.
 */
export function sanitizeName(raw: string, fallbackExt = ""): string {
  let name = raw.split(/[\\/]/).pop() ?? "";
  name = name.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, "");
  name = name.replace(/\.{2,}/g, ".").replace(/^[.\s]+/, "").trim();
  if (!name || name === ".") name = `未命名文档${fallbackExt ? `.${fallbackExt}` : ""}`;
  const chars = [...name];
  if (chars.length <= MAX_NAME) return name;
  const ext = extOf(name);
  const keep = ext ? MAX_NAME - ext.length - 1 : MAX_NAME;
  return chars.slice(0, keep).join("") + (ext ? `.${ext}` : "");
}

/**
 * The multipart `file` of an upload, streamed to a temp file under DATA_DIR/tmp/uploads (MD5
 * computed on the way): refused with 413 on the declared Content-Length, and as soon as the bytes
 * received pass the limit otherwise. `onFile` sees the file name before any byte is stored.
 * The caller owns the answer and must call its `cleanup()`.
 */
export async function receiveUploadedFile(req: Request, onFile?: (name: string) => void): Promise<SpooledFile> {
  const limit = maxDocumentBytes();
  const declared = Number(req.headers.get("content-length") ?? 0);
  if (declared > limit + MULTIPART_OVERHEAD) throw tooLarge();
  const type = req.headers.get("content-type") ?? "";
  if (!type.startsWith("multipart/form-data")) throw badRequest("请使用 multipart/form-data 上传文档");
  if (!req.body) throw badRequest("请选择要上传的文档");
  const file = await spoolMultipartFile(req, { dir: uploadTmpDir(), limit, tooLarge, onFile });
  if (!file) throw badRequest("请选择要上传的文档");
  return file;
}

/** Where an attachment row points: the original's path relative to the documents root's parent. */
export const storageKey = (hash: string, ext: string) => relative(dirname(documentsRoot()), originalPath(hash, ext));

/**
 * Moves a received temp file into place as the original unless that exact file is already there
 * (then the temp file is left for the caller's cleanup). Answers whether it stored the file.
 */
export function storeOriginalFrom(tmp: string, hash: string, ext: string): boolean {
  const path = originalPath(hash, ext);
  if (existsSync(path)) return false;
  mkdirSync(dirname(path), { recursive: true });
  moveInto(tmp, path);
  return true;
}

/**
 * Writes the original unless that exact file is already there ("instant upload"); temp file +
 * rename, so a crash never leaves half a file under the final name. Answers whether it wrote.
 */
export async function storeOriginal(bytes: Uint8Array, hash: string, ext: string): Promise<boolean> {
  const path = originalPath(hash, ext);
  if (existsSync(path)) return false;
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    await Bun.write(tmp, bytes);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  return true;
}

/** Removes a hash folder entirely (original, pages, cover). */
export const removeDocumentFiles = (hash: string) => rmSync(documentDir(hash), { recursive: true, force: true });
