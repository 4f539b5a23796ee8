import { isIP } from "node:net";
import { setting } from "#src/features/settings/service.ts";
import { resolveChecked, SsrfError, type Pinned, type Resolver } from "./ssrf.ts";

// Every request the spider makes goes through here: the URL and the address its name resolves to
// are checked (ssrf.ts), the connection goes to exactly that checked address (the URL's host is
// replaced by it, the name travels in Host and TLS SNI), redirects are followed by hand so each
// hop is checked again, and one host is never asked more often than the politeness delay allows.

/** A refusal no retry can change (blocked address, too large, not a document, robots.txt). */
export class PermanentError extends Error {}

export interface SpiderOptions {
  allowPrivate: boolean;
  userAgent: string;
  delayMs: number;
  timeoutMs: number;
  resolver?: Resolver;
}

/** The spider's settings (group `spider`); tests pass a resolver of their own. */
export function spiderOptions(resolver?: Resolver): SpiderOptions {
  return {
    allowPrivate: !!setting("spider", "allow_private_addresses"),
    userAgent: String(setting("spider", "user_agent") || "WenkuSpider/1.0"),
    delayMs: Math.max(0, Number(setting("spider", "delay_ms")) || 0),
    timeoutMs: Math.max(1, Number(setting("spider", "timeout")) || 60) * 1000,
    resolver: resolver ?? testResolver ?? undefined,
  };
}

let testResolver: Resolver | null = null;
/** Tests answer DNS themselves (a name resolving to a private address) without a DNS server. */
export const setSpiderResolver = (r: Resolver | null) => void (testResolver = r);
let testCa: string | null = null;
/** Tests trust their own self-signed certificate, to prove HTTPS to a pinned address checks the name. */
export const setSpiderTestCa = (pem: string | null) => void (testCa = pem);

/** A time-out of its own for each request, beside the job's signal (time-out or lost lease). */
export const withTimeout = (signal: AbortSignal, ms: number) => AbortSignal.any([signal, AbortSignal.timeout(ms)]);

const MAX_REDIRECTS = 5;
const nextSlot = new Map<string, number>();
const crawlDelays = new Map<string, number>();

/** robots.txt may ask for a longer delay than the setting (Crawl-delay, seconds). */
export const setCrawlDelay = (host: string, ms: number) => void crawlDelays.set(host, ms);

/** Waits for this host's next free slot: requests to one host are spaced by the delay, others run freely. */
export async function politeWait(host: string, delayMs: number, signal?: AbortSignal) {
  const gap = Math.max(delayMs, crawlDelays.get(host) ?? 0);
  const now = Date.now();
  const slot = Math.max(now, nextSlot.get(host) ?? 0);
  nextSlot.set(host, slot + gap);
  if (nextSlot.size > 10_000) for (const [h, t] of nextSlot) if (t < now) nextSlot.delete(h);
  if (slot > now) await new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, slot - now);
    signal?.addEventListener("abort", () => (clearTimeout(t), reject(signal.reason)), { once: true });
  });
}

export interface Opened {
  res: Response;
  /** the URL that answered (after redirects) */
  url: URL;
}

/**
 * GET a URL with every hop checked; answers the final non-redirect response, body unread.
 * `signal` covers the whole exchange including reading the body (the caller's time-out).
 */
export async function openUrl(raw: string | URL, opts: SpiderOptions, signal: AbortSignal, accept = "*/*"): Promise<Opened> {
  let current: string | URL = raw;
  for (let hop = 0; ; hop++) {
    let pinned: Pinned;
    try {
      pinned = await resolveChecked(current, { allowPrivate: opts.allowPrivate, resolver: opts.resolver });
    } catch (err) {
      if (err instanceof SsrfError) throw new PermanentError(hop ? `重定向被拒绝：${err.message}` : err.message);
      throw err;
    }
    const { url, address } = pinned;
    await politeWait(url.host, opts.delayMs, signal);
    const target = new URL(url);
    target.hostname = isIP(address) === 6 ? `[${address}]` : address;
    const named = !isIP(url.hostname.replace(/^\[|\]$/g, ""));
    let res: Response;
    try {
      res = await fetch(target, {
        method: "GET",
        redirect: "manual",
        signal,
        // A proxy would resolve the name again, on its side: the checked address must be the one connected to.
        proxy: false,
        headers: { Host: url.host, "User-Agent": opts.userAgent, Accept: accept, "Accept-Language": "zh-CN,zh;q=0.9,en;q=0.5" },
        // The certificate is verified against the name (SNI too), although the connection goes to the IP.
        ...(url.protocol === "https:" ? { tls: { ...(named ? { serverName: url.hostname } : {}), ...(testCa ? { ca: testCa } : {}) } } : {}),
      } as RequestInit);
    } catch (err) {
      const code = String((err as { code?: string }).code ?? (err as Error).message ?? "");
      // A certificate that does not match or is not trusted will not fix itself on a retry.
      if (/CERT|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(code)) throw new PermanentError(`HTTPS 证书校验失败（${code.slice(0, 80)}）`);
      throw err;
    }
    if (res.status >= 300 && res.status < 400 && res.headers.get("location")) {
      await res.body?.cancel().catch(() => {});
      if (hop >= MAX_REDIRECTS) throw new PermanentError(`重定向次数过多（超过 ${MAX_REDIRECTS} 次）`);
      try {
        current = new URL(res.headers.get("location")!, url);
      } catch {
        throw new PermanentError("重定向地址格式不正确");
      }
      continue;
    }
    return { res, url };
  }
}

/** Reads a body chunk by chunk, refusing as soon as it passes `maxBytes` (declared or actual). */
export async function readLimited(res: Response, maxBytes: number, onChunk: (chunk: Uint8Array) => void, tooLarge: (n: number) => string) {
  const declared = Number(res.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => {});
    throw new PermanentError(tooLarge(declared));
  }
  let total = 0;
  if (!res.body) return 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new PermanentError(tooLarge(total));
    }
    onChunk(value);
  }
  return total;
}

/** A page's HTML as text (at most 5 MB), for link extraction. */
export async function fetchPage(url: string | URL, opts: SpiderOptions, signal: AbortSignal): Promise<{ url: URL; html: string; status: number; type: string }> {
  const { res, url: final } = await openUrl(url, opts, signal, "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5");
  const type = (res.headers.get("content-type") ?? "").toLowerCase();
  if (!res.ok) {
    await res.body?.cancel().catch(() => {});
    return { url: final, html: "", status: res.status, type };
  }
  const chunks: Uint8Array[] = [];
  await readLimited(res, 5 * 1024 * 1024, (c) => chunks.push(c), () => "网页超过 5 MB，已停止读取");
  const bytes = Buffer.concat(chunks);
  const charset = /charset=([\w-]+)/.exec(type)?.[1] ?? /<meta[^>]{0,200}charset=["']?([\w-]+)/i.exec(bytes.subarray(0, 2048).toString("latin1"))?.[1] ?? "utf-8";
  let html: string;
  try {
    html = new TextDecoder(charset.toLowerCase() === "gb2312" || charset.toLowerCase() === "gbk" ? "gb18030" : charset).decode(bytes);
  } catch {
    html = new TextDecoder("utf-8").decode(bytes);
  }
  return { url: final, html, status: res.status, type };
}
