// `bun scripts/make-samples.ts`: writes the sample documents of assets/samples/ (one per supported
// family: PDF, DOCX, PPTX, XLSX, TXT in GBK, EPUB, Markdown, PNG, and three longer documents for the
// retrieval harness) from the Chinese texts in scripts/samples/, with the same tools the converter
// uses (LibreOffice, Calibre, sharp). The outputs are committed,
// so seeding and tests never depend on this script; run it again only to change a sample.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import sharp from "sharp";
import { samples } from "./samples/content.ts";
import { firstAid, garden, handbook } from "./samples/retrieval.ts";
import { encodeGbk } from "./samples/gbk.ts";

const root = resolve(import.meta.dir, "..");
const outDir = join(root, "assets/samples");
const work = mkdtempSync(join(tmpdir(), "wk-samples-"));
const FONT = `"Noto Sans CJK SC", "Noto Serif CJK SC", "WenQuanYi Micro Hei", sans-serif`;

async function sh(cmd: string[], env: Record<string, string> = {}) {
  const p = Bun.spawn(cmd, { cwd: work, stdout: "pipe", stderr: "pipe", env: { ...process.env, HOME: work, ...env } });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0) throw new Error(`${cmd.join(" ")} → ${code}\n${out}\n${err}`);
}

/** soffice conversion of `file` in the work dir; returns the output path. */
async function soffice(file: string, to: string, infilter?: string) {
  await sh(["soffice", "--headless", "--norestore", `-env:UserInstallation=file://${work}/lo`, ...(infilter ? [`--infilter=${infilter}`] : []), "--convert-to", to, "--outdir", join(work, "out"), file]);
  const base = file.replace(/\.[^.]+$/, "");
  const ext = to.split(":")[0];
  return join(work, "out", `${base}.${ext}`);
}

const html = (title: string, body: string) => `<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8"><title>${title}</title>
<style>body{font-family:${FONT};font-size:11pt;line-height:1.5} h1{font-size:20pt;text-align:center} h2{font-size:14pt}
table{border-collapse:collapse;width:100%} td,th{border:1px solid #666;padding:3pt 6pt}</style></head><body>${body}</body></html>`;

function save(name: string, from: string | Uint8Array) {
  const dest = join(outDir, name);
  if (typeof from === "string") copyFileSync(from, dest);
  else writeFileSync(dest, from);
  console.log(`${name.padEnd(24)} ${(statSync(dest).size / 1024).toFixed(1)} KB`);
}

mkdirSync(outDir, { recursive: true });
try {
  // PDF and DOCX: Writer from HTML, explicit page breaks so each page's content is known.
  writeFileSync(join(work, "physics.html"), html(samples.physics.title, samples.physics.html));
  save("高中物理公式.pdf", await soffice("physics.html", "pdf:writer_pdf_Export", "HTML (StarWriter)"));
  writeFileSync(join(work, "summary.html"), html(samples.summary.title, samples.summary.html));
  save("工作总结模板.docx", await soffice("summary.html", "docx:MS Word 2007 XML", "HTML (StarWriter)"));

  // PPTX and XLSX: flat OpenDocument XML (one file, no zip) that Impress and Calc read and re-save.
  writeFileSync(join(work, "slides.fodp"), samples.slides);
  save("产品介绍演示.pptx", await soffice("slides.fodp", "pptx:Impress MS PowerPoint 2007 XML"));
  writeFileSync(join(work, "sales.fods"), samples.sales);
  save("销售数据表.xlsx", await soffice("sales.fods", "xlsx:Calc MS Excel 2007 XML"));

  // TXT in GBK (what Windows Notepad in Chinese saved for years), with CRLF line ends.
  save("古诗词选.txt", encodeGbk(samples.poems.replace(/\n/g, "\r\n")));

  // EPUB through Calibre, without a generated cover image (keeps it small).
  writeFileSync(join(work, "rules.html"), html(samples.rules.title, samples.rules.html));
  await sh(["ebook-convert", "rules.html", "rules.epub", "--no-default-epub-cover", "--title", samples.rules.title, "--authors", "人力资源部", "--language", "zh", "--chapter", "//h:h2", "--chapter-mark", "pagebreak"]);
  save("公司规章制度.epub", join(work, "rules.epub"));

  save("学习笔记.md", new TextEncoder().encode(samples.notes));

  save("请假审批流程图.png", await sharp(Buffer.from(samples.flowchart)).png({ compressionLevel: 9, palette: true }).toBuffer());

  // Longer documents for the retrieval harness's labelled questions (scripts/samples/retrieval.ts).
  save("员工手册.md", new TextEncoder().encode(handbook));
  save("家庭急救常识.txt", new TextEncoder().encode(firstAid));
  writeFileSync(join(work, "garden.html"), html(garden.title, garden.html));
  save("阳台种菜指南.docx", await soffice("garden.html", "docx:MS Word 2007 XML", "HTML (StarWriter)"));

  const total = readdirSync(outDir).reduce((n, f) => n + statSync(join(outDir, f)).size, 0);
  console.log(`total ${(total / 1024).toFixed(1)} KB`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
