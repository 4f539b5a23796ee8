// External converters the document pipeline needs (design.md §6): whether each is installed, its
// version and the Debian package to install when it is missing.

export interface ToolStatus { name: string; label: string; installed: boolean; version: string; package: string; error: string }

export const TOOLS: { name: string; label: string; args: string[]; package: string }[] = [
  { name: "soffice", label: "LibreOffice（Office 文档转 PDF）", args: ["--version"], package: "libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui" },
  { name: "mutool", label: "MuPDF（PDF 页面渲染）", args: ["-v"], package: "mupdf-tools" },
  { name: "pdftotext", label: "Poppler pdftotext（PDF 文本提取）", args: ["-v"], package: "poppler-utils" },
  { name: "pdftocairo", label: "Poppler pdftocairo（PDF 转 SVG/PNG）", args: ["-v"], package: "poppler-utils" },
  { name: "ebook-convert", label: "Calibre（EPUB/MOBI 转换）", args: ["--version"], package: "calibre" },
];

const TIMEOUT_MS = 10_000;
const CACHE_MS = 60_000;

async function probe(t: (typeof TOOLS)[number]): Promise<ToolStatus> {
  const base = { name: t.name, label: t.label, package: t.package };
  const bin = Bun.which(t.name);
  if (!bin) return { ...base, installed: false, version: "", error: "" };
  try {
    const p = Bun.spawn([bin, ...t.args], { stdout: "pipe", stderr: "pipe", stdin: "ignore", timeout: TIMEOUT_MS, killSignal: "SIGKILL" });
    const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    // Some tools print their version on stderr; take the first line that has a version number.
    const line = `${out}\n${err}`.split("\n").map((l) => l.trim()).find((l) => /\d+\.\d+/.test(l)) ?? "";
    if (p.signalCode) return { ...base, installed: true, version: line, error: `检测超时（${TIMEOUT_MS / 1000} 秒）` };
    return { ...base, installed: true, version: line.slice(0, 120), error: "" };
  } catch (e) {
    return { ...base, installed: true, version: "", error: String((e as Error).message ?? e).slice(0, 200) };
  }
}

let cached: { at: number; result: Promise<ToolStatus[]> } | null = null;

/** Probes run in parallel, each with a time-out; answers are reused for 60 s. */
export function envs(now = Date.now()): Promise<ToolStatus[]> {
  if (!cached || now - cached.at > CACHE_MS) cached = { at: now, result: Promise.all(TOOLS.map(probe)) };
  return cached.result;
}
