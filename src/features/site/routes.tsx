import { Hono } from "hono";
import { creditName, getSettings } from "#src/features/settings/service.ts";
import type { AppEnv } from "#src/http/context.ts";
import { DefaultLayout } from "#src/views/layouts/DefaultLayout.tsx";
import { renderPage } from "#src/views/render.tsx";
import { getSqlite } from "#db/client.ts";
import { renderNotFound } from "./errorPages.tsx";
import { HomeView } from "./HomeView.tsx";
import { enabledBanners, layoutData } from "./layoutData.ts";
import { siteOrigin, sitemapIndex, sitemapUrlset } from "./sitemap.ts";

export const siteRoutes = new Hono<AppEnv>();

siteRoutes.get("/", (c) => {
  const sys = getSettings().system;
  const d = layoutData();
  return renderPage(
    c,
    <DefaultLayout>
      <HomeView banners={enabledBanners(0)} categories={d.docCategories} articleCategories={d.articleCategories} sitename={String(sys.sitename)} description={String(sys.description)} creditName={creditName()} />
    </DefaultLayout>,
    { meta: { title: String(sys.title || sys.sitename), description: String(sys.description), keywords: String(sys.keywords), canonical: "/", exactTitle: true }, cache: true },
  );
});

siteRoutes.get("/404", (c) => renderNotFound(c));

siteRoutes.get("/healthz", (c) => {
  getSqlite().query("select 1").get();
  return c.json({ status: "ok", uptime_s: Math.round(process.uptime()) });
});

siteRoutes.get("/sitemap.xml", (c) => c.body(sitemapIndex(siteOrigin(c.req.url)), 200, { "Content-Type": "application/xml; charset=utf-8" }));

siteRoutes.get("/sitemap/:file{[a-z0-9_-]+\\.xml}", (c) => {
  const xml = sitemapUrlset(siteOrigin(c.req.url), c.req.param("file").replace(/\.xml$/, ""));
  if (!xml) return renderNotFound(c);
  return c.body(xml, 200, { "Content-Type": "application/xml; charset=utf-8" });
});
