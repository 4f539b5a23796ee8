import { existsSync, mkdirSync, symlinkSync, unlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { createWorker, OEM } from "tesseract.js";
import { documentsRoot } from "#src/features/documents/paths.ts";
import { EngineUnavailable, PageError, type EngineInstance } from "./types.ts";

// tesseract.js 7 runs Tesseract (WebAssembly) in its own worker thread, so recognition never
// blocks the event loop. Language data comes from the @tesseract.js-data packages' 4.0.0 files
// (more accurate than best_int, design.md §2); nothing is fetched from a CDN.

/** The installed `<lang>.traineddata.gz` of @tesseract.js-data/<lang>, or null. */
function packagedData(lang: string): string | null {
  if (!/^[a-z_]{3,16}$/.test(lang)) return null;
  try {
    const pkg = Bun.resolveSync(`@tesseract.js-data/${lang}/package.json`, import.meta.dir);
    const file = join(dirname(pkg), "4.0.0", `${lang}.traineddata.gz`);
    return existsSync(file) ? file : null;
  } catch {
    return null;
  }
}

/**
 * tesseract.js reads every language from one `langPath` folder, while each package ships its own:
 * the files are linked into DATA_DIR/ocr/tessdata (links, not copies: 30 MB stays in node_modules).
 */
export function tessdataFolder(languages: string[]): string {
  const dir = join(dirname(documentsRoot()), "ocr", "tessdata");
  mkdirSync(dir, { recursive: true });
  const missing: string[] = [];
  for (const lang of languages) {
    const src = packagedData(lang);
    if (!src) {
      missing.push(lang);
      continue;
    }
    const link = join(dir, `${lang}.traineddata.gz`);
    if (existsSync(link)) continue;
    try {
      unlinkSync(link); // a dangling link left by an older node_modules
    } catch { /* none */ }
    symlinkSync(src, link);
  }
  if (missing.length) {
    throw new EngineUnavailable(`Tesseract 缺少语言数据：${missing.join("、")}（需要安装 npm 包 ${missing.map((l) => `@tesseract.js-data/${l}`).join("、")}）`);
  }
  return dir;
}

export async function startTesseract(languages: string[]): Promise<EngineInstance> {
  const langPath = tessdataFolder(languages);
  let failure: unknown = null;
  const worker = await createWorker(languages, OEM.LSTM_ONLY, {
    langPath, cacheMethod: "none", gzip: true,
    // A worker-side error rejects the job that caused it; this keeps it from surfacing as unhandled.
    errorHandler: (e: unknown) => void (failure = e),
  });
  // Without it Tesseract collapses the runs of spaces that separate columns of a formula sheet.
  await worker.setParameters({ preserve_interword_spaces: "1" });
  let closed = false;
  return {
    async recognize(image) {
      if (failure) throw failure;
      let r: Awaited<ReturnType<typeof worker.recognize>>;
      try {
        r = await worker.recognize(image);
      } catch (e) {
        if (failure) throw failure;
        throw new PageError(String((e as Error)?.message ?? e));
      }
      return { text: r.data.text, confidence: r.data.confidence };
    },
    async close() {
      if (closed) return;
      closed = true;
      await worker.terminate().catch(() => {});
    },
  };
}
