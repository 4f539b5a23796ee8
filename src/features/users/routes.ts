import { Hono } from "hono";
import type { AppEnv } from "#src/http/context.ts";
import { accountRoutes } from "./accounts/routes.tsx";
import { groupRoutes } from "./groups/routes.tsx";
import { permissionAdminRoutes } from "./permissions/routes.tsx";
import { punishmentRoutes } from "./punishments/routes.tsx";

// Users, groups, permissions and punishments: the admin APIs and screens under /admin/user.
export const usersRoutes = new Hono<AppEnv>();
usersRoutes.route("/", accountRoutes);
usersRoutes.route("/", groupRoutes);
usersRoutes.route("/", permissionAdminRoutes);
usersRoutes.route("/", punishmentRoutes);
