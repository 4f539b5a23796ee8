// OCR quality and speed (issue 16): pages of sample PDFs that have a text layer are drawn as images
// and recognised by each engine; the character error rate is measured against the page's own text
// layer (pdftotext), along with seconds per page (wall and CPU). Image sets: 150 dpi grey JPEG (a
// typical scan, the reference point) and what the ocr.document job feeds the engine
// (mutool, grey PNG) at 150, 200 and 300 dpi, to choose ocr.dpi. Engines: tesseract.js (chi_sim+eng 4.0.0 data), PaddleOCR
// (PP-OCRv4 ONNX), and Debian's `tesseract` CLI with chi_sim when installed (for comparison only).
// Every engine runs at normal priority here (the job runs PaddleOCR under `nice`), so they compare
// on equal terms; the load average printed first says how busy the machine was.
//   bun scripts/bench/ocr.ts [--pages N] [--paddle-threads N]
//   (defaults: all 6 pages of the two inputs; the job's PaddleOCR thread count)
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setDocumentsRoot } from "#src/features/documents/paths.ts";
import { closeEngines } from "#src/features/ocr/engines/pool.ts";
import { paddleThreads, startPaddle } from "#src/features/ocr/engines/paddle.ts";
import { startTesseract } from "#src/features/ocr/engines/tesseract.ts";
import type { EngineInstance } from "#src/features/ocr/engines/types.ts";
import { OCR_GROUP } from "#src/features/ocr/settings.ts";
import { cer, cleanOcrText, editDistance, normalizeForCer } from "#src/features/ocr/text.ts";
import { fmt, printMachine, root, saveResult, table, verdict } from "./lib.ts";

const arg = (name: string) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) || 0 : 0);
const limit = arg("--pages") || Infinity;
const threads = arg("--paddle-threads") || paddleThreads();
const DEFAULT = (name: string) => OCR_GROUP.settings.find((s) => s.name === name)!.default;
const DPI = Number(DEFAULT("dpi"));
const ENGINE = String(DEFAULT("engine"));
const dir = mkdtempSync(join(tmpdir(), "wk-bench-ocr-"));
setDocumentsRoot(join(dir, "documents"));

async function sh(cmd: string[], env: Record<string, string> = {}) {
  const p = Bun.spawn(cmd, { cwd: dir, stdout: "pipe", stderr: "pipe", env: { ...process.env, HOME: dir, ...env } });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0) throw new Error(`${cmd.join(" ")} → ${code}: ${err}`);
  const usage = p.resourceUsage();
  return { out, cpuMs: usage ? Number(usage.cpuTime.total) / 1000 : NaN };
}

/** The images each page is drawn as: a typical scan, and what the job draws at several ocr.dpi values. */
const SETS: { key: string; label: string; dpi?: number }[] = [
  { key: "jpeg150", label: "150 dpi grey JPEG (pdftoppm)" },
  ...[150, 200, 300].map((dpi) => ({ key: `job${dpi}`, label: `job: ${dpi} dpi grey PNG (mutool)`, dpi })),
];

interface Page { source: string; page: number; reference: string; images: Record<string, string> }

/** The inputs: the physics sample (formulas) and the work-report template (tables) as a PDF. */
async function pages(): Promise<Page[]> {
  await sh(["soffice", "--headless", "--norestore", `-env:UserInstallation=file://${dir}/lo`, "--convert-to", "pdf", "--outdir", dir, join(root, "assets/samples/工作总结模板.docx")]);
  const pdfs = [join(root, "assets/samples/高中物理公式.pdf"), join(dir, "工作总结模板.pdf")];
  const out: Page[] = [];
  for (const [i, pdf] of pdfs.entries()) {
    const count = Number(/Pages:\s+(\d+)/.exec((await sh(["pdfinfo", pdf])).out)?.[1]);
    for (let n = 1; n <= count && out.length < limit; n++) {
      const base = join(dir, `d${i}-p${n}`);
      const images: Record<string, string> = {};
      for (const set of SETS) {
        images[set.key] = `${base}-${set.key}.${set.dpi ? "png" : "jpg"}`;
        if (set.dpi) await sh(["mutool", "draw", "-q", "-c", "gray", "-r", String(set.dpi), "-o", images[set.key]!, pdf, String(n)]);
        else await sh(["pdftoppm", "-f", String(n), "-l", String(n), "-singlefile", "-r", "150", "-gray", "-jpeg", pdf, `${base}-${set.key}`]);
      }
      const reference = (await sh(["pdftotext", "-f", String(n), "-l", String(n), "-enc", "UTF-8", pdf, "-"])).out;
      out.push({ source: pdf.split("/").pop()!, page: n, reference, images });
    }
  }
  return out;
}

type Recognizer = { name: string; init: () => Promise<{ ms: number; cpuMs: number }>; read: (image: string) => Promise<{ text: string; ms: number; cpuMs: number }>; close: () => Promise<void> };

/** CPU ms of this process (its worker threads included) and of the engine's own process, if any. */
const cpuNow = (pid?: number) => {
  const u = process.cpuUsage();
  let child = 0;
  if (pid) {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    child = ((Number(f[11]) + Number(f[12])) * 1000) / 100; // utime + stime, in clock ticks of 10 ms
  }
  return (u.user + u.system) / 1000 + child;
};

/** An engine run from this process: tesseract.js in worker threads, PaddleOCR in its host process. */
function inProcess(name: string, start: () => Promise<EngineInstance>): Recognizer {
  let engine: EngineInstance;
  return {
    name,
    async init() {
      const t = performance.now();
      const c = cpuNow();
      engine = await start();
      return { ms: performance.now() - t, cpuMs: cpuNow(engine.pid) - c };
    },
    async read(image) {
      const t = performance.now();
      const c = cpuNow(engine.pid);
      const r = await engine.recognize(image);
      return { text: r.text, ms: performance.now() - t, cpuMs: cpuNow(engine.pid) - c };
    },
    close: () => engine.close(),
  };
}

const cli: Recognizer = {
  name: "tesseract CLI (Debian, chi_sim)",
  init: async () => ({ ms: 0, cpuMs: 0 }),
  async read(image) {
    const t = performance.now();
    const r = await sh(["tesseract", image, "-", "-l", "chi_sim", "--psm", "3"]);
    return { text: r.out, ms: performance.now() - t, cpuMs: r.cpuMs };
  },
  close: async () => {},
};

async function cliAvailable(): Promise<string | null> {
  if (!Bun.which("tesseract")) return "未安装 tesseract 命令（apt-get install -y tesseract-ocr tesseract-ocr-chi-sim）";
  const langs = await sh(["tesseract", "--list-langs"]).catch(() => ({ out: "" }));
  return /\bchi_sim\b/.test(langs.out) ? null : "tesseract 已安装，但缺少 chi_sim 语言数据（apt-get install -y tesseract-ocr-chi-sim）";
}

printMachine();
const input = await pages();
console.log(`inputs: ${input.length} pages (${[...new Set(input.map((p) => p.source))].join("、")}), ${input.reduce((n, p) => n + normalizeForCer(p.reference).length, 0)} reference characters; ocr.dpi default ${DPI}; PaddleOCR inference threads ${threads}`);
const engines: (Recognizer & { key?: string })[] = [
  { ...inProcess("tesseract.js 7 (chi_sim+eng 4.0.0)", () => startTesseract(["chi_sim", "eng"])), key: "tesseract" },
  { ...inProcess("PaddleOCR (PP-OCRv4 ONNX)", () => startPaddle({ threads, nice: false })), key: "paddle" },
];
const missingCli = await cliAvailable();
if (missingCli) console.log(`skipped: tesseract CLI — ${missingCli}`);
else engines.push(cli);

const rows: string[][] = [];
const summary: Record<string, unknown>[] = [];
for (const e of engines) {
  const init = await e.init();
  for (const set of SETS) {
    let edits = 0;
    let chars = 0;
    let ms = 0;
    let cpuMs = 0;
    const perPage: { source: string; page: number; cer: number; ms: number }[] = [];
    for (const p of input) {
      const r = await e.read(p.images[set.key]!);
      const ref = normalizeForCer(p.reference);
      const d = editDistance(ref, normalizeForCer(cleanOcrText(r.text)));
      edits += d;
      chars += ref.length;
      ms += r.ms;
      cpuMs += r.cpuMs;
      perPage.push({ source: p.source, page: p.page, cer: cer(p.reference, cleanOcrText(r.text)), ms: Math.round(r.ms) });
    }
    const label = set.label;
    const row = { engine: e.name, key: e.key ?? "cli", set: set.key, images: label, cer: edits / chars, wall_s_per_page: ms / input.length / 1000, cpu_s_per_page: cpuMs / input.length / 1000, init_s: init.ms / 1000, per_page: perPage };
    summary.push(row);
    rows.push([e.name, label, `${fmt(row.cer * 100, 2)}%`, fmt(row.wall_s_per_page, 2), fmt(row.cpu_s_per_page, 2), fmt(row.init_s, 2)]);
  }
  await e.close();
}
await closeEngines();

console.log("");
table(["engine", "images", "CER", "wall s/page", "CPU s/page", "load s"], rows);
const file = saveResult("ocr", { pages: input.length, dpi: DPI, paddle_threads: threads, skipped_cli: missingCli, results: summary });
console.log(`\nsaved ${file}`);
rmSync(dir, { recursive: true, force: true });

// The targets for the default engine, on the 150 dpi JPEG scans and on what the job feeds it.
type Row = { key: string; set: string; cer: number; wall_s_per_page: number };
const at = (key: string, set: string) => (summary as unknown as Row[]).find((r) => r.key === key && r.set === set);
const checks: { target: string; value: string; ok: boolean }[] = [];
for (const set of ["jpeg150", `job${DPI}`]) {
  const mine = at(ENGINE, set)!;
  const other = at(ENGINE === "paddle" ? "tesseract" : "paddle", set)!;
  checks.push({ target: `default ${ENGINE} CER ≤ the other engine (${set})`, value: `${fmt(mine.cer * 100, 2)}% vs ${fmt(other.cer * 100, 2)}%`, ok: mine.cer <= other.cer });
  const ref = at("cli", set);
  if (!ref) continue;
  checks.push({ target: `default ${ENGINE} CER ≤ tesseract CLI (${set})`, value: `${fmt(mine.cer * 100, 2)}% vs ${fmt(ref.cer * 100, 2)}%`, ok: mine.cer <= ref.cer });
  checks.push({ target: `default ${ENGINE} faster than tesseract CLI (${set})`, value: `${fmt(mine.wall_s_per_page, 2)} s vs ${fmt(ref.wall_s_per_page, 2)} s a page`, ok: mine.wall_s_per_page < ref.wall_s_per_page });
}
process.exit(verdict(checks) ? 0 : 1);
