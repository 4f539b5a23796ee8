import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { lookupSession, SESSION_COOKIE } from "#src/features/auth/sessions.ts";
import { forbidden } from "#src/lib/errors.ts";
import type { AppEnv } from "./context.ts";

/** Bearer header (API clients) or HttpOnly cookie (pages) → c.var.user. */
export const sessionMiddleware: MiddlewareHandler<AppEnv> = async (c, next) => {
  const auth = c.req.header("authorization");
  let token: string | null = null;
  let via: AppEnv["Variables"]["authVia"] = null;
  if (auth?.toLowerCase().startsWith("bearer ")) {
    token = auth.slice(7).trim();
    via = "bearer";
  } else {
    const cookie = getCookie(c, SESSION_COOKIE);
    if (cookie) {
      token = cookie;
      via = "cookie";
    }
  }
  const user = token ? lookupSession(token) : null;
  c.set("user", user && user.status === 0 ? user : null);
  c.set("token", user ? token : null);
  c.set("authVia", user ? via : null);
  await next();
};

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * CSRF defence for cookie-authenticated writes: the browser must say the request is same-origin
 * (Sec-Fetch-Site, else Origin matching Host). Bearer requests carry no ambient credential.
 */
export const csrfGuard: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (SAFE.has(c.req.method) || c.get("authVia") !== "cookie") return next();
  const site = c.req.header("sec-fetch-site");
  if (site) {
    if (site !== "same-origin" && site !== "none") throw forbidden("跨站请求被拒绝");
    return next();
  }
  const origin = c.req.header("origin");
  const host = c.req.header("host");
  let originHost = "";
  try {
    originHost = origin ? new URL(origin).host : "";
  } catch {}
  if (!originHost || originHost !== host) throw forbidden("跨站请求被拒绝");
  return next();
};
