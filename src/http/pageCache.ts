import type { MiddlewareHandler } from "hono";
import { contentVersion } from "#src/lib/contentVersion.ts";
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
// Ads have start/end times and nothing bumps the version when one begins, so entries also age out.
const MAX_AGE_MS = 60_000;
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

export function clearPageCache() {
  entries.clear();
  bytes = 0;
}

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
  const key = c.req.url;
  const gzipOk = /\bgzip\b/.test(c.req.header("accept-encoding") ?? "");
  const hit = entries.get(key);
  if (hit && hit.version === contentVersion() && Date.now() - hit.at < MAX_AGE_MS) {
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
