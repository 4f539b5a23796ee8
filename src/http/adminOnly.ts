import type { MiddlewareHandler } from "hono";
import { grantsOf } from "#src/features/permissions/service.ts";
import { pageAllowed } from "#src/features/permissions/catalog.ts";
import { forbidden, unauthorized } from "#src/lib/errors.ts";
import type { AppEnv } from "./context.ts";

/**
 * Guard of every permission-checked API route: 401 for anonymous users, 403 unless one of the
 * user's groups holds the permission of this route (method + route path). Routes using it are
 * registered as permissions at start (features/permissions/sync.ts), so each is grantable.
 */
export const adminApi: MiddlewareHandler<AppEnv> = async (c, next) => {
  const user = c.get("user");
  if (!user) throw unauthorized();
  if (!user.is_root) {
    const method = c.req.method === "HEAD" ? "GET" : c.req.method;
    if (!grantsOf(user.id).keys.has(`${method} ${c.req.routePath}`)) throw forbidden();
  }
  await next();
};

const DASHBOARD = new Set(["/admin", "/admin/index", "/admin/dashboard"]);

/** Admin pages allowed to this user; the root administrator has every page. */
export const allowPagesOf = (user: { id: number; is_root: boolean } | null): string[] | "all" =>
  !user ? [] : user.is_root ? "all" : grantsOf(user.id).allowPages;

export const hasAdminPages = (user: { id: number; is_root: boolean } | null) => {
  const pages = allowPagesOf(user);
  return pages === "all" || pages.length > 0;
};

/**
 * Admin pages (spec §6): anonymous users go to login; users without allowed pages go home; a page
 * outside the allowed ones goes to /admin unless it is public. The dashboard is always reachable.
 */
export const adminPage: MiddlewareHandler<AppEnv> = async (c, next) => {
  const user = c.get("user");
  if (!user) return c.redirect(`/login?redirect=${encodeURIComponent(c.req.path)}`, 302);
  const pages = allowPagesOf(user);
  if (pages !== "all") {
    if (!pages.length) return c.redirect("/", 302);
    const path = c.req.path.replace(/\/$/, "");
    if (!DASHBOARD.has(path) && !pageAllowed(pages, path)) return c.redirect("/admin", 302);
  }
  await next();
};
