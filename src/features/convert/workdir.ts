import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { documentsRoot } from "#src/features/documents/paths.ts";
import { killLeftovers } from "./tools.ts";

// Work dirs sit beside the documents folder (DATA_DIR/tmp by default) so finished pages can be
// renamed into place on the same file system instead of copied.
export const tmpRoot = () => join(dirname(documentsRoot()), "tmp");

const prefix = (key: string) => `convert-${key}-`;

/**
 * A fresh work dir for one attempt of a job. Dirs of earlier attempts of the same job (a worker
 * killed mid-conversion never reached its `finally`) are removed first, after killing any tool
 * they left running.
 */
export function openWorkDir(key: string | number, attempt: number | string): string {
  const root = tmpRoot();
  mkdirSync(root, { recursive: true });
  for (const name of readdirSync(root)) {
    if (!name.startsWith(prefix(String(key)))) continue;
    killLeftovers(join(root, name));
    rmSync(join(root, name), { recursive: true, force: true });
  }
  const dir = join(root, `${prefix(String(key))}${attempt}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

export function removeWorkDir(dir: string) {
  killLeftovers(dir);
  rmSync(dir, { recursive: true, force: true });
}

/**
 * removeWorkDir off the event loop: a work dir can hold thousands of files (LibreOffice's profile,
 * the pages of a failed render), and unlinking them one by one on the JS thread stalls requests.
 */
export async function removeWorkDirAsync(dir: string) {
  killLeftovers(dir);
  await rm(dir, { recursive: true, force: true, maxRetries: 2 });
}
