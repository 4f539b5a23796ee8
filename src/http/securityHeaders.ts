import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./context.ts";
import { analyticsCsp } from "#src/views/analytics.ts";

/**
 * CSP allows only this site's own scripts, plus exactly the analytics snippet an admin configured
 * (its inline code by hash, its script hosts by origin).
 */
export const securityHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  const extra = c.res.headers.get("content-type")?.startsWith("text/html") ? analyticsCsp() : [];
  const h = c.res.headers;
  h.set(
    "Content-Security-Policy",
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
    ].join("; "),
  );
  h.set("X-Content-Type-Options", "nosniff");
  h.set("X-Frame-Options", "SAMEORIGIN");
  h.set("Referrer-Policy", "strict-origin-when-cross-origin");
  h.set("Cross-Origin-Opener-Policy", "same-origin");
};
