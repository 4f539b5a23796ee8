import { getSettings } from "#src/features/settings/service.ts";
import { layoutData, type CategoryNode } from "./layoutData.ts";

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function siteOrigin(requestUrl: string): string {
  const domain = String(getSettings().system.domain || "").trim().replace(/\/$/, "");
  return domain || new URL(requestUrl).origin;
}

/** Sub-sitemaps of the index; later features (documents, articles) append theirs. */
export const sitemapParts: { name: string; urls: () => { loc: string; lastmod?: number }[] }[] = [
  {
    name: "pages",
    urls: () => {
      const flat = (cs: CategoryNode[]): CategoryNode[] => cs.flatMap((c) => [c, ...flat(c.children)]);
      const d = layoutData();
      return [
        { loc: "/" }, { loc: "/category" }, { loc: "/article" },
        ...flat(d.docCategories).map((c) => ({ loc: `/category/${c.id}` })),
        ...flat(d.articleCategories).map((c) => ({ loc: `/article?category_id=${c.id}` })),
      ];
    },
  },
];

export function sitemapIndex(origin: string): string {
  const items = sitemapParts.map((p) => `<sitemap><loc>${esc(`${origin}/sitemap/${p.name}.xml`)}</loc></sitemap>`).join("");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${items}</sitemapindex>\n`;
}

export function sitemapUrlset(origin: string, name: string): string | null {
  const part = sitemapParts.find((p) => p.name === name);
  if (!part) return null;
  const urls = part.urls().map((u) => `<url><loc>${esc(origin + u.loc)}</loc>${u.lastmod ? `<lastmod>${new Date(u.lastmod).toISOString()}</lastmod>` : ""}</url>`).join("");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>\n`;
}
