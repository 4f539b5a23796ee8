import { existsSync, mkdirSync, openSync, readSync, closeSync, renameSync, statSync, unlinkSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { gzip as gzipCb } from "node:zlib";
import sharp from "sharp";
import { ConvertError, run, type RunOptions } from "./tools.ts";

// Steps on a PDF: inspect, take the text of every page, render pages (the preview at conversion,
// the rest later for entitled readers) and the cover.

export type PageExt = ".svg" | ".png" | ".webp";
export interface PdfInfo { pages: number; width: number; height: number }

/** Cover thumbnails are 210:297 (A4 portrait), stored at twice that for high-density screens. */
export const COVER_WIDTH = 420;
export const COVER_HEIGHT = 594;

/** Page count and the first page's size in points; refuses password-protected and broken files. */
export async function inspectPdf(file: string, ro: RunOptions): Promise<PdfInfo> {
  const r = await run("pdfinfo", ["-f", "1", "-l", "1", file], { ...ro, maxStdout: 1 << 20 });
  if (r.code !== 0) {
    if (/password/i.test(r.stderr)) throw new ConvertError("文档已加密，无法转换");
    throw new ConvertError("文件已损坏，无法读取（PDF 结构错误）");
  }
  const pages = Number(/^Pages:\s+(\d+)/m.exec(r.stdout)?.[1] ?? 0);
  if (!pages) throw new ConvertError("文件已损坏，无法读取（没有任何页面）");
  const size = /^Page\s+1 size:\s+([\d.]+) x ([\d.]+)/m.exec(r.stdout) ?? /^Page size:\s+([\d.]+) x ([\d.]+)/m.exec(r.stdout);
  const rot = Number(/^Page\s+1 rot:\s+(\d+)/m.exec(r.stdout)?.[1] ?? 0);
  let width = Math.round(Number(size?.[1] ?? 595));
  let height = Math.round(Number(size?.[2] ?? 842));
  if (rot % 180 === 90) [width, height] = [height, width];
  return { pages, width, height };
}

/** The text of every page, in page order (pdftotext ends each page with a form feed). */
export async function pageTexts(file: string, pages: number, ro: RunOptions): Promise<string[]> {
  const r = await run("pdftotext", ["-layout", "-enc", "UTF-8", "-q", file, "-"], ro);
  if (r.code !== 0) throw new ConvertError("文件已损坏，无法提取文字");
  const parts = r.stdout.split("\f");
  return Array.from({ length: pages }, (_, i) => cleanPageText(parts[i] ?? ""));
}

/** Trailing spaces and runs of blank lines carry no meaning for search or the AI. */
const cleanPageText = (t: string) => t.replace(/[ \t\u3000]+$/gm, "").replace(/\n{3,}/g, "\n\n").trim();

const firstError = (stderr: string) => stderr.split("\n").find((l) => /^error:/.test(l))?.replace(/^error:\s*/, "") ?? "";

/** 1,2,3,7,9,10 → "1-3,7,9-10": mutool's page list, short however many pages a document has. */
export function pageRanges(pages: number[]): string {
  const out: string[] = [];
  for (let i = 0; i < pages.length; ) {
    let j = i;
    while (j + 1 < pages.length && pages[j + 1] === pages[j]! + 1) j++;
    out.push(i === j ? `${pages[i]}` : `${pages[i]}-${pages[j]}`);
    i = j + 1;
  }
  return out.join(",");
}

/**
 * Renders pages 1..count (or the listed pages, ascending) into `dir` as N.svg / N.png / N.webp, with
 * N.gzip.svg copies when asked; N is the page's number in the document either way.
 * mutool exits 0 even when a page fails, so every expected file is checked.
 */
export async function renderPages(file: string, pages: number | number[], ext: PageExt, gzip: boolean, dir: string, ro: RunOptions, timings?: Record<string, number>) {
  mkdirSync(dir, { recursive: true });
  const list = typeof pages === "number" ? Array.from({ length: pages }, (_, i) => i + 1) : pages;
  if (!list.length) return;
  const format = ext === ".svg" ? "svg" : "png";
  const args = ["draw", "-q", "-F", format, "-o", join(dir, `%d.${format}`)];
  if (format === "png") args.push("-r", "96");
  const drawn = run("mutool", [...args, file, pageRanges(list)], ro);
  // gzip copies are made while mutool draws: it writes the pages in list order, so once page k+1
  // exists page k is complete. The compression runs on libuv's thread pool (node:zlib's async
  // gzip), never on the event loop, two pages at a time.
  const gz = ext === ".svg" && gzip ? new PageGzipper(dir, list, ro.signal) : null;
  const r = gz ? await gz.follow(drawn) : await drawn;
  for (const n of list) {
    if (!existsSync(join(dir, `${n}.${format}`))) {
      const why = firstError(r.stderr);
      throw new ConvertError(`第 ${n} 页渲染失败${why ? `：${why.slice(0, 120)}` : "，文件可能已损坏"}`);
    }
  }
  if (gz) {
    const t = performance.now();
    await gz.finish();
    if (timings) timings["render.gzip_tail"] = Math.round(performance.now() - t);
  }
  if (ext === ".webp") {
    // sharp runs on libuv's thread pool, so these encodes stay off the event loop.
    for (const n of list) {
      ro.signal.throwIfAborted();
      const png = join(dir, `${n}.png`);
      await sharp(png).webp({ quality: 82 }).toFile(join(dir, `${n}.webp`));
      unlinkSync(png);
    }
  }
}

const gzipAsync = promisify(gzipCb);
const GZIP_AT_ONCE = 2;

/** N.gzip.svg beside each N.svg of `list` (ascending), made in the background as the pages appear. */
class PageGzipper {
  private next = 0;
  private running: Promise<void>[] = [];
  private failed: unknown = null;
  constructor(private dir: string, private list: number[], private signal: AbortSignal) {}

  private async one(n: number) {
    const svg = join(this.dir, `${n}.svg`);
    // Written under a temporary name: a half-written .gzip.svg is never left behind as a page.
    const tmp = join(this.dir, `${n}.gzip.svg.part`);
    await writeFile(tmp, await gzipAsync(await readFile(svg), { level: 6 }));
    renameSync(tmp, join(this.dir, `${n}.gzip.svg`));
  }

  /** Starts the pages known to be complete (upTo: index into list, exclusive), at most GZIP_AT_ONCE at a time. */
  private async pump(upTo: number) {
    while (this.next < upTo && !this.failed) {
      this.signal.throwIfAborted();
      if (this.running.length >= GZIP_AT_ONCE) await Promise.race(this.running);
      const n = this.list[this.next++]!;
      const p: Promise<void> = this.one(n).catch((e) => void (this.failed ??= e)).finally(() => {
        this.running = this.running.filter((q) => q !== p);
      });
      this.running.push(p);
    }
    if (this.failed) throw this.failed;
  }

  /** Gzips behind mutool while it draws; answers its result. */
  async follow<T>(drawn: Promise<T>): Promise<T> {
    let done = false;
    const result = drawn.finally(() => void (done = true));
    result.catch(() => {});
    while (!done) {
      // Page list[k] is complete once list[k+1] exists (checked from the last one started).
      let ready = this.next;
      while (ready + 1 < this.list.length && existsSync(join(this.dir, `${this.list[ready + 1]}.svg`))) ready++;
      await this.pump(ready);
      await Promise.race([result.then(() => {}, () => {}), Bun.sleep(15)]);
    }
    return result;
  }

  /** The rest, once mutool has exited and every page is checked. */
  async finish() {
    await this.pump(this.list.length);
    await Promise.all(this.running);
    if (this.failed) throw this.failed;
  }
}

/**
 * The first page as a 420×594 PNG (210:297): a portrait page is cropped from the top, a landscape
 * one (slides, spreadsheets) is fitted whole on white, since a portrait crop would keep a sliver.
 */
export async function renderCover(file: string, info: PdfInfo, out: string, ro: RunOptions) {
  // A page of the thumbnail's own shape (A4 and the like) is drawn by mutool at exactly 420×594,
  // no resize needed; anything else is drawn just large enough and cropped or fitted by sharp.
  const fits = Math.abs(info.width / info.height - COVER_WIDTH / COVER_HEIGHT) < 0.002;
  if (fits) {
    const r = await run("mutool", ["draw", "-q", "-F", "png", "-w", String(COVER_WIDTH), "-h", String(COVER_HEIGHT), "-o", out, file, "1"], ro);
    const size = pngSize(out);
    if (size?.width === COVER_WIDTH && size.height === COVER_HEIGHT) return;
    if (!size) throw new ConvertError(`封面生成失败${firstError(r.stderr) ? `：${firstError(r.stderr).slice(0, 120)}` : ""}`);
  }
  // Just enough resolution to fill the thumbnail after cropping, never absurd for tiny or huge pages.
  const dpi = Math.min(300, Math.max(30, Math.ceil(72 * Math.max(COVER_WIDTH / info.width, COVER_HEIGHT / info.height))));
  const src = `${out}.src.png`;
  const r = await run("mutool", ["draw", "-q", "-F", "png", "-r", String(dpi), "-o", src, file, "1"], ro);
  if (!existsSync(src) || statSync(src).size === 0) {
    throw new ConvertError(`封面生成失败${firstError(r.stderr) ? `：${firstError(r.stderr).slice(0, 120)}` : ""}`);
  }
  const landscape = info.width > info.height;
  await sharp(src).flatten({ background: "#ffffff" })
    .resize(COVER_WIDTH, COVER_HEIGHT, landscape ? { fit: "contain", background: "#ffffff" } : { fit: "cover", position: "top" })
    .png().toFile(out);
  unlinkSync(src);
}

/** Width and height from a PNG's IHDR, or null when the file is missing or not a PNG. */
function pngSize(file: string): { width: number; height: number } | null {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return null;
  }
  try {
    const head = Buffer.alloc(24);
    if (readSync(fd, head, 0, 24, 0) < 24 || head.readUInt32BE(12) !== 0x49484452) return null;
    return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
  } finally {
    closeSync(fd);
  }
}
