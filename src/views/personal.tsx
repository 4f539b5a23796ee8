import { constants, deflateRawSync } from "node:zlib";
import { createContext, useContext, type ReactNode } from "react";
import { renderToString } from "react-dom/server.browser";
import type { SessionUser } from "#src/features/auth/sessions.ts";
import { AssetsContext, type AssetCollector } from "./assets.tsx";
import { RequestContext, type RequestInfo } from "./request.tsx";

/**
 * Shared pages with personal slots. A page that opts in (renderPage `share: true`) is rendered once
 * per URL and content version for an anonymous visitor; every part that depends on who is asking
 * sits inside `<Personal>`. That render marks each Personal part with sentinels, so the page cache
 * can keep the page as static parts around slots. A signed-in member gets the same static parts
 * with each slot rendered again for them (renderToString of the slot's element under their
 * RequestContext) — the shared body never saw a user, so it cannot carry one member's data to another.
 *
 * `vary(user)` may name what a slot's output depends on (e.g. VIP or not, or the user's id and
 * name); outputs are then kept per page entry and that key. Without it (or when it answers null)
 * the slot renders per request.
 */
export type Vary = (user: SessionUser | null) => string | null;
export interface Slot { element: ReactNode; vary?: Vary }
/** Collected while a shareable page renders: its slots and whether anything read the user outside them. */
export interface ShareCollector { slots: Slot[]; touchedUser: boolean; assets: AssetCollector | null }
const ShareContext = createContext<ShareCollector | null>(null);
export const ShareProvider = ShareContext.Provider;

// Private-use characters plus a per-process random nonce: page text (a title, a query) cannot forge a marker.
const NONCE = Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, "0")).join("");
const open = (n: number) => `\uE000${NONCE}:${n}\uE001`;
const close = (n: number) => `\uE002${NONCE}:${n}\uE001`;
const MARK = new RegExp(`\uE000${NONCE}:(\\d+)\uE001([\\s\\S]*?)\uE002${NONCE}:\\1\uE001`, "g");
const ANY_MARK = new RegExp(`[\uE000\uE002]${NONCE}:\\d+\uE001`, "g");

/** A part of the page that depends on the signed-in user. Outside a shared render it is just its children. */
export function Personal({ children, vary }: { children: ReactNode; vary?: Vary }) {
  const share = useContext(ShareContext);
  const req = useContext(RequestContext);
  if (!share) return <>{children}</>;
  const n = share.slots.push({ element: children, vary }) - 1;
  // The slot's own (anonymous) render reads a plain context: reading the user here is expected.
  const plain: RequestInfo = { path: req.path, search: req.search, user: null };
  return (
    <ShareContext.Provider value={null}>
      <RequestContext.Provider value={plain}>{open(n)}{children}{close(n)}</RequestContext.Provider>
    </ShareContext.Provider>
  );
}

/**
 * The request context of a shared render: no user, and reading `user` outside a Personal part is
 * noted (the page is then not shared with members, who get a full render of their own).
 */
export function guardedRequest(path: string, search: string, share: ShareCollector): RequestInfo {
  return {
    path, search,
    get user() {
      share.touchedUser = true;
      return null;
    },
  };
}

/**
 * One slot output. A kept one (`id`) keeps its deflated copies by what precedes it in the page
 * (`z`, see renderForUser); a per-request one has no id and is deflated each time.
 */
export interface Fragment { html: string; bytes: Uint8Array; id?: number; z?: Map<string, Uint8Array> }
export interface SharedTemplate {
  /** static parts, one more than slots: parts[0] slot0 parts[1] slot1 … parts[n] */
  parts: Uint8Array[];
  slots: Slot[];
  /** each slot's anonymous output; a member's slot that renders the same joins the static run around it */
  anon: Fragment[];
  /**
   * Raw-deflate segments (sync flush, so they concatenate into one gzip stream) of the static runs
   * between the slots a member's page fills differently from the anonymous one, by the list of those
   * slots (most members differ in the header only: a few lists per template, at most MAX_RUNS).
   */
  runs: Map<string, Uint8Array[]>;
  islands: Set<string>;
  /** names this template's slot outputs in the variant cache */
  id: number;
}

const enc = new TextEncoder();
export const deflatePart = (b: Uint8Array, level = 6, dictionary?: Uint8Array) =>
  b.length ? new Uint8Array(deflateRawSync(b, { level, finishFlush: constants.Z_SYNC_FLUSH, ...(dictionary?.length ? { dictionary } : {}) })) : b;
/** Static runs are deflated once per template and list of differing slots: the smallest output is worth it. */
const RUN_LEVEL = 9;
const MAX_RUNS = 6;

/**
 * Splits a shared render into the anonymous body (markers removed) and, when every slot was found
 * in order and nothing read the user outside them, the template members are served from.
 */
export function splitShared(html: string, share: ShareCollector): { body: string; template: SharedTemplate | null } {
  const parts: string[] = [];
  const anon: string[] = [];
  let last = 0;
  let ok = !share.touchedUser;
  for (const m of html.matchAll(MARK)) {
    if (Number(m[1]) !== anon.length) ok = false;
    parts.push(html.slice(last, m.index));
    anon.push(m[2]!);
    last = m.index! + m[0].length;
  }
  parts.push(html.slice(last));
  if (anon.length !== share.slots.length) ok = false;
  const body = parts.map((p, i) => p + (anon[i] ?? "")).join("").replace(ANY_MARK, "");
  if (!ok || !share.assets) return { body, template: null };
  const template: SharedTemplate = {
    parts: parts.map((p) => enc.encode(p)), slots: share.slots, anon: anon.map((html) => ({ html, bytes: enc.encode(html) })), runs: new Map(),
    islands: new Set(share.assets.islands), id: ++templates,
  };
  // The anonymous outputs are the first variants of slots that name one.
  share.slots.forEach((s, i) => {
    const v = s.vary?.(null);
    if (v != null) keepVariant(`${template.id}:${i}:${v}`, template.anon[i]!);
  });
  return { body, template };
}

// The LRU maps below move an entry to the back when it is used, but at most once per 1,000 uses of
// all of them: a Map delete and set on every hit cost more than the rest of a kept slot's lookup.
let uses = 0;
const touchedAt = new WeakMap<object, number>();
function touch<V extends object>(map: Map<string, V>, key: string, value: V) {
  uses++;
  if (uses - (touchedAt.get(value) ?? 0) < 1000) return;
  touchedAt.set(value, uses);
  map.delete(key);
  map.set(key, value);
}

// Slot outputs by template, slot and vary key: one LRU for all pages, bounded in count and bytes
// (a template dropped by the page cache leaves its variants to age out here).
let templates = 0;
const variants = new Map<string, Fragment>();
let variantBytes = 0;
const MAX_VARIANTS = 20_000;
const MAX_VARIANT_BYTES = 32 * 1024 * 1024;
// Strings count twice (UTF-16); the deflated copy, added later and smaller, is in the margin.
const weight = (f: Fragment) => 3 * f.bytes.length;
let fragments = 0;
function keepVariant(key: string, f: Fragment) {
  f.id ??= ++fragments;
  const old = variants.get(key);
  if (old) variantBytes -= weight(old);
  variants.delete(key);
  variants.set(key, f);
  variantBytes += weight(f);
  while (variants.size > MAX_VARIANTS || variantBytes > MAX_VARIANT_BYTES) {
    const [k, v] = variants.entries().next().value!;
    variants.delete(k);
    variantBytes -= weight(v);
  }
}
export function clearVariants() {
  variants.clear();
  variantBytes = 0;
  outputs.clear();
  outputBytes = 0;
}

/** One slot rendered for this user; null when it needs an island the shared page does not load. */
function renderSlot(t: SharedTemplate, i: number, info: RequestInfo): Fragment | null {
  const slot = t.slots[i]!;
  const v = slot.vary?.(info.user);
  const key = v == null ? null : `${t.id}:${i}:${v}`;
  if (key !== null) {
    const hit = variants.get(key);
    if (hit) {
      touch(variants, key, hit);
      return hit;
    }
  }
  const assets: AssetCollector = { islands: new Set(), eager: new Set() };
  const html = renderToString(
    <AssetsContext.Provider value={assets}>
      <RequestContext.Provider value={info}>{slot.element}</RequestContext.Provider>
    </AssetsContext.Provider>,
  );
  for (const n of assets.islands) if (!t.islands.has(n)) return null;
  const f: Fragment = { html, bytes: enc.encode(html) };
  if (key !== null) keepVariant(key, f);
  return f;
}

const GZIP_HEAD = new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255]);

function concat(chunks: Uint8Array[], extra = 0): Uint8Array<ArrayBuffer> {
  let n = extra;
  for (const c of chunks) n += c.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/**
 * The deflate segments of the static runs around the slots in `differ` (indexes, ascending): each
 * run is the static parts and the anonymous outputs of the other slots between two differing slots.
 */
function runsFor(t: SharedTemplate, differ: number[]): Uint8Array[] {
  const key = differ.join(",");
  let runs = t.runs.get(key);
  if (runs) return runs;
  runs = [];
  let chunks: Uint8Array[] = [t.parts[0]!];
  for (let i = 0; i < t.slots.length; i++) {
    if (differ.includes(i)) {
      runs.push(deflatePart(concat(chunks), RUN_LEVEL));
      chunks = [];
    } else chunks.push(t.anon[i]!.bytes);
    chunks.push(t.parts[i + 1]!);
  }
  runs.push(deflatePart(concat(chunks), RUN_LEVEL));
  if (t.runs.size >= MAX_RUNS) t.runs.delete(t.runs.keys().next().value!);
  t.runs.set(key, runs);
  return runs;
}

/**
 * The page for this member (gzip-encoded when asked): static parts with their slots. With gzip, only the slots that differ
 * from the anonymous page split the stream: the static runs between them are deflated once per
 * template and list of differing slots, the member's fragments once per kept variant (or per request
 * for slots rendered per request; when more than two of those differ, one level-1 pass is cheaper).
 */
export function renderForUser(t: SharedTemplate, info: RequestInfo, gzip: boolean): Uint8Array<ArrayBuffer> | null {
  const frags: Fragment[] = [];
  for (let i = 0; i < t.slots.length; i++) {
    const f = renderSlot(t, i, info);
    if (!f) return null;
    frags.push(f);
  }
  // The slots that differ from the anonymous page; when each is a kept output, `key` names exactly
  // these bytes (a template and its kept fragments never change), so the answer itself is kept:
  // a member reloading a page gets the very same buffer (Bun.serve sends a buffer it has sent before
  // far faster than a new one: 64k vs 41k req/s for 8 KB here).
  const differ: number[] = [];
  let fresh = 0;
  let key: string | null = `${t.id}:${gzip ? "z" : "i"}:`;
  frags.forEach((f, i) => {
    if (f === t.anon[i] || f.html === t.anon[i]!.html) return;
    differ.push(i);
    if (f.id === undefined) {
      key = null;
      if (f.bytes.length) fresh++;
    } else if (key !== null) key += `${i}.${f.id},`;
  });
  if (key !== null) {
    const kept = outputs.get(key);
    if (kept) {
      touch(outputs, key, kept);
      return kept;
    }
  }
  const out = assemble(t, frags, differ, fresh, gzip);
  if (key !== null) keepOutput(key, out);
  return out;
}

// Whole answers by template, encoding and differing kept fragments: one LRU, bounded in bytes.
const outputs = new Map<string, Uint8Array<ArrayBuffer>>();
let outputBytes = 0;
const MAX_OUTPUT_BYTES = 32 * 1024 * 1024;
function keepOutput(key: string, out: Uint8Array<ArrayBuffer>) {
  outputs.set(key, out);
  outputBytes += out.length;
  while (outputBytes > MAX_OUTPUT_BYTES) {
    const [k, v] = outputs.entries().next().value!;
    outputs.delete(k);
    outputBytes -= v.length;
  }
}

function assemble(t: SharedTemplate, frags: Fragment[], differ: number[], fresh: number, gzip: boolean): Uint8Array<ArrayBuffer> {
  const chunks: Uint8Array[] = [t.parts[0]!];
  frags.forEach((f, i) => chunks.push(f.bytes, t.parts[i + 1]!));
  if (!gzip) return concat(chunks);
  if (fresh > 2) return Bun.gzipSync(concat(chunks), { level: 1 });
  const runs = runsFor(t, differ);
  const z: Uint8Array[] = [GZIP_HEAD, runs[0]!];
  // A kept fragment is deflated with the 32 KB of page before it as the dictionary (its repeats of
  // the page's markup and data compress as back-references into it: valid, as the decoder has those
  // bytes in its window), once per context: which slots differ before it and which fragments they were.
  let context: string | null = "";
  let next = 0;
  for (let i = 0; i < frags.length; i++) {
    const f = frags[i]!;
    if (i === differ[next]) {
      if (f.bytes.length) {
        const keep = f.id !== undefined && context !== null ? context : null;
        let fz = keep !== null ? f.z?.get(keep) : undefined;
        if (!fz) {
          if (keep !== null) {
            fz = deflatePart(f.bytes, 6, before(chunks, 2 * i + 1, 32768));
            f.z ??= new Map();
            if (f.z.size >= 4) f.z.delete(f.z.keys().next().value!);
            f.z.set(keep, fz);
          } else fz = deflatePart(f.bytes);
        }
        z.push(fz);
      }
      z.push(runs[++next]!);
      context = f.id === undefined || context === null ? null : `${context}${i}.${f.id},`;
    }
  }
  // Final empty fixed block, then CRC-32 and length of the whole body (chained over its chunks:
  // the body itself is never assembled for a gzip answer).
  let crc = 0;
  let length = 0;
  for (const c of chunks) {
    crc = Bun.hash.crc32(c, crc);
    length += c.length;
  }
  const out = concat(z, 10);
  const tail = new DataView(out.buffer, out.length - 10);
  tail.setUint8(0, 0x03);
  tail.setUint8(1, 0x00);
  tail.setUint32(2, crc >>> 0, true);
  tail.setUint32(6, length >>> 0, true);
  return out;
}

/** The last `max` bytes of chunks[0..end) (the page before a slot), as one array. */
function before(chunks: Uint8Array[], end: number, max: number): Uint8Array {
  const take: Uint8Array[] = [];
  let n = 0;
  for (let k = end - 1; k >= 0 && n < max; k--) {
    const c = chunks[k]!;
    const part = c.length > max - n ? c.subarray(c.length - (max - n)) : c;
    take.unshift(part);
    n += part.length;
  }
  return concat(take);
}

// The page cache offers a collector to a render it will keep; renderPage takes it when the page is shareable.
const offered = new WeakMap<Request, ShareCollector>();
export function offerShare(req: Request): ShareCollector {
  const s: ShareCollector = { slots: [], touchedUser: false, assets: null };
  offered.set(req, s);
  return s;
}
export const takeShare = (req: Request): ShareCollector | null => offered.get(req) ?? null;
