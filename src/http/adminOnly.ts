import type { MiddlewareHandler } from "hono";
import { forbidden, unauthorized } from "#src/lib/errors.ts";
import type { AppEnv } from "./context.ts";

/**
 * Admin APIs: 401 for anonymous, 403 for users without the permission. Until groups and
 * permissions land (accounts issue), only the root administrator passes.
 */
export const adminApi: MiddlewareHandler<AppEnv> = async (c, next) => {
  const user = c.get("user");
  if (!user) throw unauthorized();
  if (!user.is_root) throw forbidden();
  await next();
};

/** Admin pages: anonymous users go to login, users without allowed pages go home (spec §6). */
export const adminPage: MiddlewareHandler<AppEnv> = async (c, next) => {
  const user = c.get("user");
  if (!user) return c.redirect(`/login?redirect=${encodeURIComponent(c.req.path)}`, 302);
  if (!user.is_root) return c.redirect("/", 302);
  await next();
};
