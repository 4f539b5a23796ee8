import { Hono } from "hono";
import type { AppEnv } from "#src/http/context.ts";
import { aiAdminRoutes } from "#src/features/ai/admin/routes.ts";
import { orderAdminPages } from "#src/features/orders/adminPages.tsx";
import { vipAdminPages } from "#src/features/vip/adminPages.tsx";
import { advertisementRoutes } from "./advertisement/routes.tsx";
import { attachmentRoutes } from "./attachment/routes.tsx";
import { bannerRoutes } from "./banner/routes.tsx";
import { configRoutes } from "./config/routes.tsx";
import { dashboardRoutes } from "./dashboard/routes.tsx";
import { friendlinkRoutes } from "./friendlink/routes.tsx";
import { navigationRoutes } from "./navigation/routes.tsx";

// Admin screens and CRUD APIs mount here (one sub-router per entity).
export const adminRoutes = new Hono<AppEnv>();
adminRoutes.route("/", dashboardRoutes);
adminRoutes.route("/", configRoutes);
adminRoutes.route("/", navigationRoutes);
adminRoutes.route("/", friendlinkRoutes);
adminRoutes.route("/", bannerRoutes);
adminRoutes.route("/", advertisementRoutes);
adminRoutes.route("/", attachmentRoutes);
adminRoutes.route("/", aiAdminRoutes);
adminRoutes.route("/", orderAdminPages);
adminRoutes.route("/", vipAdminPages);
