import { existsSync, renameSync, rmSync, statSync, cpSync, mkdirSync, readdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { coverPath, documentDir, pagesDir } from "#src/features/documents/paths.ts";
import { setting } from "#src/features/settings/service.ts";
import { inspectPdf, pageTexts, renderCover, renderPages, type PageExt } from "./pdf.ts";
import { sniffDocument, type Sniffed } from "./sniff.ts";
import { toPdf } from "./topdf.ts";
import type { TextResult } from "./textWork.ts";
import { ConvertError, type RunOptions } from "./tools.ts";

export interface ConverterSettings {
  extension: PageExt;
  maxPreview: number;
  maxPreviewPercent: number;
  gzip: boolean;
  timeoutMs: number;
  maxPages: number;
}

/** The `converter` settings group, with sane bounds whatever the table holds. */
export function converterSettings(): ConverterSettings {
  const ext = String(setting("converter", "extension"));
  const num = (name: string, def: number) => {
    const n = Number(setting("converter", name));
    return Number.isFinite(n) && n > 0 ? n : def;
  };
  return {
    extension: ext === ".png" || ext === ".webp" ? ext : ".svg",
    maxPreview: Math.floor(num("max_preview", 50)),
    maxPreviewPercent: Math.min(100, num("max_preview_percent", 100)),
    gzip: Boolean(setting("converter", "enable_gzip")),
    timeoutMs: num("timeout", 30) * 60_000,
    maxPages: Math.floor(num("max_pages", 3000)),
  };
}

/** How many pages get images: min(max_preview, ceil(pages × max_preview_percent %)). */
export const previewCount = (pages: number, s: Pick<ConverterSettings, "maxPreview" | "maxPreviewPercent">) =>
  Math.max(Math.min(pages, 1), Math.min(pages, s.maxPreview, Math.ceil((pages * s.maxPreviewPercent) / 100)));

export interface Converted {
  type: Sniffed;
  pages: number;
  preview: number;
  width: number;
  height: number;
  /** text of page 1…pages */
  texts: string[];
  /** rendered pages and cover, still in the work dir until published */
  pagesDir: string;
  cover: string;
  /** what opts.prepare made of the page texts (keywords, description, index segmentation) */
  prepared?: TextResult;
  timings: Record<string, number>;
}

export interface ConvertOptions {
  /** the file name or stored extension: only decides between look-alikes (doc/wps, txt/md) */
  hint: string;
  workDir: string;
  signal: AbortSignal;
  settings: ConverterSettings;
  progress?: (pct: number) => void;
  /** the text work on the page texts (textWork.ts), started as soon as they are extracted, beside the page rendering */
  prepare?: (texts: string[]) => Promise<TextResult>;
}

/**
 * The original as a PDF in the work dir (a PDF original is used where it is), after the checks every
 * conversion makes. The full-page render (renderFull.ts) calls it again rather than keeping office
 * formats' intermediate PDFs: see the README decision log.
 */
export async function sourcePdf(file: string, hint: string, ro: RunOptions): Promise<{ type: Sniffed; pdf: string }> {
  // Tools run inside the work dir: a relative path would point there.
  const src = resolve(file);
  if (!existsSync(src)) throw new ConvertError("原始文件不存在，请重新上传");
  if (statSync(src).size === 0) throw new ConvertError("文件为空（0 字节），无法转换");
  // Read off the event loop: an original may be hundreds of megabytes.
  const type = sniffDocument(new Uint8Array(await Bun.file(src).arrayBuffer()), hint);
  if (!type) throw new ConvertError("无法识别的文件格式：文件内容不是受支持的文档（PDF、Office、电子书、文本或图片）");
  return { type, pdf: await toPdf(src, type, ro) };
}

/** The whole conversion of one original file inside a work dir. Throws ConvertError with a Chinese message. */
export async function convertFile(file: string, opts: ConvertOptions): Promise<Converted> {
  const { workDir, signal, settings } = opts;
  const ro: RunOptions = { signal, workDir };
  const timings: Record<string, number> = {};
  let t = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    timings[name] = Math.round(now - t);
    t = now;
  };

  const { type, pdf } = await sourcePdf(file, opts.hint, ro);
  lap("toPdf");
  opts.progress?.(30);
  const info = await inspectPdf(pdf, ro);
  if (info.pages > settings.maxPages) {
    throw new ConvertError(`文档共 ${info.pages} 页，超过允许的最大页数 ${settings.maxPages} 页`);
  }
  lap("inspect");
  const preview = previewCount(info.pages, settings);
  const pages = join(workDir, "pages");
  const cover = join(workDir, "cover.png");
  // Text and images come from separate tools: run them side by side (each branch timed too).
  const timed = async <T>(name: string, p: Promise<T>): Promise<T> => {
    const s = performance.now();
    const r = await p;
    timings[name] = Math.round(performance.now() - s);
    return r;
  };
  const [{ texts, prepared }] = await Promise.all([
    timed("render.text", pageTexts(pdf, info.pages, ro).then(async (texts) => {
      const s = performance.now();
      const prepared = await opts.prepare?.(texts);
      if (prepared) timings["render.text_work"] = Math.round(performance.now() - s);
      return { texts, prepared };
    })),
    timed("render.pages", renderPages(pdf, preview, settings.extension, settings.gzip, pages, ro, timings)),
    timed("render.cover", renderCover(pdf, info, cover, ro)),
  ]);
  lap("render");
  opts.progress?.(90);
  return { type, pages: info.pages, preview, width: info.width, height: info.height, texts, pagesDir: pages, cover, prepared, timings };
}

const move = (from: string, to: string) => {
  try {
    renameSync(from, to);
  } catch (e) {
    // Another file system (DATA_DIR/tmp mounted elsewhere): copy instead.
    if ((e as NodeJS.ErrnoException).code !== "EXDEV") throw e;
    cpSync(from, to, { recursive: true });
    rmSync(from, { recursive: true, force: true });
  }
};

/**
 * Moves the rendered pages and cover to the document's hash folder. The old pages folder is
 * replaced as a whole, so no stale page of an earlier conversion survives; it is renamed away at
 * once and its files unlinked off the event loop (a few hundred pages took up to 10 ms of rmSync).
 */
export async function publish(hash: string, c: Pick<Converted, "pagesDir" | "cover">) {
  mkdirSync(documentDir(hash), { recursive: true });
  const dest = pagesDir(hash);
  const old = `${dest}.old-${process.pid}-${Date.now()}`;
  if (existsSync(dest)) renameSync(dest, old);
  move(c.pagesDir, dest);
  move(c.cover, coverPath(hash));
  // This one, and any a crashed process left behind.
  const stale = readdirSync(documentDir(hash)).filter((n) => n.startsWith(`${basename(dest)}.old-`));
  await Promise.all(stale.map((n) => rm(join(documentDir(hash), n), { recursive: true, force: true, maxRetries: 2 })));
}
