import { createContext, useContext } from "react";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { env } from "#src/env.ts";

export interface Manifest {
  /** island name → hashed URL of its entry chunk */
  islands: Record<string, string>;
  client: string;
  css: Record<string, string>;
  /** hashed URL → list of chunk URLs it imports statically (for modulepreload) */
  imports: Record<string, string[]>;
  /** assets/images file name → hashed URL */
  files: Record<string, string>;
}

let manifest: Manifest | null = null;

/** dist/manifest.json written by scripts/build.ts; read once. */
export function getManifest(): Manifest {
  if (manifest) return manifest;
  const file = join(env.DIST_DIR, "manifest.json");
  if (!existsSync(file)) throw new Error(`缺少前端构建产物 ${file}，请先运行 bun run build`);
  manifest = JSON.parse(readFileSync(file, "utf8")) as Manifest;
  return manifest;
}

export function reloadManifest() {
  manifest = null;
}

/** Per-render collector: which islands a page used, so the shell loads only those chunks. */
export interface AssetCollector {
  islands: Set<string>;
  /** islands hydrated at load (their chunks are preloaded); the others wait until visible */
  eager: Set<string>;
}
export const AssetsContext = createContext<AssetCollector>({ islands: new Set(), eager: new Set() });
export const useAssets = () => useContext(AssetsContext);
