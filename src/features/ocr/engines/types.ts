// What every OCR engine answers for one page image.

export interface Recognised {
  text: string;
  /** 0–100 */
  confidence: number;
}

/** One loaded engine (a tesseract.js worker, a PaddleOCR worker thread): pages go through it one at a time. */
export interface EngineInstance {
  recognize(image: string): Promise<Recognised>;
  /** Stops its thread; safe to call twice or while a page is being recognised. */
  close(): Promise<void>;
  /** The engine's own process, when it has one (the bench adds its CPU time). */
  pid?: number;
}

/** An engine that cannot start (language data or model missing): a retry would end the same way. */
export class EngineUnavailable extends Error {
  override name = "EngineUnavailable";
}

/** The engine read the page and could not make sense of it; the engine itself is fine. */
export class PageError extends Error {
  override name = "PageError";
}
