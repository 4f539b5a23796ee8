import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./context.ts";
import { analyticsCsp } from "#src/views/analytics.ts";

const policy = (extra: string[]) =>
  [
    "default-src 'self'",
    `script-src 'self'${extra.length ? " " + extra.join(" ") : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    `connect-src 'self'${extra.length ? " https:" : ""}`,
    "frame-ancestors 'self'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join("; ");

// Any response that is not HTML gets the policy without analytics sources; it never changes.
const PLAIN_CSP = policy([]);
// analyticsCsp() answers the same array until the analytics snippet setting changes: the HTML
// policy string is rebuilt only then, not on every request.
let htmlCsp: { extra: string[]; csp: string } | null = null;
function cspFor(html: boolean): string {
  if (!html) return PLAIN_CSP;
  const extra = analyticsCsp();
  if (htmlCsp?.extra !== extra) htmlCsp = { extra, csp: policy(extra) };
  return htmlCsp.csp;
}

/**
 * CSP allows only this site's own scripts, plus exactly the analytics snippet an admin configured
 * (its inline code by hash, its script hosts by origin).
 */
export const securityHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  const h = c.res.headers;
  h.set("Content-Security-Policy", cspFor(h.get("content-type")?.startsWith("text/html") ?? false));
  h.set("X-Content-Type-Options", "nosniff");
  h.set("X-Frame-Options", "SAMEORIGIN");
  h.set("Referrer-Policy", "strict-origin-when-cross-origin");
  h.set("Cross-Origin-Opener-Policy", "same-origin");
};
