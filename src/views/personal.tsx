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

export interface Fragment { html: string; bytes: Uint8Array; z?: Uint8Array }
export interface SharedTemplate {
  /** static parts, one more than slots: parts[0] slot0 parts[1] slot1 … parts[n] */
  parts: Uint8Array[];
  /** the same, raw-deflated with a sync flush so they can be concatenated into one gzip stream */
  partsZ: Uint8Array[];
  slots: Slot[];
  islands: Set<string>;
  /** names this template's slot outputs in the variant cache */
  id: number;
}

const enc = new TextEncoder();
export const deflatePart = (b: Uint8Array) => (b.length ? new Uint8Array(deflateRawSync(b, { level: 6, finishFlush: constants.Z_SYNC_FLUSH })) : b);

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
  const bytes = parts.map((p) => enc.encode(p));
  const template: SharedTemplate = { parts: bytes, partsZ: bytes.map(deflatePart), slots: share.slots, islands: new Set(share.assets.islands), id: ++templates };
  // The anonymous outputs are the first variants of slots that name one.
  share.slots.forEach((s, i) => {
    const v = s.vary?.(null);
    if (v != null) keepVariant(`${template.id}:${i}:${v}`, { html: anon[i]!, bytes: enc.encode(anon[i]!) });
  });
  return { body, template };
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
function keepVariant(key: string, f: Fragment) {
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
}

/** One slot rendered for this user; null when it needs an island the shared page does not load. */
function renderSlot(t: SharedTemplate, i: number, info: RequestInfo): Fragment | null {
  const slot = t.slots[i]!;
  const v = slot.vary?.(info.user);
  const key = v == null ? null : `${t.id}:${i}:${v}`;
  if (key !== null) {
    const hit = variants.get(key);
    if (hit) {
      variants.delete(key);
      variants.set(key, hit);
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
 * The page for this member: static parts with their slots. With gzip, the static parts' deflate
 * segments are reused and only the member's fragments are compressed (kept with cached variants);
 * when several fragments are new this request, one level-1 pass over the body is cheaper.
 */
export function renderForUser(t: SharedTemplate, info: RequestInfo, gzip: boolean): { body: Uint8Array<ArrayBuffer>; gzip: Uint8Array<ArrayBuffer> | null } | null {
  const frags: Fragment[] = [];
  for (let i = 0; i < t.slots.length; i++) {
    const f = renderSlot(t, i, info);
    if (!f) return null;
    frags.push(f);
  }
  const chunks: Uint8Array[] = [t.parts[0]!];
  frags.forEach((f, i) => chunks.push(f.bytes, t.parts[i + 1]!));
  const body = concat(chunks);
  if (!gzip) return { body, gzip: null };
  const fresh = frags.filter((f) => f.bytes.length && !f.z).length;
  if (fresh > 2) return { body, gzip: Bun.gzipSync(body, { level: 1 }) };
  const z: Uint8Array[] = [GZIP_HEAD, t.partsZ[0]!];
  frags.forEach((f, i) => {
    if (f.bytes.length) {
      if (!f.z) {
        f.z = deflatePart(f.bytes);
      }
      z.push(f.z);
    }
    z.push(t.partsZ[i + 1]!);
  });
  // Final empty fixed block, then CRC-32 and length of the whole body.
  const out = concat(z, 10);
  const tail = new DataView(out.buffer, out.length - 10);
  tail.setUint8(0, 0x03);
  tail.setUint8(1, 0x00);
  tail.setUint32(2, Bun.hash.crc32(body) >>> 0, true);
  tail.setUint32(6, body.length >>> 0, true);
  return { body, gzip: out };
}

// The page cache offers a collector to a render it will keep; renderPage takes it when the page is shareable.
const offered = new WeakMap<Request, ShareCollector>();
export function offerShare(req: Request): ShareCollector {
  const s: ShareCollector = { slots: [], touchedUser: false, assets: null };
  offered.set(req, s);
  return s;
}
export const takeShare = (req: Request): ShareCollector | null => offered.get(req) ?? null;
