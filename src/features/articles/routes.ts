import { Hono } from "hono";
import { desc } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { article } from "#db/schema/articles.ts";
import { sitemapParts } from "#src/features/site/sitemap.ts";
import type { AppEnv } from "#src/http/context.ts";
import { articleAdminPages } from "./adminPages.tsx";
import { articleApi } from "./api.ts";
import { visibleArticle } from "./listing.ts";
import { articlePages } from "./pages.tsx";

/** The article API, the public article pages (/article, /article/{identifier}, /post) and the admin screens. */
export const articleRoutes = new Hono<AppEnv>();
articleRoutes.route("/", articleApi);
articleRoutes.route("/", articlePages);
articleRoutes.route("/", articleAdminPages);

/** One sitemap file holds at most this many URLs (the protocol's limit): the newest articles. */
const SITEMAP_MAX = 50_000;

sitemapParts.push({
  name: "articles",
  urls: () => getDb().select({ identifier: article.identifier, updated_at: article.updated_at }).from(article).where(visibleArticle())
    .orderBy(desc(article.id)).limit(SITEMAP_MAX).all().map((a) => ({ loc: `/article/${a.identifier}`, lastmod: a.updated_at })),
});
