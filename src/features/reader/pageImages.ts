import { statSync } from "node:fs";
import { Hono } from "hono";
import { coverPath, pagePath } from "#src/features/documents/paths.ts";
import { setting } from "#src/features/settings/service.ts";
import type { AppContext, AppEnv } from "#src/http/context.ts";
import { siteGuards } from "#src/http/guards.ts";
import { sessionMiddleware } from "#src/http/session.ts";
import { contentVersion } from "#src/lib/contentVersion.ts";
import { canManage, isVisible, pageDocByUuid, readsWhole, renderedPages } from "./access.ts";

/**
 * Page images and covers. The file on disk is always derived from the document's stored hash and a
 * page number the strict pattern below accepted, never from the request path, so no traversal is
 * possible. Bodies are Bun.file responses (sendfile), never read into memory, except for the rare
 * client that refuses gzip when only the gzipped copy exists.
 *
 * app.ts mounts these before the global compress/session/guard middleware, as it does static assets:
 * a visible page needs none of it (files are stored gzipped already). The session is resolved only
 * when a hidden document's owner may be asking or a page past the preview is asked for, and the
 * site rules (closed site, login required) run through the very same guard whenever one is on.
 */
export const pageImageRoutes = new Hono<AppEnv>();

// N.svg, N.gzip.svg, N.png, N.webp; a bare N means N.svg (spec: the suffix defaults to .svg).
const PAGE_FILE = /^([1-9]\d{0,5})(?:\.(svg|gzip\.svg|png|webp))?$/;
const COVER_FILE = /^([0-9A-Za-z-]{1,64})\.png$/;
const PUBLIC_CACHE = "public, max-age=2592000";
// Owners and admins see pages of documents visitors cannot: shared caches must not keep those.
const PRIVATE_CACHE = "private, no-cache";
// Pages past the preview belong to whoever may read the whole document, for good: their own
// browser may keep them, nothing shared may.
const ENTITLED_CACHE = "private, max-age=86400";
const SVG = "image/svg+xml";
const MD5 = /^[0-9a-f]{32}$/;

const NOT_FOUND = () => new Response("This page could not be found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

type PageDoc = NonNullable<ReturnType<typeof pageDocByUuid>>;

// A reader pulls many pages of one document in a burst: its row is kept briefly, and dropped as
// soon as any content changes (status changes bump the content version).
const DOC_TTL_MS = 3000;
const docs = new Map<string, { version: number; at: number; d: PageDoc }>();

function lookup(uuid: string, fresh = false): PageDoc | undefined {
  const now = Date.now();
  const hit = docs.get(uuid);
  if (!fresh && hit && hit.version === contentVersion() && now - hit.at < DOC_TTL_MS) return hit.d;
  const d = pageDocByUuid(uuid);
  if (!d) return undefined;
  if (docs.size >= 5000) docs.clear();
  docs.set(uuid, { version: contentVersion(), at: now, d });
  return d;
}

/** The signed-in user, resolved by the session middleware on demand when it has not run yet. */
async function viewer(c: AppContext) {
  if (c.get("user") === undefined) await sessionMiddleware(c, async () => {});
  return c.get("user");
}

const siteRulesOn = () => !!setting<boolean>("security", "is_close") || !!setting<boolean>("security", "login_required");

/** security.is_close / security.login_required apply to page images as to every page. */
async function siteBlocks(c: AppContext): Promise<Response | null> {
  await viewer(c);
  let passed = false;
  const res = await siteGuards(c, async () => void (passed = true));
  return passed ? null : (res ?? NOT_FOUND());
}

/**
 * The document and its cache policy when this request may see its files: visible to all, or its
 * owner / an admin; or the response that refuses it.
 */
async function readable(c: AppContext, uuid: string): Promise<{ d: PageDoc; cache: string } | Response> {
  if (siteRulesOn()) {
    const blocked = await siteBlocks(c);
    if (blocked) return blocked;
  }
  const d = lookup(uuid);
  if (!d || !MD5.test(d.hash)) return NOT_FOUND();
  if (isVisible(d)) return { d, cache: PUBLIC_CACHE };
  if (d.deleted_at === null && canManage(await viewer(c), d)) return { d, cache: PRIVATE_CACHE };
  return NOT_FOUND();
}

interface Found { path: string; mtimeMs: number; size: number }
const find = (path: string): Found | null => {
  const s = statSync(path, { throwIfNoEntry: false });
  return s?.isFile() ? { path, mtimeMs: s.mtimeMs, size: s.size } : null;
};

const acceptsGzip = (c: AppContext) => /\bgzip\b/.test(c.req.header("accept-encoding") ?? "");

function send(c: AppContext, f: Found, opts: { type: string; tag: string; cache: string; gzip?: boolean; vary?: boolean; body?: Uint8Array }) {
  const etag = `"${opts.tag}-${Math.floor(f.mtimeMs).toString(36)}-${f.size.toString(36)}${opts.gzip ? "-gz" : ""}"`;
  const lastModified = new Date(Math.floor(f.mtimeMs / 1000) * 1000);
  const headers: Record<string, string> = { "Content-Type": opts.type, "Cache-Control": opts.cache, ETag: etag, "Last-Modified": lastModified.toUTCString() };
  if (opts.gzip) headers["Content-Encoding"] = "gzip";
  if (opts.vary) headers.Vary = "Accept-Encoding";
  const inm = c.req.header("if-none-match");
  const ims = inm ? undefined : c.req.header("if-modified-since");
  const fresh = inm ? inm.split(",").some((t) => t.trim().replace(/^W\//, "") === etag) : !!ims && Date.parse(ims) >= lastModified.getTime();
  if (fresh) return new Response(null, { status: 304, headers });
  return new Response((opts.body as BodyInit | undefined) ?? Bun.file(f.path), { headers });
}

pageImageRoutes.get("/view/page/:uuid/:file", async (c) => {
  const m = PAGE_FILE.exec(c.req.param("file"));
  if (!m) return NOT_FOUND();
  const r = await readable(c, c.req.param("uuid"));
  if (r instanceof Response) return r;
  const page = Number(m[1]);
  let cache = r.cache;
  if (page > r.d.preview) {
    // Past the preview: only for the owner, an admin or a buyer, and only once rendered (the kept
    // row may predate a full render that has just finished).
    if (!readsWhole(await viewer(c), r.d)) return NOT_FOUND();
    if (page > renderedPages(r.d) && page > renderedPages(lookup(c.req.param("uuid"), true) ?? r.d)) return NOT_FOUND();
    if (cache === PUBLIC_CACHE) cache = ENTITLED_CACHE;
  }
  const kind = m[2] ?? "svg";
  const { hash } = r.d;
  const base = { tag: `${hash.slice(0, 12)}-${page}`, cache };
  if (kind === "png" || kind === "webp") {
    const f = find(pagePath(hash, page, `.${kind}`));
    return f ? send(c, f, { ...base, type: `image/${kind}` }) : NOT_FOUND();
  }
  const gz = find(pagePath(hash, page, ".svg", true));
  // .gzip.svg is the compressed copy as is (spec: served with Content-Encoding: gzip).
  if (kind === "gzip.svg") {
    if (gz) return send(c, gz, { ...base, type: SVG, gzip: true });
    const plain = find(pagePath(hash, page, ".svg"));
    return plain ? send(c, plain, { ...base, type: SVG }) : NOT_FOUND();
  }
  // .svg negotiates: the stored gzip copy for clients that take it, else the plain file.
  if (gz && acceptsGzip(c)) return send(c, gz, { ...base, type: SVG, gzip: true, vary: true });
  const plain = find(pagePath(hash, page, ".svg"));
  if (plain) return send(c, plain, { ...base, type: SVG, vary: true });
  if (!gz) return NOT_FOUND();
  const body = Bun.gunzipSync(await Bun.file(gz.path).bytes());
  return send(c, { ...gz, size: body.length }, { ...base, type: SVG, vary: true, body });
});

pageImageRoutes.get("/view/cover/:file", async (c) => {
  const m = COVER_FILE.exec(c.req.param("file"));
  if (!m) return NOT_FOUND();
  const r = await readable(c, m[1]!);
  if (r instanceof Response) return r;
  const f = find(coverPath(r.d.hash));
  return f ? send(c, f, { tag: `${r.d.hash.slice(0, 12)}-cover`, cache: r.cache, type: "image/png" }) : NOT_FOUND();
});
