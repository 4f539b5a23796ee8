import { createHmac, timingSafeEqual } from "node:crypto";
import { invalidateSettings, setting, updateConfig } from "#src/features/settings/service.ts";

// Download links are capabilities: whoever holds one may fetch the file until it expires, so they
// are short-lived and bound (by an HMAC under a server secret) to the document, expiry and user.

/** download.secret_key, created on first use so a fresh site signs without admin setup. */
function secretKey(): string {
  const have = String(setting("download", "secret_key") ?? "");
  if (have) return have;
  const made = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  updateConfig([{ category: "download", name: "secret_key", value: made }]);
  // Read back what was stored, so a concurrent first use settles on one key.
  invalidateSettings();
  return String(setting("download", "secret_key") ?? made);
}

const mac = (uuid: string, expires: number, userId: number) =>
  createHmac("sha256", secretKey()).update(`${uuid}|${expires}|${userId}`).digest("hex");

/** A relative URL valid for download.url_duration seconds from `now` (ms). */
export function signDownloadUrl(uuid: string, userId: number, now = Date.now()): { url: string; expires: number } {
  const ttl = Math.max(10, Number(setting("download", "url_duration")) || 60);
  const expires = Math.floor(now / 1000) + ttl;
  const q = new URLSearchParams({ expires: String(expires), sig: mac(uuid, expires, userId), u: String(userId) });
  return { url: `/download/${encodeURIComponent(uuid)}?${q}`, expires };
}

/** True when the signature matches and the link has not expired. */
export function verifyDownloadUrl(uuid: string, expires: number, userId: number, sig: string, now = Date.now()): boolean {
  if (expires < Math.floor(now / 1000)) return false;
  const want = mac(uuid, expires, userId);
  return sig.length === want.length && timingSafeEqual(Buffer.from(sig), Buffer.from(want));
}

const MIME: Record<string, string> = {
  pdf: "application/pdf",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  ppt: "application/vnd.ms-powerpoint",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  odt: "application/vnd.oasis.opendocument.text",
  odp: "application/vnd.oasis.opendocument.presentation",
  ods: "application/vnd.oasis.opendocument.spreadsheet",
  rtf: "application/rtf",
  wps: "application/vnd.ms-works",
  epub: "application/epub+zip",
  mobi: "application/x-mobipocket-ebook",
  azw3: "application/vnd.amazon.ebook",
  txt: "text/plain; charset=utf-8",
  md: "text/markdown; charset=utf-8",
  csv: "text/csv; charset=utf-8",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  bmp: "image/bmp",
  tif: "image/tiff",
  tiff: "image/tiff",
};

export const contentTypeOf = (ext: string) => MIME[ext.toLowerCase().replace(/^\./, "")] ?? "application/octet-stream";

// RFC 5987 attr-char leaves out some characters encodeURIComponent keeps.
const rfc5987 = (s: string) => encodeURIComponent(s).replace(/['()*!]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * `attachment` with an ASCII fallback name for old clients and the real (Chinese) name as
 * filename* (RFC 6266 / RFC 5987). Separators and control characters never reach a file name.
 */
export function contentDisposition(title: string, ext: string): string {
  const e = ext.toLowerCase().replace(/^\./, "");
  let base = title.replace(/[\\/:*?"<>|\u0000-\u001f\u007f]+/g, "_").trim();
  if (base.toLowerCase().endsWith(`.${e}`)) base = base.slice(0, -(e.length + 1));
  base = base.replace(/^[.\s]+/, "") || "document";
  const full = `${base}.${e}`;
  const stripped = base.replace(/[^\x20-\x7e]+/g, "").replace(/[%;\\"]/g, "_").replace(/\s+/g, " ").trim();
  // Nothing readable left (an all-Chinese title): a neutral name beats a row of underscores.
  const ascii = /[A-Za-z0-9]/.test(stripped) ? stripped : "document";
  return `attachment; filename="${ascii}.${e}"; filename*=UTF-8''${rfc5987(full)}`;
}
