import { count, eq } from "drizzle-orm";
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { getDb } from "#db/client.ts";
import { attachment } from "#db/schema/site.ts";
import { env } from "#src/env.ts";
import { bumpContentVersion } from "#src/lib/contentVersion.ts";
import { badRequest, payloadTooLarge } from "#src/lib/errors.ts";
import { sniffImage } from "./image.ts";
import { moveInto, spoolMultipartFile, type SpooledFile } from "./spool.ts";

// The one place that writes uploaded files: DATA_DIR/uploads/<kind>/YYYY/MM/<sha256>.<ext>,
// served at /uploads/... . Content-addressed names make identical uploads share one file.

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const URL_PREFIX = "/uploads/";
/** Upload kinds and the attachment type each records (spec §3 attachment types). */
export const IMAGE_KINDS = { avatar: 1, article: 3, banner: 5, category: 6, config: 7 } as const;
export type ImageKind = keyof typeof IMAGE_KINDS;
const SERVED_EXT = /\.(png|jpe?g|gif|webp)$/i;
const SEGMENT = /^[\w][\w.-]*$/;

let rootOverride: string | null = null;
export const storageRoot = () => rootOverride ?? join(env.DATA_DIR, "uploads");
/** Tests point storage at their own temp folder. */
export const setStorageRoot = (dir: string | null) => void (rootOverride = dir);

/** The file behind an /uploads/... URL path, or null for anything that is not a plain stored image. */
export function resolveUpload(urlPath: string): string | null {
  if (!urlPath.startsWith(URL_PREFIX)) return null;
  const parts = urlPath.slice(URL_PREFIX.length).split("/");
  if (!parts.length || parts.some((p) => !SEGMENT.test(p) || p.includes(".."))) return null;
  if (!SERVED_EXT.test(parts.at(-1)!)) return null;
  const root = resolve(storageRoot());
  const file = resolve(root, ...parts);
  return file.startsWith(root + sep) ? file : null;
}

function yearMonth(now = new Date()): string {
  const [y, m] = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Shanghai", year: "numeric", month: "2-digit" }).format(now).split("-");
  return `${y}/${m}`;
}

export interface UploadMeta { userId: number; ip: string }

/** Where image upload bodies are spooled while they arrive (DATA_DIR/tmp/uploads by default). */
export const imageTmpDir = () => join(dirname(storageRoot()), "tmp", "uploads");
export const imageTooLarge = () => payloadTooLarge("图片大小不能超过 5 MB");

/**
 * An image upload from a multipart request (`file`), streamed to a temp file and cut off with a
 * Chinese 413 as soon as it passes 5 MB (a chunked body without Content-Length included).
 * The caller must call `cleanup()` on the answer.
 */
export async function receiveImage(req: Request): Promise<SpooledFile> {
  if (Number(req.headers.get("content-length") ?? 0) > MAX_IMAGE_BYTES + 64 * 1024) throw imageTooLarge();
  if (!req.headers.get("content-type")?.startsWith("multipart/form-data")) throw badRequest("请使用 multipart/form-data 上传图片");
  const file = await spoolMultipartFile(req, { dir: imageTmpDir(), limit: MAX_IMAGE_BYTES, tooLarge: imageTooLarge });
  if (!file) throw badRequest("请选择要上传的图片");
  return file;
}

/** storeImage for an upload already on disk (receiveImage): the temp file is moved into place. */
export async function storeSpooledImage(file: SpooledFile, kind: ImageKind, meta: UploadMeta) {
  if (file.size > MAX_IMAGE_BYTES) throw imageTooLarge();
  if (file.size === 0) throw badRequest("请选择要上传的图片");
  const bytes = await Bun.file(file.path).bytes();
  return storeBytes(bytes, file.name, kind, meta, file.path);
}

/**
 * Checks the bytes (PNG/JPEG/GIF/WebP, ≤ 5 MB), writes the file (temp + rename, so a crash never
 * leaves half a file under the final name) and records the attachment row. If the row cannot be
 * written, a file this call created is removed again.
 */
export async function storeImage(file: File, kind: ImageKind, meta: UploadMeta) {
  if (file.size > MAX_IMAGE_BYTES) throw imageTooLarge();
  if (file.size === 0) throw badRequest("请选择要上传的图片");
  return storeBytes(new Uint8Array(await file.arrayBuffer()), file.name, kind, meta);
}

function storeBytes(bytes: Uint8Array, fileName: string, kind: ImageKind, meta: UploadMeta, spooledPath?: string) {
  const info = sniffImage(bytes);
  if (!info) throw badRequest("只支持 PNG、JPEG、GIF、WebP 格式的图片（按文件内容识别）");
  const hash = new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
  const rel = `${kind}/${yearMonth()}/${hash}.${info.ext}`;
  const abs = join(storageRoot(), rel);
  const created = !existsSync(abs);
  if (created) {
    mkdirSync(dirname(abs), { recursive: true });
    if (spooledPath) moveInto(spooledPath, abs);
    else {
      const tmp = `${abs}.${process.pid}.${Date.now()}.tmp`;
      writeFileSync(tmp, bytes);
      renameSync(tmp, abs);
    }
  }
  try {
    const row = getDb().insert(attachment).values({
      hash, user_id: meta.userId, type: IMAGE_KINDS[kind], path: URL_PREFIX + rel, name: (fileName || `image.${info.ext}`).slice(0, 255),
      size: bytes.length, width: info.width, height: info.height, ext: info.ext, ip: meta.ip.slice(0, 64),
    }).returning().get();
    bumpContentVersion();
    return row;
  } catch (err) {
    if (created) removeIfUnused(URL_PREFIX + rel);
    throw err;
  }
}

/** Deletes the stored file once no attachment row points at it any more. */
export function removeIfUnused(urlPath: string): boolean {
  const file = resolveUpload(urlPath);
  if (!file) return false;
  const used = getDb().select({ n: count() }).from(attachment).where(eq(attachment.path, urlPath)).get()!.n;
  if (used > 0) return false;
  rmSync(file, { force: true });
  return true;
}
