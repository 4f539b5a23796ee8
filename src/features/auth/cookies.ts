import type { Context } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import { clientIp } from "#src/http/context.ts";
import { createSession, SESSION_COOKIE, SESSION_TTL_MS } from "./sessions.ts";

function secure(c: Context) {
  return c.req.url.startsWith("https:") || c.req.header("x-forwarded-proto") === "https";
}

/** Starts a session for the user: HttpOnly cookie for pages, and the token for API clients. */
export function startSession(c: Context, userId: number): { token: string; expires_at: number } {
  const s = createSession(userId, clientIp(c), c.req.header("user-agent") ?? "");
  setCookie(c, SESSION_COOKIE, s.token, { httpOnly: true, sameSite: "Lax", path: "/", secure: secure(c), maxAge: SESSION_TTL_MS / 1000 });
  return s;
}

export function clearSessionCookie(c: Context) {
  deleteCookie(c, SESSION_COOKIE, { path: "/" });
}
