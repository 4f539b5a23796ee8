import { setting } from "#src/features/settings/service.ts";

/**
 * The admin's analytics snippet is trusted markup; CSP must let exactly it run and nothing else:
 * inline <script> bodies by sha256 hash, external ones by origin. Cached per snippet text.
 */
let memo: { src: string; csp: string[] } | null = null;

export function analyticsSnippet(): string {
  return String(setting("system", "analytics") ?? "").trim();
}

export function analyticsCsp(): string[] {
  const src = analyticsSnippet();
  if (memo?.src === src) return memo.csp;
  const csp: string[] = [];
  for (const m of src.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attrs = m[1] ?? "";
    const body = m[2] ?? "";
    const srcAttr = /\bsrc\s*=\s*["']?([^"'\s>]+)/i.exec(attrs)?.[1];
    if (srcAttr) {
      try {
        const u = new URL(srcAttr, "https://invalid.local");
        if (u.protocol === "https:" && u.host !== "invalid.local") csp.push(u.origin);
      } catch {}
    } else if (body.trim()) {
      csp.push(`'sha256-${new Bun.CryptoHasher("sha256").update(body).digest("base64")}'`);
    }
  }
  memo = { src, csp: [...new Set(csp)] };
  return memo.csp;
}
