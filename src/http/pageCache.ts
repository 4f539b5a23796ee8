import type { MiddlewareHandler, Next } from "hono";
import { contentVersion } from "#src/lib/contentVersion.ts";
import { getSettings } from "#src/features/settings/service.ts";
import { clearVariants, offerShare, renderForUser, splitShared, type SharedTemplate } from "#src/views/personal.tsx";
import type { AppContext, AppEnv } from "./context.ts";

/**
 * Rendered pages kept (raw and gzipped) keyed by URL and the content version. Anonymous visitors all
 * see the same HTML for a URL until content changes. A page that also opts into sharing
 * (renderPage `share: true`, views/personal.tsx) keeps the static parts around its per-user slots:
 * a signed-in member is served those parts with only the slots rendered for them. A member's first
 * request for a URL not yet kept fills the entry with an anonymous internal request, so the shared
 * body is exactly what a visitor gets. Pages that do not share render fresh for members.
 * A page opts in by setting the X-Page-Cache header (renderPage does for public pages).
 */
/** Called each time a kept page is served (e.g. /search logs every search, repeated or not). */
export type ServeHook = (c: AppContext, hit: boolean) => void;
// ArrayBuffer-backed (not SharedArrayBuffer) byte arrays, which is what a Response body accepts.
interface Entry {
  version: number; at: number; body: Uint8Array<ArrayBuffer>; gzip: Uint8Array<ArrayBuffer>; status: number; headers: [string, string][];
  template: SharedTemplate | null; onServe?: ServeHook;
  /** response headers, by headersOf */
  answer?: Headers[];
}
const MAX_ENTRIES = 500;
const MAX_BYTES = 64 * 1024 * 1024;
// Whether, which pages and how long are the `ssr` settings (/admin/config/ssr). Ads have start/end
// times and nothing bumps the version when one begins, so entries also age out after the lifetime.
// Parsed once per settings object (getSettings keeps one until a setting changes).
let policyOf: { settings: object; value: { on: boolean; maxAgeMs: number; prefixes: string[] } } | null = null;
function policy() {
  const settings = getSettings();
  if (policyOf?.settings === settings) return policyOf.value;
  const ssr = settings.ssr;
  const prefixes = String(ssr.page_cache_paths ?? "").split(/[\n,]/).map((p) => p.trim().replace(/\/+$/, "") || "/").filter((p) => p.startsWith("/"));
  const value = { on: !!ssr.enable_page_cache, maxAgeMs: Math.max(1, Number(ssr.page_cache_seconds) || 60) * 1000, prefixes };
  policyOf = { settings, value };
  return value;
}

/** "/" stands for the home page only (else it would match everything); other prefixes match their subtree. */
export const cachedPath = (path: string, prefixes: string[]) =>
  prefixes.some((p) => (p === "/" ? path === "/" : path === p || path.startsWith(`${p}/`)));
const entries = new Map<string, Entry>();
let bytes = 0;

export const PAGE_CACHE_HEADER = "X-Page-Cache";
/** Set beside X-Page-Cache by a render whose per-user parts are all Personal slots. */
export const PAGE_SHARE_HEADER = "X-Page-Share";

// A template keeps its static parts and anonymous slot outputs (~ the body) and up to six sets of
// deflate segments (each ~ the gzip body); strings of the slots' elements are small beside them.
const size = (e: Entry) => e.body.length + e.gzip.length + (e.template ? e.body.length + 6 * e.gzip.length : 0);

function remember(key: string, e: Entry) {
  const old = entries.get(key);
  if (old) bytes -= size(old);
  entries.delete(key);
  entries.set(key, e);
  bytes += size(e);
  while (entries.size > MAX_ENTRIES || bytes > MAX_BYTES) {
    const [k, v] = entries.entries().next().value!;
    entries.delete(k);
    bytes -= size(v);
  }
}

/** Empties the cache (the 清空缓存 button, tests); answers how many pages were dropped. */
export function clearPageCache(): number {
  const n = entries.size;
  entries.clear();
  clearVariants();
  bytes = 0;
  return n;
}

export const pageCacheStats = () => ({ entries: entries.size, bytes });

// Requests whose render the cache will keep, with the hook their page registered; and the
// anonymous internal requests that fill an entry for a member (not served, so not "served").
const keeping = new WeakMap<Request, { hook?: ServeHook }>();
const internal = new WeakSet<Request>();

/**
 * For a page whose every view must be noticed (search logging): when this render is kept, the
 * hook runs for it and for every later request served from the cache, and this answers true;
 * false means the page is not kept and the caller does the work itself.
 */
export function whenServed(c: AppContext, hook: ServeHook): boolean {
  const k = keeping.get(c.req.raw);
  if (!k) return false;
  k.hook = hook;
  return true;
}

// Renders of a URL in flight, for the cache to keep. A request for that URL meanwhile waits for it
// rather than rendering the same page again: after a content change (a finished conversion, a new
// comment) 64 connections would otherwise render it up to 64 times at once, and p99 with them.
const filling = new Map<string, Promise<void>>();
/**
 * The kept entry for key, after waiting for a render of it in flight if there is one. Synchronous
 * when nothing is in flight: a caller that goes on to render must claim the key before it yields.
 */
function hitOrAwait(key: string, maxAgeMs: number): Entry | undefined | Promise<Entry | undefined> {
  const e = hit(key, maxAgeMs);
  const wait = e ? undefined : filling.get(key);
  return wait ? wait.then(() => hit(key, maxAgeMs)) : e;
}

let fetcher: ((req: Request) => Response | Promise<Response>) | null = null;
/** The app's own fetch, for the anonymous internal request that fills an entry for a member (app.ts). */
export function setPageCacheFetch(f: typeof fetcher) {
  fetcher = f;
}

// The four header sets an entry answers with, built once per entry: visitor or member, gzip or not
// (a Response copies a Headers given to it, faster than it reads a list of pairs).
function headersOf(e: Entry, gzip: boolean, member: boolean): Headers {
  const k = (gzip ? 1 : 0) + (member ? 2 : 0);
  e.answer ??= [];
  let h = e.answer[k];
  if (!h) {
    h = new Headers(e.headers);
    h.set("X-Cache", member ? "SHARED" : "HIT");
    if (member) h.set("Cache-Control", "private, no-cache");
    if (gzip) {
      h.set("Content-Encoding", "gzip");
      h.set("Vary", "Accept-Encoding");
    }
    e.answer[k] = h;
  }
  return h;
}

function respond(e: Entry, gzip: boolean) {
  return new Response(gzip ? e.gzip : e.body, { status: e.status, headers: headersOf(e, gzip, false) });
}

const fresh = (e: Entry | undefined, maxAgeMs: number): e is Entry => !!e && e.version === contentVersion() && Date.now() - e.at < maxAgeMs;

function hit(key: string, maxAgeMs: number): Entry | undefined {
  const e = entries.get(key);
  if (!fresh(e, maxAgeMs)) return undefined;
  entries.delete(key);
  entries.set(key, e);
  return e;
}

/** A signed-in member's view of a shared page, or null (not shareable, or a slot needs more): render for them. */
async function forMember(c: AppContext, key: string, maxAgeMs: number, gzipOk: boolean): Promise<Response | null> {
  let e = hitOrAwait(key, maxAgeMs);
  if (e instanceof Promise) e = await e;
  if (!e && fetcher) {
    const headers = new Headers(c.req.raw.headers);
    headers.delete("cookie");
    headers.delete("authorization");
    const req = new Request(c.req.url, { headers });
    internal.add(req);
    await (await fetcher(req)).arrayBuffer();
    e = hit(key, maxAgeMs);
  }
  if (!e?.template) return null;
  // Path and query as `new URL(url)` gives them (pathname still encoded, as renderPage sees it):
  // the request URL is already serialized, without a fragment.
  const url = c.req.url;
  const q = url.indexOf("?");
  const p = url.indexOf("/", url.indexOf("://") + 3);
  const path = p < 0 ? "/" : url.slice(p, q < 0 ? undefined : q);
  const out = renderForUser(e.template, { path, search: q >= 0 && q < url.length - 1 ? url.slice(q) : "", user: c.get("user") }, gzipOk);
  if (!out) return null;
  e.onServe?.(c, true);
  return new Response(out, { status: e.status, headers: headersOf(e, gzipOk, true) });
}

export const pageCache: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method !== "GET" || c.req.path.startsWith("/api/")) return next();
  const { on, maxAgeMs, prefixes } = policy();
  if (!on || !cachedPath(c.req.path, prefixes)) {
    await next();
    // The page asked to be cached, but the settings say no: the markers must not reach the visitor.
    c.res.headers.delete(PAGE_CACHE_HEADER);
    c.res.headers.delete(PAGE_SHARE_HEADER);
    return;
  }
  const key = c.req.url;
  const gzipOk = /\bgzip\b/.test(c.req.header("accept-encoding") ?? "");
  if (c.get("user")) {
    const res = await forMember(c, key, maxAgeMs, gzipOk);
    if (res) {
      c.res = res;
      return;
    }
    await next();
    c.res.headers.delete(PAGE_CACHE_HEADER);
    c.res.headers.delete(PAGE_SHARE_HEADER);
    return;
  }
  const served = internal.has(c.req.raw) ? null : c;
  let found = hitOrAwait(key, maxAgeMs);
  if (found instanceof Promise) found = await found;
  if (found) {
    if (served) found.onServe?.(served, true);
    c.res = respond(found, gzipOk);
    return;
  }
  const mine = filling.has(key) ? null : Promise.withResolvers<void>();
  if (mine) filling.set(key, mine.promise);
  try {
    await render(c, next, key, gzipOk, served);
  } finally {
    if (mine) {
      filling.delete(key);
      mine.resolve();
    }
  }
};

/** Renders the page and keeps it when it asked to be kept. */
async function render(c: AppContext, next: Next, key: string, gzipOk: boolean, served: AppContext | null) {
  const version = contentVersion();
  const keep: { hook?: ServeHook } = {};
  keeping.set(c.req.raw, keep);
  const share = offerShare(c.req.raw);
  await next();
  const res = c.res;
  const shared = res.headers.get(PAGE_SHARE_HEADER) === "1";
  res.headers.delete(PAGE_SHARE_HEADER);
  if (!res.headers.has(PAGE_CACHE_HEADER) || !res.body) {
    // Not kept after all: a hook it registered did not run, so it runs now.
    if (keep.hook && served) keep.hook(served, false);
    return;
  }
  res.headers.delete(PAGE_CACHE_HEADER);
  let body = new Uint8Array(await res.arrayBuffer());
  let template: SharedTemplate | null = null;
  if (shared) {
    const split = splitShared(new TextDecoder().decode(body), share);
    body = new TextEncoder().encode(split.body);
    template = split.template;
  }
  const headers = [...res.headers.entries()].filter(([k]) => !/^(content-length|content-encoding|x-request-id|content-security-policy)$/i.test(k));
  const e: Entry = { version, at: Date.now(), body, gzip: Bun.gzipSync(body, { level: 6 }), status: res.status, headers, template, onServe: keep.hook };
  if (version === contentVersion()) remember(key, e);
  if (served) keep.hook?.(served, false);
  c.res = respond(e, gzipOk);
  c.res.headers.set("X-Cache", "MISS");
}
