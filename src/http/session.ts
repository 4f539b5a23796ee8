import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { lookupSession, SESSION_COOKIE } from "#src/features/auth/sessions.ts";
import { forbidden } from "#src/lib/errors.ts";
import { noteForwardedFor, type AppEnv } from "./context.ts";

/** Bearer header (API clients) or HttpOnly cookie (pages) → c.var.user. */
export const sessionMiddleware: MiddlewareHandler<AppEnv> = async (c, next) => {
  noteForwardedFor(c);
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
 * Whether the browser says this request comes from another site: Sec-Fetch-Site other than
 * same-origin/none, else an Origin whose host is not ours. `undefined` when it says nothing.
 */
function crossSite(c: Context<AppEnv>): boolean | undefined {
  const site = c.req.header("sec-fetch-site");
  if (site) return site !== "same-origin" && site !== "none";
  const origin = c.req.header("origin");
  if (origin === undefined) return undefined;
  let originHost = "";
  try {
    originHost = new URL(origin).host;
  } catch {}
  return !originHost || originHost !== c.req.header("host");
}

/** Signing in or up sets the session cookie, so another site must not be able to do it for us (login CSRF). */
const SIGN_IN = /^\/api\/v1\/user\/(login|register)(\/|$)/;

/**
 * CSRF defence for cookie-authenticated writes: the browser must say the request is same-origin
 * (Sec-Fetch-Site, else Origin matching Host). Bearer requests carry no ambient credential.
 * Login and register POSTs carry no credential either, but a browser saying they come from
 * another site is refused too; API clients that send neither header are not affected.
 */
export const csrfGuard: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (SAFE.has(c.req.method)) return next();
  if (c.get("authVia") !== "cookie") {
    if (c.req.method === "POST" && SIGN_IN.test(c.req.path) && crossSite(c)) throw forbidden("跨站请求被拒绝");
    return next();
  }
  if (crossSite(c) !== false) throw forbidden("跨站请求被拒绝");
  return next();
};
