import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { getSqlite } from "#db/client.ts";
import { env } from "#src/env.ts";
import { getSettings } from "#src/features/settings/service.ts";
import { enqueue } from "#src/jobs/queue.ts";
import { registerJob } from "#src/jobs/worker.ts";
import { layoutData, type CategoryNode } from "./layoutData.ts";
import { SECTIONS } from "./sections.ts";

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const iso = (ms: number) => new Date(ms).toISOString();

/** URLs per document sitemap file (the protocol allows 50,000; 10,000 keeps files near 1 MB). */
export const DOCS_PER_FILE = 10_000;
export const SITEMAP_JOB = "sitemap.generate";

const configuredDomain = () => String(getSettings().system.domain || "").trim().replace(/\/$/, "");

export function siteOrigin(requestUrl: string): string {
  return configuredDomain() || new URL(requestUrl).origin;
}

/** Sub-sitemaps of the index; later features (articles) append theirs. Documents have their own files below. */
export const sitemapParts: { name: string; urls: () => { loc: string; lastmod?: number }[] }[] = [
  {
    name: "pages",
    urls: () => {
      const flat = (cs: CategoryNode[]): CategoryNode[] => cs.flatMap((c) => [c, ...flat(c.children)]);
      const d = layoutData();
      return [
        { loc: "/" }, { loc: "/category" },
        ...flat(d.docCategories).map((c) => ({ loc: `/category/${c.id}` })),
        // Article pages only once the articles section exists (sections.ts).
        ...(SECTIONS.articles ? [{ loc: "/article" }, ...flat(d.articleCategories).map((c) => ({ loc: `/article?category_id=${c.id}` }))] : []),
      ];
    },
  },
];

let dirOverride: string | null = null;
/** DATA_DIR/sitemap: the generated documents-N.xml files and manifest.json. */
export const sitemapDir = () => dirOverride ?? join(env.DATA_DIR, "sitemap");
/** Tests point the generated files at their own temp folder. */
export const setSitemapDir = (dir: string | null) => void (dirOverride = dir);

interface Manifest { origin: string; generated_at: number; files: { name: string; count: number; lastmod: number }[] }

function readManifest(): Manifest | null {
  try {
    return JSON.parse(readFileSync(join(sitemapDir(), "manifest.json"), "utf8")) as Manifest;
  } catch {
    return null;
  }
}

/** Generated files usable for this origin (they hold absolute URLs), or null. */
const manifestFor = (origin: string) => {
  const m = readManifest();
  return m && m.origin === origin ? m : null;
};

const visibleCount = () => (getSqlite().query("SELECT count(*) AS n FROM document WHERE status = 2 AND deleted_at IS NULL").get() as { n: number }).n;

function urlset(origin: string, urls: { loc: string; lastmod?: number }[]): string {
  const body = urls.map((u) => `<url><loc>${esc(origin + u.loc)}</loc>${u.lastmod ? `<lastmod>${iso(u.lastmod)}</lastmod>` : ""}</url>`).join("\n");
  return `${XML_HEAD}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</urlset>\n`;
}

export function sitemapIndex(origin: string): string {
  const m = manifestFor(origin);
  const docFiles = m ? m.files : Array.from({ length: Math.ceil(visibleCount() / DOCS_PER_FILE) }, (_, i) => ({ name: `documents-${i + 1}`, lastmod: 0 }));
  const items = [...sitemapParts.map((p) => ({ name: p.name, lastmod: 0 })), ...docFiles]
    .map((f) => `<sitemap><loc>${esc(`${origin}/sitemap/${f.name}.xml`)}</loc>${f.lastmod ? `<lastmod>${iso(f.lastmod)}</lastmod>` : ""}</sitemap>`).join("\n");
  return `${XML_HEAD}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items}\n</sitemapindex>\n`;
}

/** Page N (1-based) of the visible documents, in id order, built from the database. */
function documentsFile(origin: string, n: number): string | null {
  const rows = getSqlite().query("SELECT uuid, updated_at FROM document WHERE status = 2 AND deleted_at IS NULL ORDER BY id LIMIT ? OFFSET ?")
    .all(DOCS_PER_FILE, (n - 1) * DOCS_PER_FILE) as { uuid: string; updated_at: number }[];
  if (!rows.length && n > 1) return null;
  return urlset(origin, rows.map((r) => ({ loc: `/document/${r.uuid}`, lastmod: r.updated_at })));
}

/**
 * A sub-sitemap by name: a documents-N file from disk when generated for this origin, else built
 * on the fly (before the first generation, or after the domain changed). Null when there is none.
 */
export function sitemapFile(origin: string, name: string): { file: string } | { xml: string } | null {
  const part = sitemapParts.find((p) => p.name === name);
  if (part) return { xml: urlset(origin, part.urls()) };
  const m = /^documents-([1-9]\d{0,5})$/.exec(name);
  if (!m) return null;
  const file = join(sitemapDir(), `${name}.xml`);
  if (manifestFor(origin)?.files.some((f) => f.name === name) && existsSync(file)) return { file };
  const xml = documentsFile(origin, Number(m[1]));
  return xml ? { xml } : null;
}

function writeAtomic(file: string, text: string) {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

/**
 * Writes documents-1.xml … documents-N.xml (DOCS_PER_FILE URLs each) for `origin`, then the
 * manifest, then removes files of an earlier, longer run. Streams rows in id order, so memory
 * stays at one file's worth; yields between files so the server keeps answering.
 */
export async function generateSitemaps(origin: string, signal?: AbortSignal): Promise<Manifest> {
  const dir = sitemapDir();
  mkdirSync(dir, { recursive: true });
  const files: Manifest["files"] = [];
  let urls: string[] = [];
  let lastmod = 0;
  const flush = async () => {
    const name = `documents-${files.length + 1}`;
    writeAtomic(join(dir, `${name}.xml`), `${XML_HEAD}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`);
    files.push({ name, count: urls.length, lastmod });
    urls = [];
    lastmod = 0;
    await Bun.sleep(0);
    if (signal?.aborted) throw signal.reason ?? new Error("aborted");
  };
  const stmt = getSqlite().query("SELECT id, uuid, updated_at FROM document WHERE status = 2 AND deleted_at IS NULL AND id > ? ORDER BY id LIMIT ?");
  // Keyset pages: each read is short, so writers are never blocked for the whole run.
  for (let after = 0; ; ) {
    const rows = stmt.all(after, DOCS_PER_FILE) as { id: number; uuid: string; updated_at: number }[];
    for (const r of rows) {
      urls.push(`<url><loc>${esc(`${origin}/document/${r.uuid}`)}</loc><lastmod>${iso(r.updated_at)}</lastmod></url>`);
      if (r.updated_at > lastmod) lastmod = r.updated_at;
      if (urls.length === DOCS_PER_FILE) await flush();
    }
    if (rows.length < DOCS_PER_FILE) break;
    after = rows.at(-1)!.id;
  }
  if (urls.length) await flush();
  const manifest: Manifest = { origin, generated_at: Date.now(), files };
  writeAtomic(join(dir, "manifest.json"), JSON.stringify(manifest));
  const keep = new Set(files.map((f) => `${f.name}.xml`));
  for (const f of readdirSync(dir)) if (/^documents-\d+\.xml$/.test(f) && !keep.has(f)) rmSync(join(dir, f), { force: true });
  return manifest;
}

/** The origin a run writes for: the configured domain, else the admin's (payload), else the last run's. */
const jobOrigin = (payload: { origin?: unknown }): string | null =>
  configuredDomain() || (typeof payload.origin === "string" && payload.origin) || readManifest()?.origin || null;

/**
 * PUT /sitemap: moves the scheduled daily run to now (so the one recurring chain of jobs stays
 * one), carrying the admin's origin for sites without a configured domain. Answers the job id.
 */
export function requestSitemap(origin: string): number {
  const sqlite = getSqlite();
  const payload = JSON.stringify({ origin });
  return sqlite.transaction(() => {
    const row = sqlite.query("SELECT id, status FROM jobs WHERE kind = ? AND status IN ('queued', 'running') ORDER BY id LIMIT 1").get(SITEMAP_JOB) as { id: number; status: string } | null;
    if (row?.status === "queued") sqlite.query("UPDATE jobs SET run_after = 0, payload = ?, updated_at = ? WHERE id = ?").run(payload, Date.now(), row.id);
    return row ? row.id : enqueue(SITEMAP_JOB, { origin }).id;
  }).immediate();
}

registerJob(SITEMAP_JOB, async ({ payload, signal }) => {
  const origin = jobOrigin(payload ?? {});
  if (!origin) return { result: { skipped: "未配置网站域名（system.domain），请在后台更新一次站点地图以记录站点地址" } };
  const m = await generateSitemaps(origin, signal);
  return { result: { origin, files: m.files.length, urls: m.files.reduce((n, f) => n + f.count, 0) } };
}, { everyMs: 24 * 3600_000, timeoutMs: 10 * 60_000 });
