import { openUrl, PermanentError, readLimited, setCrawlDelay, type SpiderOptions } from "./fetch.ts";

// robots.txt (RFC 9309): the group naming our user-agent token, else the `*` group; the longest
// matching Allow/Disallow rule wins (Allow on a tie); `*` and `$` wildcards. A missing file (4xx)
// allows everything; a server error means "not now" (the job is retried later).

interface Rule { allow: boolean; pattern: string }
interface Robots { rules: Rule[]; crawlDelayMs: number }

const TTL_MS = 3600_000;
const cache = new Map<string, { robots: Robots; until: number }>();
/** Tests serve a fresh robots.txt per run from the same origin. */
export const clearRobotsCache = () => cache.clear();

/** The product token of a User-Agent ("WenkuSpider/1.0 (...)" → "wenkuspider"). */
export const agentToken = (ua: string) => (ua.split(/[\s/]/)[0] ?? "").toLowerCase();

export function parseRobots(text: string, agent: string): Robots {
  const groups: { agents: string[]; rules: Rule[]; delay: number }[] = [];
  let current: (typeof groups)[number] | null = null;
  let lastWasAgent = false;
  for (const rawLine of text.split(/\r?\n|\r/)) {
    const line = rawLine.replace(/#.*$/, "").trim();
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === "user-agent") {
      if (!current || !lastWasAgent) groups.push((current = { agents: [], rules: [], delay: 0 }));
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (!current) continue;
    if (key === "allow" || key === "disallow") {
      // An empty Disallow allows everything: no rule.
      if (value) current.rules.push({ allow: key === "allow", pattern: value });
    } else if (key === "crawl-delay") {
      const n = Number(value);
      if (Number.isFinite(n) && n > 0) current.delay = Math.min(60, n) * 1000;
    }
  }
  const own = groups.filter((g) => g.agents.some((a) => a !== "*" && agent.startsWith(a)));
  const chosen = own.length ? own : groups.filter((g) => g.agents.includes("*"));
  return { rules: chosen.flatMap((g) => g.rules), crawlDelayMs: Math.max(0, ...chosen.map((g) => g.delay)) };
}

function matches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith("$");
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const source = body.split("*").map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*");
  return new RegExp(`^${source}${anchored ? "$" : ""}`).test(path);
}

export function allowedBy(robots: Robots, pathAndQuery: string): boolean {
  let best: Rule | null = null;
  for (const r of robots.rules) {
    if (!matches(r.pattern, pathAndQuery)) continue;
    if (!best || r.pattern.length > best.pattern.length || (r.pattern.length === best.pattern.length && r.allow)) best = r;
  }
  return !best || best.allow;
}

async function load(origin: URL, opts: SpiderOptions, signal: AbortSignal): Promise<Robots> {
  const hit = cache.get(origin.origin);
  if (hit && hit.until > Date.now()) return hit.robots;
  let robots: Robots = { rules: [], crawlDelayMs: 0 };
  const { res } = await openUrl(new URL("/robots.txt", origin), opts, signal, "text/plain");
  if (res.status >= 500) {
    await res.body?.cancel().catch(() => {});
    throw new Error(`robots.txt 暂时无法读取（HTTP ${res.status}），稍后重试`);
  }
  if (res.ok) {
    const chunks: Uint8Array[] = [];
    // RFC 9309 asks crawlers to read at least 500 KiB; anything past that is ignored.
    await readLimited(res, 512 * 1024, (c) => chunks.push(c), () => "robots.txt 过大").catch((err) => {
      if (!(err instanceof PermanentError)) throw err;
    });
    robots = parseRobots(new TextDecoder().decode(Buffer.concat(chunks)), agentToken(opts.userAgent));
  } else await res.body?.cancel().catch(() => {});
  cache.set(origin.origin, { robots, until: Date.now() + TTL_MS });
  if (robots.crawlDelayMs) setCrawlDelay(origin.host, robots.crawlDelayMs);
  return robots;
}

/** Refuses (permanently) a URL the site's robots.txt does not allow us to fetch. */
export async function assertRobotsAllow(url: URL, opts: SpiderOptions, signal: AbortSignal) {
  const robots = await load(url, opts, signal);
  if (!allowedBy(robots, url.pathname + url.search)) throw new PermanentError(`该网站的 robots.txt 禁止采集此地址：${url.pathname}`);
}
