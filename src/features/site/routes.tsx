import { Hono } from "hono";
import { creditName, getSettings } from "#src/features/settings/service.ts";
import { adminApi } from "#src/http/adminOnly.ts";
import type { AppEnv } from "#src/http/context.ts";
import { DefaultLayout } from "#src/views/layouts/DefaultLayout.tsx";
import { renderPage } from "#src/views/render.tsx";
import { getSqlite } from "#db/client.ts";
import { blockDocuments, latestDocuments, recommendedDocuments } from "#src/features/categories/listing.ts";
import { latestArticles, recommendedArticles } from "#src/features/articles/listing.ts";
import { renderNotFound } from "./errorPages.tsx";
import { HomeView } from "./HomeView.tsx";
import { enabledBanners, layoutData } from "./layoutData.ts";
import { requestSitemap, siteOrigin, sitemapFile, sitemapIndex } from "./sitemap.ts";

export const siteRoutes = new Hono<AppEnv>();

/** Top-level categories shown as blocks on the home page (all of them are in the header card and /category). */
const HOME_BLOCKS = 12;

siteRoutes.get("/", (c) => {
  const sys = getSettings().system;
  const d = layoutData();
  const categories = d.docCategories.slice(0, HOME_BLOCKS);
  // Three statements in all: recommended, latest, and every block's documents in one UNION ALL.
  const blocks = Object.fromEntries(blockDocuments(categories.map((x) => x.id), 8));
  return renderPage(
    c,
    <DefaultLayout>
      <HomeView
        banners={enabledBanners(0)} categories={categories} articleCategories={d.articleCategories} sitename={String(sys.sitename)} description={String(sys.description)} creditName={creditName()}
        recommended={recommendedDocuments(8)} latest={latestDocuments(12)} blocks={blocks} articles={{ latest: latestArticles(6), recommended: recommendedArticles(8) }}
      />
    </DefaultLayout>,
    { meta: { title: String(sys.title || sys.sitename), description: String(sys.description), keywords: String(sys.keywords), canonical: "/", exactTitle: true }, cache: true, share: true },
  );
});

siteRoutes.get("/404", (c) => renderNotFound(c));

siteRoutes.get("/healthz", (c) => {
  getSqlite().query("select 1").get();
  return c.json({ status: "ok", uptime_s: Math.round(process.uptime()) });
});

const XML = { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" };

siteRoutes.get("/sitemap.xml", (c) => c.body(sitemapIndex(siteOrigin(c.req.url)), 200, XML));

siteRoutes.get("/sitemap/:file{[a-z0-9_-]+\\.xml}", (c) => {
  const found = sitemapFile(siteOrigin(c.req.url), c.req.param("file").replace(/\.xml$/, ""));
  if (!found) return renderNotFound(c);
  return "file" in found ? new Response(Bun.file(found.file), { headers: XML }) : c.body(found.xml, 200, XML);
});

// Regenerates the document sitemaps now (the daily job's run moves forward); admin only.
siteRoutes.put("/api/v1/sitemap", adminApi, (c) => c.json({ message: "已开始更新站点地图，稍后生效", job_id: requestSitemap(siteOrigin(c.req.url)) }));
