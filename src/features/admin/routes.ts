import { Hono } from "hono";
import type { AppEnv } from "#src/http/context.ts";

// Admin screens and CRUD APIs mount here (one sub-router per entity).
export const adminRoutes = new Hono<AppEnv>();
