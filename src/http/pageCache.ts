import type { MiddlewareHandler } from "hono";
import { contentVersion } from "#src/lib/contentVersion.ts";
import { getSettings } from "#src/features/settings/service.ts";
import type { AppEnv } from "./context.ts";

/**
 * Anonymous visitors all see the same HTML for a URL until content changes, so a rendered page is
 * kept (raw and gzipped) keyed by URL and the content version. Logged-in users always render fresh.
 * A page opts in by setting the X-Page-Cache header (renderPage does for public pages).
 */
// ArrayBuffer-backed (not SharedArrayBuffer) byte arrays, which is what a Response body accepts.
interface Entry { version: number; at: number; body: Uint8Array<ArrayBuffer>; gzip: Uint8Array<ArrayBuffer>; status: number; headers: [string, string][] }
const MAX_ENTRIES = 500;
const MAX_BYTES = 64 * 1024 * 1024;
// Whether, which pages and how long are the `ssr` settings (/admin/config/ssr). Ads have start/end
// times and nothing bumps the version when one begins, so entries also age out after the lifetime.
function policy() {
  const ssr = getSettings().ssr;
  const prefixes = String(ssr.page_cache_paths ?? "").split(/[\n,]/).map((p) => p.trim().replace(/\/+$/, "") || "/").filter((p) => p.startsWith("/"));
  return { on: !!ssr.enable_page_cache, maxAgeMs: Math.max(1, Number(ssr.page_cache_seconds) || 60) * 1000, prefixes };
}

/** "/" stands for the home page only (else it would match everything); other prefixes match their subtree. */
export const cachedPath = (path: string, prefixes: string[]) =>
  prefixes.some((p) => (p === "/" ? path === "/" : path === p || path.startsWith(`${p}/`)));
const entries = new Map<string, Entry>();
let bytes = 0;

export const PAGE_CACHE_HEADER = "X-Page-Cache";

function remember(key: string, e: Entry) {
  const old = entries.get(key);
  if (old) bytes -= old.body.length + old.gzip.length;
  entries.delete(key);
  entries.set(key, e);
  bytes += e.body.length + e.gzip.length;
  while (entries.size > MAX_ENTRIES || bytes > MAX_BYTES) {
    const [k, v] = entries.entries().next().value!;
    entries.delete(k);
    bytes -= v.body.length + v.gzip.length;
  }
}

/** Empties the cache (the 清空缓存 button, tests); answers how many pages were dropped. */
export function clearPageCache(): number {
  const n = entries.size;
  entries.clear();
  bytes = 0;
  return n;
}

export const pageCacheStats = () => ({ entries: entries.size, bytes });

function respond(e: Entry, gzip: boolean) {
  const headers = new Headers(e.headers);
  headers.set("X-Cache", "HIT");
  if (gzip) {
    headers.set("Content-Encoding", "gzip");
    headers.set("Vary", "Accept-Encoding");
  }
  return new Response(gzip ? e.gzip : e.body, { status: e.status, headers });
}

export const pageCache: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method !== "GET" || c.get("user") || c.req.path.startsWith("/api/")) return next();
  const { on, maxAgeMs, prefixes } = policy();
  if (!on || !cachedPath(c.req.path, prefixes)) {
    await next();
    // The page asked to be cached, but the settings say no: the marker must not reach the visitor.
    if (c.res.headers.has(PAGE_CACHE_HEADER)) c.res.headers.delete(PAGE_CACHE_HEADER);
    return;
  }
  const key = c.req.url;
  const gzipOk = /\bgzip\b/.test(c.req.header("accept-encoding") ?? "");
  const hit = entries.get(key);
  if (hit && hit.version === contentVersion() && Date.now() - hit.at < maxAgeMs) {
    entries.delete(key);
    entries.set(key, hit);
    c.res = respond(hit, gzipOk);
    return;
  }
  const version = contentVersion();
  await next();
  const res = c.res;
  if (!res.headers.has(PAGE_CACHE_HEADER) || !res.body) return;
  res.headers.delete(PAGE_CACHE_HEADER);
  const body = new Uint8Array(await res.arrayBuffer());
  const headers = [...res.headers.entries()].filter(([k]) => !/^(content-length|content-encoding|x-request-id|content-security-policy)$/i.test(k));
  const e: Entry = { version, at: Date.now(), body, gzip: Bun.gzipSync(body, { level: 6 }), status: res.status, headers };
  if (version === contentVersion()) remember(key, e);
  c.res = respond(e, gzipOk);
  c.res.headers.set("X-Cache", "MISS");
};
