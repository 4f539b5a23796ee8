import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { safeRedirect as sharedSafeRedirect } from "#src/features/auth/redirect.ts";
import { badRequest } from "#src/lib/errors.ts";

// The OAuth `state`: random, single-use, expiring, and bound to the browser that started the flow by
// an HttpOnly cookie holding the same value, so a code obtained by someone else cannot be planted
// into this browser (login CSRF). What the flow needs later (where to go, the PKCE verifier, the
// origin the redirect_uri was built from) stays on the server, keyed by the state.

export const STATE_COOKIE = "wk_oauth_state";
const TTL_MS = 10 * 60_000;
// Anonymous visitors can start flows at will: the table is bounded, oldest entries go first.
const MAX_PENDING = 20_000;

export interface Pending {
  /** same-site path to land on afterwards */
  redirect: string;
  /** PKCE code_verifier (RFC 7636); only providers that use PKCE send it */
  verifier: string;
  /** site origin the redirect_uri was built from; the token request must repeat it exactly */
  origin: string;
  expires: number;
}

const pending = new Map<string, Pending>();

const b64url = (buf: Buffer) => buf.toString("base64url");

/** Same-site paths only (the app's one check, features/auth/redirect.ts); anything else lands on /me. */
export const safeRedirect = (r: string | undefined | null): string => sharedSafeRedirect(r, "/me");

const secure = (c: Context) => c.req.url.startsWith("https:") || c.req.header("x-forwarded-proto") === "https";

/** Starts a flow: a fresh state in the table and in the cookie; answers what the authorize URL needs. */
export function beginState(c: Context, origin: string, redirect?: string | null) {
  const now = Date.now();
  for (const [k, v] of pending) {
    if (v.expires > now && pending.size < MAX_PENDING) break;
    pending.delete(k);
  }
  const state = b64url(randomBytes(24));
  const verifier = b64url(randomBytes(32));
  pending.set(state, { redirect: safeRedirect(redirect), verifier, origin, expires: now + TTL_MS });
  // Lax: the provider brings the browser back with a top-level GET, which carries Lax cookies.
  setCookie(c, STATE_COOKIE, state, { httpOnly: true, sameSite: "Lax", path: "/", secure: secure(c), maxAge: TTL_MS / 1000 });
  return { state, codeChallenge: b64url(createHash("sha256").update(verifier).digest()) };
}

function sameString(a: string, b: string) {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Checks the returned state against this browser's cookie and the table, and uses it up either way:
 * a state is good for exactly one attempt.
 */
export function takeState(c: Context, state: string | undefined | null): Pending {
  const cookie = getCookie(c, STATE_COOKIE) ?? "";
  deleteCookie(c, STATE_COOKIE, { path: "/" });
  const entry = state ? pending.get(state) : undefined;
  if (state) pending.delete(state);
  if (!state || !cookie || !sameString(state, cookie) || !entry || entry.expires <= Date.now()) {
    throw badRequest("登录状态校验失败（state 不匹配或已过期），请重新发起第三方登录");
  }
  return entry;
}
