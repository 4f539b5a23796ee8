import { setting } from "#src/features/settings/service.ts";
import type { OcrEngineName } from "./settings.ts";

// The `ocr` settings as typed values for the job and the admin screen.

export interface OcrSettings {
  enable: boolean;
  engine: OcrEngineName;
  languages: string[];
  maxPages: number;
  concurrency: number;
  timeoutMs: number;
  minChars: number;
  dpi: number;
}

/** The `ocr` group with sane bounds whatever the table holds. */
export function ocrSettings(): OcrSettings {
  const num = (name: string, def: number, min: number, max: number) => {
    const n = Math.floor(Number(setting("ocr", name)));
    return Number.isFinite(n) && n >= min ? Math.min(n, max) : def;
  };
  const engine = String(setting("ocr", "engine"));
  const languages = String(setting("ocr", "languages") || "chi_sim+eng").split(/[+,\s]+/).filter(Boolean);
  return {
    enable: Boolean(setting("ocr", "enable")),
    engine: engine === "tesseract" ? "tesseract" : "paddle",
    languages: languages.length ? languages : ["chi_sim", "eng"],
    maxPages: num("max_pages", 50, 1, 5000),
    concurrency: num("concurrency", 1, 1, 4),
    timeoutMs: num("timeout", 120, 5, 3600) * 1000,
    minChars: num("min_chars", 10, 1, 1000),
    dpi: num("dpi", 150, 72, 600),
  };
}
