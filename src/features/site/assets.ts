import { Hono } from "hono";
import { join, normalize } from "node:path";
import { env } from "#src/env.ts";
import { getSettings } from "#src/features/settings/service.ts";
import { getManifest } from "#src/views/assets.tsx";
import type { AppEnv } from "#src/http/context.ts";

const assetsDir = () => join(env.DIST_DIR, "assets");
const SAFE_NAME = /^[\w.-]+$/;

export const assetRoutes = new Hono<AppEnv>();

// Hashed names never change content, so browsers may keep them for a year.
assetRoutes.get("/assets/:name", async (c) => {
  const name = c.req.param("name");
  if (!SAFE_NAME.test(name) || name.includes("..")) return c.notFound();
  const path = normalize(join(assetsDir(), name));
  const file = Bun.file(path);
  if (name.endsWith(".gz") || !(await file.exists())) return c.notFound();
  const headers: Record<string, string> = { "Cache-Control": "public, max-age=31536000, immutable", "Content-Type": file.type, Vary: "Accept-Encoding" };
  const gz = Bun.file(`${path}.gz`);
  if (/\bgzip\b/.test(c.req.header("accept-encoding") ?? "") && (await gz.exists())) {
    return new Response(gz, { headers: { ...headers, "Content-Encoding": "gzip" } });
  }
  return new Response(file, { headers });
});

assetRoutes.get("/favicon.ico", (c) => c.redirect(String(getSettings().system.favicon || "") || getManifest().files["favicon.svg"]!, 302));

assetRoutes.get("/robots.txt", (c) => {
  const domain = String(getSettings().system.domain || "").replace(/\/$/, "");
  return c.text(`User-agent: *\nDisallow: /admin\nDisallow: /api/\nDisallow: /me\n${domain ? `Sitemap: ${domain}/sitemap.xml\n` : ""}`);
});
