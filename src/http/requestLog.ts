import type { MiddlewareHandler } from "hono";
import { env } from "#src/env.ts";
import type { AppEnv } from "./context.ts";

const levels = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
const threshold = levels[env.LOG_LEVEL];

/** One JSON line per event; the request id ties a request's lines together. */
export function log(level: Exclude<keyof typeof levels, "silent">, msg: string, fields: Record<string, unknown> = {}) {
  if (levels[level] < threshold) return;
  const line = JSON.stringify({ t: new Date().toISOString(), level, msg, ...fields });
  (level === "error" || level === "warn" ? process.stderr : process.stdout).write(line + "\n");
}

export const requestLog: MiddlewareHandler<AppEnv> = async (c, next) => {
  const started = performance.now();
  const incoming = c.req.header("x-request-id");
  const id = incoming && /^[\w-]{1,64}$/.test(incoming) ? incoming : crypto.randomUUID();
  c.set("requestId", id);
  await next();
  // Straight onto the response's headers: c.header() after next() rebuilds the whole Response.
  // (securityHeaders sets its headers the same way, so every response here has mutable headers.)
  const res = c.res;
  res.headers.set("X-Request-Id", id);
  const status = res.status;
  // The fields are only gathered when the line will be written (LOG_LEVEL above info skips it).
  if ((status >= 500 ? levels.error : levels.info) < threshold) return;
  log(status >= 500 ? "error" : "info", "request", {
    id, method: c.req.method, path: c.req.path, status, ms: Math.round((performance.now() - started) * 100) / 100,
    user: c.get("user")?.id ?? 0,
  });
};
