import type { Context } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import { env } from "#src/env.ts";
import { clientIp } from "#src/http/context.ts";
import { createSession, SESSION_COOKIE, SESSION_TTL_MS } from "./sessions.ts";

// X-Forwarded-Proto is believed only behind a trusted proxy, like X-Forwarded-For.
function secure(c: Context) {
  return c.req.url.startsWith("https:") || (env.trustProxy && c.req.header("x-forwarded-proto") === "https");
}

/**
 * Starts a session for the user (or adopts one just made, e.g. by login()): HttpOnly cookie for
 * pages, and the token for API clients.
 */
export function startSession(c: Context, userId: number, existing?: { token: string; expires_at: number }): { token: string; expires_at: number } {
  const s = existing ?? createSession(userId, clientIp(c), c.req.header("user-agent") ?? "");
  setCookie(c, SESSION_COOKIE, s.token, { httpOnly: true, sameSite: "Lax", path: "/", secure: secure(c), maxAge: SESSION_TTL_MS / 1000 });
  return { token: s.token, expires_at: s.expires_at };
}

export function clearSessionCookie(c: Context) {
  deleteCookie(c, SESSION_COOKIE, { path: "/" });
}
