import { and, eq, ne } from "drizzle-orm";
import sharp from "sharp";
import { getDb } from "#db/client.ts";
import { attachment } from "#db/schema/site.ts";
import { user } from "#db/schema/users.ts";
import { sniffImage } from "#src/features/admin/attachment/image.ts";
import { receiveImage, removeIfUnused, storeImage, URL_PREFIX } from "#src/features/admin/attachment/storage.ts";
import { badRequest } from "#src/lib/errors.ts";
import { DYNAMIC_TYPES, recordDynamic } from "./dynamic.ts";

export const AVATAR_SIZE = 200;
// A 5 MB file can still claim a huge canvas; refuse before decoding so memory stays bounded.
const MAX_PIXELS = 40_000_000;

/** Square 200×200 crop; PNG when the source has transparency, else JPEG (much smaller for photos). */
async function resize(bytes: Uint8Array): Promise<{ data: Uint8Array; ext: "png" | "jpg" }> {
  try {
    const img = sharp(bytes, { limitInputPixels: MAX_PIXELS, pages: 1 }).rotate();
    const meta = await img.metadata();
    const out = img.resize(AVATAR_SIZE, AVATAR_SIZE, { fit: "cover", position: "attention" });
    if (meta.hasAlpha) return { data: new Uint8Array(await out.png({ compressionLevel: 9 }).toBuffer()), ext: "png" };
    return { data: new Uint8Array(await out.jpeg({ quality: 86, mozjpeg: true }).toBuffer()), ext: "jpg" };
  } catch {
    throw badRequest("图片已损坏或无法识别，请换一张图片");
  }
}

/**
 * Avatar upload: the multipart `file`, streamed to a temp file and cut off at 5 MB while it arrives
 * (a chunked body included); the bytes must be an image by content (PNG/JPEG/GIF/WebP); it is
 * cropped to 200×200 and stored as an attachment of type 1. The previous avatar's row goes, and its
 * file too unless another row still points at it.
 */
export async function setAvatarFromRequest(userId: number, req: Request, ip: string) {
  const file = await receiveImage(req);
  try {
    if (file.size === 0) throw badRequest("请选择要上传的图片");
    return await setAvatarBytes(userId, await Bun.file(file.path).bytes(), file.name, ip);
  } finally {
    file.cleanup();
  }
}

async function setAvatarBytes(userId: number, bytes: Uint8Array, fileName: string, ip: string) {
  const info = sniffImage(bytes);
  if (!info) throw badRequest("只支持 PNG、JPEG、GIF、WebP 格式的图片（按文件内容识别）");
  if (info.width * info.height > MAX_PIXELS) throw badRequest("图片尺寸过大，请上传 4000 万像素以内的图片");
  const { data, ext } = await resize(bytes);
  const base = (fileName || "avatar").replace(/\.[^.]*$/, "").slice(0, 200) || "avatar";
  const row = await storeImage(new File([data as BlobPart], `${base}.${ext}`, { type: ext === "png" ? "image/png" : "image/jpeg" }), "avatar", { userId, ip });
  const db = getDb();
  const old = db.select({ avatar: user.avatar }).from(user).where(eq(user.id, userId)).get()?.avatar ?? "";
  db.transaction((tx) => {
    tx.update(user).set({ avatar: row.path, updated_at: Date.now() }).where(eq(user.id, userId)).run();
    // Re-uploading the same picture yields the same path: the older row is the duplicate then.
    if (old.startsWith(URL_PREFIX)) {
      tx.delete(attachment).where(and(eq(attachment.user_id, userId), eq(attachment.type, 1), eq(attachment.path, old), ne(attachment.id, row.id))).run();
    }
    recordDynamic(userId, DYNAMIC_TYPES.avatar, "更新了头像", tx);
  });
  if (old && old !== row.path && old.startsWith(URL_PREFIX)) removeIfUnused(old);
  return { avatar: row.path, width: AVATAR_SIZE, height: AVATAR_SIZE, attachment_id: row.id };
}
