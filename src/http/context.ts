import type { Context } from "hono";
import { env } from "#src/env.ts";
import type { SessionUser } from "#src/features/auth/sessions.ts";

export type AppEnv = {
  Variables: {
    requestId: string;
    user: SessionUser | null;
    /** the raw token of this request, so logout can revoke it */
    token: string | null;
    /** how the token came: cookie-authenticated writes need the CSRF check */
    authVia: "cookie" | "bearer" | null;
  };
};

export type AppContext = Context<AppEnv>;

export function clientIp(c: Context): string {
  const fwd = env.trustProxy ? c.req.header("x-forwarded-for") : undefined;
  if (fwd) return fwd.split(",")[0]!.trim();
  // Bun.serve({ fetch: app.fetch }) hands the server to Hono as its env.
  const server = c.env as { requestIP?: (r: Request) => { address: string } | null } | undefined;
  return server?.requestIP?.(c.req.raw)?.address ?? "";
}

// X-Forwarded-For seen while TRUST_PROXY is off: the site is probably behind a proxy, so every
// visitor shares the proxy's address for per-IP limits. Remembered in memory for the dashboard.
let forwardedSeen: { at: number; count: number } | null = null;

/** Called for every request (session middleware); cheap when the header is absent. */
export function noteForwardedFor(c: Context) {
  if (env.trustProxy || !c.req.header("x-forwarded-for")) return;
  forwardedSeen = { at: Date.now(), count: (forwardedSeen?.count ?? 0) + 1 };
}

/** The last time a request came with X-Forwarded-For while it is not trusted (null: never). */
export const untrustedProxySeen = () => forwardedSeen;
export const clearProxyObservation = () => void (forwardedSeen = null);
