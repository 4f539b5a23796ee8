// Builds the browser assets into dist/: island chunks (code-split, on preact/compat), CSS and images,
// all with content-hashed names, plus dist/manifest.json that the server reads.
import { mkdirSync, readdirSync, rmSync, writeFileSync, readFileSync, copyFileSync, watch } from "node:fs";
import { basename, extname, join, resolve } from "node:path";

const root = resolve(import.meta.dir, "..");
const dist = resolve(process.env.DIST_DIR ?? join(root, "dist"));
const out = join(dist, "assets");

// Islands are written against React's API (types, and react-dom/server renders them on the server),
// but the browser gets Preact through preact/compat: the same components for ~11 KB gzip (core,
// hooks, compat) instead of React's ~45 KB, keeping public pages well under design.md §8's 60 KB.
// Every React entry point an island (or a package it uses, e.g. @preact/signals-react's
// useSyncExternalStore shim) imports is resolved to its preact/compat counterpart; any other react*
// import fails the build rather than shipping a second runtime. Hydration adopts the server HTML
// (tests/e2e/hydration.e2e.ts); tests/integration/page-js-budget.test.ts keeps pages under budget.
const REACT_TO_PREACT: Record<string, string> = {
  react: "preact/compat",
  "react-dom": "preact/compat",
  "react-dom/client": "preact/compat/client",
  "react/jsx-runtime": "preact/compat/jsx-runtime",
  "react/jsx-dev-runtime": "preact/compat/jsx-dev-runtime",
};
export const preactCompat: import("bun").BunPlugin = {
  name: "react-to-preact-compat",
  setup(b) {
    b.onResolve({ filter: /^react(?:-dom)?(?:\/.*)?$/ }, (args) => {
      const to = REACT_TO_PREACT[args.path];
      if (!to) throw new Error(`${args.path} (imported by ${args.importer}) has no preact/compat alias in scripts/build.ts`);
      return { path: Bun.resolveSync(to, root) };
    });
  },
};

function hashOf(buf: Uint8Array) {
  return new Bun.CryptoHasher("sha256").update(buf).digest("hex").slice(0, 10);
}

export async function build() {
  const started = performance.now();
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });

  // An island is a PascalCase .tsx with a default export, in islands/ or islands/<domain>/ (its
  // name is the file name, so names stay unique across domains); files without one are only chunks.
  const islandFiles = (readdirSync(join(root, "islands"), { recursive: true }) as string[])
    .filter((f) => /^(?:[a-z]\w*\/)?[A-Z]\w*\.tsx$/.test(f) && /^export default /m.test(readFileSync(join(root, "islands", f), "utf8")));
  const names = islandFiles.map((f) => basename(f));
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw new Error(`two islands named ${twice}`);
  const js = await Bun.build({
    entrypoints: [join(root, "islands/client.ts"), ...islandFiles.map((f) => join(root, "islands", f))],
    outdir: out,
    target: "browser",
    format: "esm",
    splitting: true,
    minify: true,
    sourcemap: "none",
    naming: { entry: "[name]-[hash].[ext]", chunk: "chunk-[hash].[ext]", asset: "[name]-[hash].[ext]" },
    define: { "process.env.NODE_ENV": '"production"' },
    plugins: [preactCompat],
  });
  if (!js.success) {
    for (const l of js.logs) console.error(l);
    throw new Error("island build failed");
  }
  const islands: Record<string, string> = {};
  const imports: Record<string, string[]> = {};
  let client = "";
  for (const o of js.outputs) {
    const file = basename(o.path);
    const url = `/assets/${file}`;
    const text = await o.text();
    imports[url] = [...text.matchAll(/(?:from|import)\s*"\.\/(chunk-[\w-]+\.js)"/g)].map((m) => `/assets/${m[1]}`);
    if (o.kind !== "entry-point") continue;
    const name = file.replace(/-[a-z0-9]+\.js$/, "");
    if (name === "client") client = url;
    else islands[name] = url;
  }

  const css: Record<string, string> = {};
  for (const f of readdirSync(join(root, "assets/css")).filter((f) => f.endsWith(".css") && !f.startsWith("_"))) {
    const r = await Bun.build({ entrypoints: [join(root, "assets/css", f)], outdir: out, minify: true, naming: "[name]-[hash].[ext]" });
    if (!r.success) {
      for (const l of r.logs) console.error(l);
      throw new Error(`css build failed: ${f}`);
    }
    css[f.replace(/\.css$/, "")] = `/assets/${basename(r.outputs.find((o) => o.path.endsWith(".css"))!.path)}`;
  }

  const files: Record<string, string> = {};
  for (const f of readdirSync(join(root, "assets/images"))) {
    const buf = readFileSync(join(root, "assets/images", f));
    const name = `${basename(f, extname(f))}-${hashOf(buf)}${extname(f)}`;
    copyFileSync(join(root, "assets/images", f), join(out, name));
    files[f] = `/assets/${name}`;
  }

  // Text assets are compressed once here; the asset route sends the .gz copy to browsers that accept it.
  for (const f of readdirSync(out)) {
    if (/\.(js|css|svg)$/.test(f)) writeFileSync(join(out, `${f}.gz`), Bun.gzipSync(readFileSync(join(out, f)), { level: 9 }));
  }

  const manifest = { client, islands, imports, css, files };
  writeFileSync(join(dist, "manifest.json"), JSON.stringify(manifest, null, 2));
  console.log(`built ${Object.keys(islands).length} islands, ${Object.keys(css).length} css, ${Object.keys(files).length} files in ${Math.round(performance.now() - started)} ms`);
  return manifest;
}

if (import.meta.main) {
  await build();
  if (process.argv.includes("--watch")) {
    let timer: Timer | undefined;
    for (const dir of ["islands", "assets/css", "assets/images", "src/lib"]) {
      watch(join(root, dir), { recursive: true }, () => {
        clearTimeout(timer);
        timer = setTimeout(() => build().catch((e) => console.error(e)), 100);
      });
    }
    console.log("watching islands/ and assets/ for changes");
  }
}
