import type { Hono } from "hono";
import { adminApi } from "#src/http/adminOnly.ts";
import type { AppEnv } from "#src/http/context.ts";
import { syncPermissions, type RouteInfo } from "./service.ts";

/** Every route guarded by adminApi, as (method, path): the permission catalogue of the running app. */
export function permissionRoutes(app: Hono<AppEnv>): RouteInfo[] {
  const seen = new Map<string, RouteInfo>();
  for (const r of app.routes) {
    if (r.handler !== adminApi || r.method === "ALL") continue;
    seen.set(`${r.method} ${r.path}`, { method: r.method, path: r.path });
  }
  return [...seen.values()];
}

export const registerPermissions = (app: Hono<AppEnv>) => syncPermissions(permissionRoutes(app));
