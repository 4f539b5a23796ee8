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
