import { api } from "../api.ts";
import { toast } from "../toast.ts";

const TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"];

/** Uploads one image as an article attachment (type 3); answers its /uploads/article/… path or null (toast said why). */
export async function uploadArticleImage(file: File): Promise<string | null> {
  if (!TYPES.includes(file.type)) return toast("只支持 PNG、JPEG、GIF、WebP 格式的图片", "error"), null;
  if (file.size > 5 * 1024 * 1024) return toast("图片大小不能超过 5 MB", "error"), null;
  const form = new FormData();
  form.append("file", file);
  const r = await api<{ path: string }>("POST", "/upload/article", { form });
  if (!r.ok || !r.data) return toast(r.message || "图片上传失败", "error"), null;
  return r.data.path;
}
