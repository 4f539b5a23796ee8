import { s, type GroupDef } from "#src/features/settings/define.ts";

// OCR 设置 (issue 16): pages without a text layer are recognised after conversion. Admins only.
// Only the definition lives here (definitions.ts imports it); config.ts reads the values.
// The defaults are the measured ones (scripts/bench/ocr.ts; README decision log).

export type OcrEngineName = "tesseract" | "paddle";
export const ENGINE_LABEL: Record<OcrEngineName, string> = { tesseract: "Tesseract.js", paddle: "PaddleOCR" };

export const OCR_GROUP: GroupDef = {
  name: "ocr", label: "OCR 设置", public: false,
  settings: [
    s("enable", "启用 OCR（识别没有文字层的扫描页）", "switch", true),
    s("engine", "识别引擎", "select", "paddle", {
      options: [{ value: "paddle", label: "PaddleOCR（ONNX，中文更准）" }, { value: "tesseract", label: "Tesseract.js（chi_sim + eng）" }],
    }),
    s("languages", "Tesseract 识别语言", "text", "chi_sim+eng", { maxLength: 64, placeholder: "用 + 连接，如 chi_sim+eng；仅 Tesseract 使用" }),
    s("max_pages", "每篇文档最多识别页数", "number", 50, { min: 1, max: 5000 }),
    s("concurrency", "同时识别的文档数", "number", 1, { min: 1, max: 4 }),
    s("timeout", "单页识别超时（秒）", "number", 120, { min: 5, max: 3600 }),
    s("min_chars", "文字少于多少个字符的页面视为扫描页", "number", 10, { min: 1, max: 1000 }),
    s("dpi", "识别时页面渲染分辨率（DPI）", "number", 150, { min: 72, max: 600 }),
  ],
};
