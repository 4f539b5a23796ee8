import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { ConvertError, run, type RunOptions } from "#src/features/convert/tools.ts";

// One page of the document's PDF as a grey PNG for the engine. MuPDF draws a page whose image is
// broken as blank and still exits 0, so its "error:" lines decide: such a page fails on its own
// with the tool's reason instead of being recognised as an empty page.

/** Longest side in pixels, whatever the page size and dpi (a poster at 600 dpi would not fit memory). */
const MAX_SIDE = 6000;

const errorsOf = (stderr: string) => stderr.split("\n").filter((l) => /^error:/.test(l)).map((l) => l.replace(/^error:\s*/, ""));

export async function renderPageImage(pdf: string, page: number, dpi: number, dir: string, ro: RunOptions): Promise<string> {
  const out = join(dir, `ocr-${page}.png`);
  const r = await run("mutool", ["draw", "-q", "-c", "gray", "-r", String(dpi), "-w", String(MAX_SIDE), "-h", String(MAX_SIDE), "-o", out, pdf, String(page)], ro);
  const errors = errorsOf(r.stderr);
  if (errors.length) throw new ConvertError(`第 ${page} 页图像已损坏，无法识别：${errors[0]!.slice(0, 120)}`);
  if (r.code !== 0 || !existsSync(out) || statSync(out).size === 0) throw new ConvertError(`第 ${page} 页渲染失败，无法识别`);
  return out;
}
