import { Hono } from "hono";
import type { AppEnv } from "#src/http/context.ts";
import { aiAdminApi } from "./api.ts";
import { aiAdminPages } from "./pages.tsx";
import { embeddingRoutes } from "#src/features/embedding/routes.ts";

// AI 管理 (spec §2 /admin/ai): the screens and their admin APIs; mounted by features/admin/routes.ts.
export const aiAdminRoutes = new Hono<AppEnv>();
aiAdminRoutes.route("/", aiAdminApi);
aiAdminRoutes.route("/", embeddingRoutes);
aiAdminRoutes.route("/", aiAdminPages);
