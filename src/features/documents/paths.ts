import { dirname, join } from "node:path";
import { env } from "#src/env.ts";

// Where a document's files live. Everything is keyed by the file's MD5, so documents uploaded from
// the same file share the original and its conversion:
//   DATA_DIR/documents/ab/abcdef…/original.<ext>
//   DATA_DIR/documents/ab/abcdef…/pages/<n>.svg (and <n>.gzip.svg, or .png/.webp)
//   DATA_DIR/documents/ab/abcdef…/cover.png
//   DATA_DIR/tmp/uploads/<pid>-<uuid>.part  uploads being received (moved into place when accepted)
const MD5 = /^[0-9a-f]{32}$/;
const EXT = /^\.?[a-z0-9]{1,8}$/;

let rootOverride: string | null = null;
export const documentsRoot = () => rootOverride ?? join(env.DATA_DIR, "documents");
/** Tests point document storage at their own temp folder. */
export const setDocumentsRoot = (dir: string | null) => void (rootOverride = dir);

/** Where upload bodies are spooled while they arrive: beside the documents folder, so accepting one is a rename. */
export const uploadTmpDir = () => join(dirname(documentsRoot()), "tmp", "uploads");

function checkHash(hash: string) {
  if (!MD5.test(hash)) throw new Error(`invalid document hash: ${hash}`);
  return hash;
}

export const documentDir = (hash: string) => join(documentsRoot(), checkHash(hash).slice(0, 2), hash);

export function originalPath(hash: string, ext: string) {
  if (!EXT.test(ext)) throw new Error(`invalid extension: ${ext}`);
  return join(documentDir(hash), `original.${ext.replace(/^\./, "")}`);
}

export const pagesDir = (hash: string) => join(documentDir(hash), "pages");

/** Page image file: `ext` is ".svg", ".png" or ".webp"; gzip only applies to SVG. */
export function pagePath(hash: string, page: number, ext: ".svg" | ".png" | ".webp", gzip = false) {
  if (!Number.isInteger(page) || page < 1) throw new Error(`invalid page: ${page}`);
  return join(pagesDir(hash), gzip && ext === ".svg" ? `${page}.gzip.svg` : `${page}${ext}`);
}

export const coverPath = (hash: string) => join(documentDir(hash), "cover.png");
