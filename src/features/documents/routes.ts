import { Hono } from "hono";
import type { AppEnv } from "#src/http/context.ts";
import { documentAdminPages } from "./adminPages.tsx";
import { documentApi } from "./api.ts";
import { languageRoutes } from "./languageRoutes.tsx";
import { uploadRoutes } from "./uploadRoutes.tsx";

/** Upload, the document and language APIs, and the admin document screens. */
export const documentRoutes = new Hono<AppEnv>();
documentRoutes.route("/", uploadRoutes);
documentRoutes.route("/", documentApi);
documentRoutes.route("/", languageRoutes);
documentRoutes.route("/", documentAdminPages);
