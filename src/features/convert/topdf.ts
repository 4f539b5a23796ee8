import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import sharp, { type OutputInfo } from "sharp";
import { decodeText, type Sniffed } from "./sniff.ts";
import { ConvertError, run, type RunOptions } from "./tools.ts";
import { checkZipSize } from "./zipcheck.ts";

// Every supported format becomes a PDF first; the page steps then work on PDFs only.

// LibreOffice splits into per-application packages; a missing one makes soffice fail to load the file.
const LO_PACKAGE: Record<string, string> = {
  ppt: "libreoffice-impress-nogui", pptx: "libreoffice-impress-nogui", ppsx: "libreoffice-impress-nogui", pps: "libreoffice-impress-nogui",
  odp: "libreoffice-impress-nogui", dps: "libreoffice-impress-nogui", pot: "libreoffice-impress-nogui",
  xls: "libreoffice-calc-nogui", xlsx: "libreoffice-calc-nogui", ods: "libreoffice-calc-nogui", et: "libreoffice-calc-nogui", xlt: "libreoffice-calc-nogui",
};
const loPackage = (ext: string) => LO_PACKAGE[ext] ?? "libreoffice-writer-nogui";

/** soffice with a private profile per work dir, so parallel conversions never share a lock. */
async function soffice(input: string, ro: RunOptions, extraArgs: string[] = [], pkg = "libreoffice-writer-nogui"): Promise<string> {
  const outDir = join(ro.workDir, "soffice-out");
  mkdirSync(outDir, { recursive: true });
  const profile = `file://${join(ro.workDir, "lo-profile")}`;
  const r = await run("soffice", [
    "--headless", "--norestore", "--nolockcheck", "--nodefault", `-env:UserInstallation=${profile}`,
    ...extraArgs, "--convert-to", "pdf", "--outdir", outDir, input,
  ], { ...ro, pkg, env: { HOME: ro.workDir } });
  const base = input.slice(input.lastIndexOf("/") + 1).replace(/\.[^.]+$/, "");
  const pdf = join(outDir, `${base}.pdf`);
  if (!existsSync(pdf) || statSync(pdf).size === 0) {
    if (/source file could not be loaded/i.test(r.stderr + r.stdout)) {
      throw new ConvertError(`LibreOffice 无法打开该文件：文件已损坏、已加密，或未安装 Debian 软件包 ${pkg}`);
    }
    throw new ConvertError(`LibreOffice 转换失败${r.code ? `（退出码 ${r.code}）` : ""}，文件可能已损坏`);
  }
  return pdf;
}

async function officeToPdf(src: string, type: Sniffed, ro: RunOptions) {
  if (type.ext.endsWith("x") || type.ext.startsWith("od")) checkZipSize(readFileSync(src));
  // soffice picks its import filter partly by extension: give it the sniffed one.
  const input = join(ro.workDir, `source.${type.ext}`);
  copyFileSync(src, input);
  return soffice(input, ro, [], loPackage(type.ext));
}

async function ebookToPdf(src: string, type: Sniffed, ro: RunOptions) {
  if (type.ext === "epub") checkZipSize(readFileSync(src));
  const input = join(ro.workDir, `source.${type.ext}`);
  copyFileSync(src, input);
  const out = join(ro.workDir, "ebook.pdf");
  // Calibre renders through QtWebEngine, which needs no display offscreen and refuses root without these.
  const r = await run("ebook-convert", [input, out, "--paper-size", "a4", "--pdf-default-font-size", "16", "--pdf-page-margin-top", "48", "--pdf-page-margin-bottom", "48"], {
    ...ro,
    env: { HOME: ro.workDir, QT_QPA_PLATFORM: "offscreen", QTWEBENGINE_DISABLE_SANDBOX: "1", QTWEBENGINE_CHROMIUM_FLAGS: "--no-sandbox" },
  });
  if (!existsSync(out) || statSync(out).size === 0) {
    const drm = /DRM/i.test(r.stderr + r.stdout);
    throw new ConvertError(drm ? "电子书受 DRM 保护，无法转换" : "电子书转换失败，文件可能已损坏");
  }
  return out;
}

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

// Writer's HTML import honours these; Noto CJK comes with fonts-noto-cjk, WenQuanYi as a fallback.
const FONT_STACK = `"Noto Sans CJK SC", "Noto Serif CJK SC", "WenQuanYi Micro Hei", sans-serif`;
const page = (title: string, body: string) =>
  `<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>
body{font-family:${FONT_STACK};font-size:12pt;line-height:1.6}
h1,h2,h3,h4{font-family:${FONT_STACK}}
pre,code{font-family:"Noto Sans Mono CJK SC",monospace;font-size:10pt}
table{border-collapse:collapse}td,th{border:1px solid #999;padding:2pt 6pt}
</style></head><body>${body}</body></html>`;

function textToHtml(text: string) {
  // One paragraph per line keeps the author's line breaks; blank lines stay visible.
  const body = text.replace(/\r\n?/g, "\n").split("\n").map((l) => (l.trim() ? `<p>${escapeHtml(l)}</p>` : "<p>&nbsp;</p>")).join("\n");
  return page("", body);
}

function markdownToHtml(md: string) {
  const html = Bun.markdown.html(md, { tables: true, strikethrough: true, tasklists: true, noHtmlBlocks: true, noHtmlSpans: true, autolinks: true });
  // No remote or local images: soffice would fetch them while converting.
  return page("", html.replace(/<img\b[^>]*?alt="([^"]*)"[^>]*>/gi, "$1").replace(/<img\b[^>]*>/gi, ""));
}

async function textToPdf(src: string, type: Sniffed, ro: RunOptions) {
  const text = decodeText(readFileSync(src));
  if (!text.trim()) throw new ConvertError("文档内容为空");
  const html = join(ro.workDir, "text.html");
  writeFileSync(html, type.ext === "md" ? markdownToHtml(text) : textToHtml(text));
  // Load into Writer proper (not Writer/Web), so the PDF gets real A4 pages.
  return soffice(html, ro, ["--infilter=HTML (StarWriter)"]);
}

/**
 * An image as a one-page PDF: the page is A4 wide (595 pt) and as tall as the image's aspect ratio,
 * the pixels kept losslessly (RGB, Flate).
 */
export async function imageToPdf(src: string, out: string) {
  let raw: { data: Buffer; info: OutputInfo };
  try {
    raw = await sharp(src, { limitInputPixels: 100_000_000 }).rotate().flatten({ background: "#ffffff" })
      .resize({ width: 2480, height: 7016, fit: "inside", withoutEnlargement: true }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  } catch (e) {
    throw new ConvertError(`图片无法读取：${String((e as Error).message).slice(0, 80)}`);
  }
  const { width: w, height: h } = raw.info;
  const pw = 595;
  const ph = Math.max(1, Math.round((595 * h) / w));
  const data = deflateSync(raw.data);
  const content = `q ${pw} 0 0 ${ph} 0 0 cm /Im0 Do Q`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${pw} ${ph}] /Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>`,
    null, // the image stream, written as bytes below
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  const chunks: Buffer[] = [Buffer.from("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n", "latin1")];
  const offsets: number[] = [];
  let pos = chunks[0]!.length;
  objects.forEach((body, i) => {
    offsets.push(pos);
    const parts = body === null
      ? [Buffer.from(`${i + 1} 0 obj\n<< /Type /XObject /Subtype /Image /Width ${w} /Height ${h} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode /Length ${data.length} >>\nstream\n`), data, Buffer.from("\nendstream\nendobj\n")]
      : [Buffer.from(`${i + 1} 0 obj\n${body}\nendobj\n`)];
    for (const p of parts) (chunks.push(p), (pos += p.length));
  });
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  chunks.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${pos}\n%%EOF\n`));
  writeFileSync(out, Buffer.concat(chunks));
  return out;
}

/** Converts the original to a PDF in the work dir (a PDF is used as it is). */
export async function toPdf(src: string, type: Sniffed, ro: RunOptions): Promise<string> {
  switch (type.kind) {
    case "pdf": return src;
    case "office": return officeToPdf(src, type, ro);
    case "ebook": return ebookToPdf(src, type, ro);
    case "text": return textToPdf(src, type, ro);
    case "image": return imageToPdf(src, join(ro.workDir, "image.pdf"));
  }
}
