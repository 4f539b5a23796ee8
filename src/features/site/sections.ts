/**
 * Optional sections of the product that are not built yet, as a fact about the code (no setting,
 * no env). While a section is off nothing links to it: a visitor must never meet a link to a 404.
 * - `articles`: on since the articles issue added /article, /article/{identifier},
 *   /article?category_id=N and /post (src/features/articles/pages.tsx).
 * - `vip`: on since the commerce issue added /joinvip (src/features/vip/pages.tsx).
 * Pure (no imports), so islands import it as well as server views and scripts/seed.ts.
 */
export const SECTIONS = { articles: true, vip: true } as const;

export type Section = keyof typeof SECTIONS;

/** The section a same-site href (a path, "/…") belongs to, or null for every other link. */
export function sectionOf(href: string): Section | null {
  const h = href.trim();
  if (!h.startsWith("/") || h.startsWith("//")) return null;
  const path = h.split(/[?#]/)[0]!.toLowerCase();
  if (/^\/(?:article|post)(?:\/|$)/.test(path)) return "articles";
  if (/^\/joinvip(?:\/|$)/.test(path)) return "vip";
  return null;
}

/** False only for a link into a section that does not exist yet. */
export const isBuilt = (href: string): boolean => {
  const s = sectionOf(href);
  return s === null || SECTIONS[s];
};
