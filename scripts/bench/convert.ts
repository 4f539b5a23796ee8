// Conversion overhead (design.md §8: ≤ 20 % over running the same tools by hand on the same file).
// A 100-page PDF and a 30-page DOCX are made here from Chinese text (nothing big is committed), then
// each is converted (a) end to end as the conversion job — queue, worker, every tool, sharp cover,
// jieba keywords, page rows committed — and (b) by hand: the same tool commands as one shell
// sequence. All pages are rendered (max_preview 100) as SVG, the default format; gzip copies are
// off on both sides (gzip is not one of the converter tools, and the CLI is far slower than Bun's).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeDatabase, configureDatabase, getDb, getSqlite, openDatabase } from "#db/client.ts";
import { document } from "#db/schema/documents.ts";
import { user } from "#db/schema/users.ts";
import { enqueueConversion } from "#src/features/convert/enqueue.ts";
import "#src/features/convert/job.ts";
import { originalPath, setDocumentsRoot } from "#src/features/documents/paths.ts";
import { invalidateSettings } from "#src/features/settings/service.ts";
import { getJob } from "#src/jobs/queue.ts";
import { startWorker } from "#src/jobs/worker.ts";
import { fmt, table, verdict } from "./lib.ts";

const RUNS = 9;
const OVERHEAD_BUDGET = 0.2;
const dir = mkdtempSync(join(tmpdir(), "wk-bench-convert-"));
const sh = async (cmd: string, cwd = dir) => {
  const p = Bun.spawn(["bash", "-c", cmd], { cwd, stdout: "pipe", stderr: "pipe", env: { ...process.env, HOME: dir } });
  const [, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0) throw new Error(`${cmd} → ${code}: ${err}`);
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const PARAGRAPH = "文库系统把上传的文档转换成清晰的页面图片和可检索的文字。每一页的文字分别保存，供全文搜索和智能问答使用；页面图片按设置的格式生成，并可以压缩存储以节省带宽。";
function bookHtml(pages: number, title: string) {
  const page = (n: number) => `<h2${n > 1 ? ` style="page-break-before: always"` : ""}>第 ${n} 章　${title}</h2>${Array.from({ length: 6 }, (_, i) => `<p>${i + 1}. ${PARAGRAPH}</p>`).join("")}`;
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><style>body{font-family:"Noto Sans CJK SC",sans-serif;font-size:12pt}</style></head><body>${Array.from({ length: pages }, (_, i) => page(i + 1)).join("")}</body></html>`;
}

async function makeInputs() {
  writeFileSync(join(dir, "book100.html"), bookHtml(100, "转换测试"));
  writeFileSync(join(dir, "report30.html"), bookHtml(30, "年度报告"));
  const so = `soffice --headless --norestore -env:UserInstallation=file://${dir}/lo-make --infilter="HTML (StarWriter)"`;
  await sh(`${so} --convert-to pdf:writer_pdf_Export --outdir ${dir}/in book100.html && ${so} --convert-to "docx:MS Word 2007 XML" --outdir ${dir}/in report30.html`);
  return { pdf: join(dir, "in/book100.pdf"), docx: join(dir, "in/report30.docx") };
}

/**
 * The pipeline's tool commands by hand: one after another, or (parallel) with text, pages and
 * cover side by side as the pipeline runs them.
 */
function byHandScript(file: string, kind: "pdf" | "docx", pages: number, run: string, parallel: boolean) {
  const w = join(dir, run);
  const pdf = kind === "pdf" ? file : `${w}/out/report30.pdf`;
  const text = `pdftotext -layout -enc UTF-8 -q ${pdf} ${w}/text.txt`;
  const render = `mutool draw -q -F svg -o ${w}/pages/%d.svg ${pdf} 1-${pages}`;
  const cover = `mutool draw -q -F png -r 51 -o ${w}/cover.png ${pdf} 1`;
  return [
    `mkdir -p ${w}/pages`,
    kind === "docx" ? `soffice --headless --norestore --nolockcheck --nodefault -env:UserInstallation=file://${w}/lo-profile --convert-to pdf --outdir ${w}/out ${file} >/dev/null 2>&1` : "true",
    `pdfinfo -f 1 -l 1 ${pdf} >/dev/null`,
    parallel ? `{ ${text} & ${render} & ${cover} & wait; }` : `${text} && ${render} && ${cover}`,
    `rm -rf ${w}`,
  ].join(" && ");
}

async function timeByHand(file: string, kind: "pdf" | "docx", pages: number, run: string, parallel: boolean) {
  const t = performance.now();
  await sh(byHandScript(file, kind, pages, run, parallel));
  return performance.now() - t;
}

// The pipeline side: a temp database and document folder, the real job run by an in-process worker.
configureDatabase(() => openDatabase(join(dir, "wenku.db")));
setDocumentsRoot(join(dir, "documents"));
getSqlite().query("INSERT INTO config (category, name, value) VALUES ('converter', 'max_preview', '100'), ('converter', 'enable_gzip', 'false')").run();
invalidateSettings();
const owner = getDb().insert(user).values({ username: "bench", password: "x" }).returning().get();
const worker = startWorker({ concurrency: 1, pollMs: 5 });

async function timePipeline(file: string, ext: string) {
  const bytes = readFileSync(file);
  const hash = new Bun.CryptoHasher("md5").update(bytes).digest("hex");
  mkdirSync(join(originalPath(hash, ext), ".."), { recursive: true });
  writeFileSync(originalPath(hash, ext), bytes);
  const doc = getDb().insert(document).values({ uuid: crypto.randomUUID(), title: "bench", user_id: owner.id, hash, ext, size: bytes.length }).returning().get();
  const t = performance.now();
  // fresh: every run converts; the same-file reuse would otherwise answer in a millisecond.
  const job = enqueueConversion(doc.id, { fresh: true });
  worker.kick();
  while (getJob(job.id)!.status !== "done") {
    if (getJob(job.id)!.status === "failed") throw new Error(getJob(job.id)!.error);
    await Bun.sleep(5);
  }
  const ms = performance.now() - t;
  const row = getDb().select().from(document).all().find((d) => d.id === doc.id)!;
  if (row.status !== 2) throw new Error(`conversion failed: ${row.convert_error}`);
  return { ms, pages: row.pages };
}

try {
  console.log("making inputs (100-page PDF, 30-page DOCX)…");
  const inputs = await makeInputs();
  const rows: string[][] = [];
  const verdicts: { target: string; value: string; ok: boolean }[] = [];
  for (const [label, file, kind, ext] of [["100-page PDF", inputs.pdf, "pdf", "pdf"], ["30-page DOCX", inputs.docx, "docx", "docx"]] as const) {
    const pipe: number[] = [];
    const seq: number[] = [];
    const par: number[] = [];
    const pages = kind === "pdf" ? 100 : 30;
    // Warm-up of both (page cache, LibreOffice's first start), then alternating runs.
    await timePipeline(file, ext);
    await timeByHand(file, kind, pages, "warm", true);
    for (let i = 0; i < RUNS; i++) {
      const p = await timePipeline(file, ext);
      if (p.pages !== pages) throw new Error(`${label}: ${p.pages} pages`);
      pipe.push(p.ms);
      seq.push(await timeByHand(file, kind, pages, `seq-${i}`, false));
      par.push(await timeByHand(file, kind, pages, `par-${i}`, true));
    }
    if (process.env.BENCH_VERBOSE) console.log(label, { pipe: pipe.map(Math.round), seq: seq.map(Math.round), par: par.map(Math.round) });
    const overSeq = median(pipe) / median(seq) - 1;
    const overPar = median(pipe) / median(par) - 1;
    // Best runs too: other work on the machine only ever adds time, so minimums are the quiet-machine view.
    const overBest = Math.min(...pipe) / Math.min(...par) - 1;
    rows.push([label, String(pages), fmt(median(pipe)), fmt(median(seq)), fmt(median(par)), `${fmt(overSeq * 100, 1)} %`, `${fmt(overPar * 100, 1)} %`, `${fmt(overBest * 100, 1)} %`, fmt(pages / (median(pipe) / 1000), 1)]);
    // The strict comparison: against the same tools run side by side, as the pipeline runs them.
    verdicts.push({ target: `${label}: overhead ≤ ${OVERHEAD_BUDGET * 100} % over the tools by hand`, value: `${fmt(overPar * 100, 1)} %`, ok: overPar <= OVERHEAD_BUDGET });
  }
  const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  console.log(`\nconversion, median of ${RUNS} runs (ms) · ${navigator.hardwareConcurrency} cores · load average ${load} (other work on the machine skews both sides)`);
  table(["input", "pages", "pipeline", "hand seq", "hand par", "vs seq", "vs par", "best vs best par", "pages/s"], rows);
  const ok = verdict(verdicts);
  process.exitCode = ok ? 0 : 1;
} finally {
  await worker.stop();
  closeDatabase();
  setDocumentsRoot(null);
  rmSync(dir, { recursive: true, force: true });
}
