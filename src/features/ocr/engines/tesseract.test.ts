import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setDocumentsRoot } from "#src/features/documents/paths.ts";
import { tessdataFolder } from "./tesseract.ts";
import { EngineUnavailable } from "./types.ts";

const dir = mkdtempSync(join(tmpdir(), "wk-tessdata-"));
setDocumentsRoot(join(dir, "documents"));
afterAll(() => {
  setDocumentsRoot(null);
  rmSync(dir, { recursive: true, force: true });
});

test("one langPath folder links every language's 4.0.0 data from its package", () => {
  const folder = tessdataFolder(["chi_sim", "eng"]);
  expect(folder).toBe(join(dir, "ocr", "tessdata"));
  for (const lang of ["chi_sim", "eng"]) {
    expect(existsSync(join(folder, `${lang}.traineddata.gz`))).toBe(true);
    expect(readlinkSync(join(folder, `${lang}.traineddata.gz`))).toEndWith(`@tesseract.js-data/${lang}/4.0.0/${lang}.traineddata.gz`);
  }
  expect(tessdataFolder(["chi_sim", "eng"])).toBe(folder);
});

test("a language without data is named with the package to install; odd names are refused", () => {
  expect(() => tessdataFolder(["chi_sim", "jpn"])).toThrow(new EngineUnavailable("Tesseract 缺少语言数据：jpn（需要安装 npm 包 @tesseract.js-data/jpn）"));
  expect(() => tessdataFolder(["../../etc"])).toThrow(EngineUnavailable);
});
