// Documents for the reader tests, inserted directly with small SVG page files written where the
// conversion would put them (pagePath under a per-file documents root).
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { getDb } from "#db/client.ts";
import { document, documentCategory } from "#db/schema/documents.ts";
import { category } from "#db/schema/site.ts";
import { coverPath, pagePath, setDocumentsRoot } from "#src/features/documents/paths.ts";
import { updateConfig } from "#src/features/settings/service.ts";

export function useDocumentsRoot() {
  const dir = mkdtempSync(join(tmpdir(), "wk-reader-docs-"));
  setDocumentsRoot(dir);
  return dir;
}

export const svgPage = (n: number) => `<svg xmlns="http://www.w3.org/2000/svg" width="595" height="842" viewBox="0 0 595 842"><rect width="595" height="842" fill="#fff"/><text x="60" y="120" font-size="40">第 ${n} 页 page ${n}</text></svg>`;

const write = (path: string, data: string | Uint8Array) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, data);
};

export type PageFiles = "svg" | "gzip" | "both" | "png" | "webp" | "none";

export interface DocOptions {
  userId: number;
  title?: string;
  keywords?: string;
  description?: string;
  status?: number;
  pages?: number;
  preview?: number;
  /** how many page files exist on disk (default: all pages, beyond the preview too) */
  onDisk?: number;
  files?: PageFiles;
  categoryIds?: number[];
  convert_error?: string;
  deleted?: boolean;
  width?: number;
  height?: number;
  cover?: boolean;
}

let n = 0;
export function makeDoc(o: DocOptions) {
  n++;
  const hash = new Bun.CryptoHasher("md5").update(`reader-doc-${n}-${Math.random()}`).digest("hex");
  const pages = o.pages ?? 3;
  const files = o.files ?? "svg";
  const leaf = o.categoryIds?.at(-1) ?? 0;
  const row = getDb().insert(document).values({
    uuid: crypto.randomUUID().replaceAll("-", ""), title: o.title ?? `测试文档 ${n}`, keywords: o.keywords ?? "", description: o.description ?? "",
    user_id: o.userId, category_id: leaf, hash, ext: "pdf", size: 123456, pages, preview: o.preview ?? pages,
    width: o.width ?? 595, height: o.height ?? 842, status: o.status ?? 2, convert_error: o.convert_error ?? "",
    deleted_at: o.deleted ? Date.now() : null,
  }).returning().get();
  for (const c of o.categoryIds ?? []) getDb().insert(documentCategory).values({ document_id: row.id, category_id: c }).run();
  for (let p = 1; p <= (o.onDisk ?? pages); p++) {
    const svg = svgPage(p);
    if (files === "svg" || files === "both") write(pagePath(hash, p, ".svg"), svg);
    if (files === "gzip" || files === "both") write(pagePath(hash, p, ".svg", true), Bun.gzipSync(new TextEncoder().encode(svg)));
    if (files === "png") write(pagePath(hash, p, ".png"), new Uint8Array([0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10, p]));
    if (files === "webp") write(pagePath(hash, p, ".webp"), new TextEncoder().encode(`RIFF....WEBPVP8 ${p}`));
  }
  if (o.cover) write(coverPath(hash), new Uint8Array([0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10, 0]));
  return row;
}

export function makeCategory(title: string, parentId = 0) {
  return getDb().insert(category).values({ title, parent_id: parentId, type: 0 }).returning().get();
}

export const setConfig = (items: [string, string, unknown][]) => updateConfig(items.map(([category, name, value]) => ({ category, name, value })));
