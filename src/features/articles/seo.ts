import { getSettings } from "#src/features/settings/service.ts";
import type { AppContext } from "#src/http/context.ts";
import type { ArticleRow } from "./policy.ts";

/** schema.org Article for search engines, as JSON safe inside a <script> element. */
export function articleJsonLd(c: AppContext, a: ArticleRow, author: string): string {
  const sys = getSettings().system;
  const origin = (String(sys.domain || "").trim() || new URL(c.req.url).origin).replace(/\/$/, "");
  const abs = (path: string) => (/^https?:\/\//.test(path) ? path : origin + path);
  const data = {
    "@context": "https://schema.org",
    "@type": "Article",
    headline: a.title.slice(0, 110),
    description: a.description,
    ...(a.cover ? { image: [abs(a.cover)] } : {}),
    datePublished: new Date(a.created_at).toISOString(),
    dateModified: new Date(a.updated_at).toISOString(),
    author: { "@type": "Person", name: author, url: abs(`/user/${a.user_id}`) },
    publisher: { "@type": "Organization", name: String(sys.sitename), ...(sys.logo ? { logo: { "@type": "ImageObject", url: abs(String(sys.logo)) } } : {}) },
    mainEntityOfPage: abs(`/article/${a.identifier}`),
    ...(a.keywords ? { keywords: a.keywords } : {}),
    inLanguage: "zh-CN",
  };
  // "</script>" or "<!--" inside a title must not end the element early.
  return JSON.stringify(data).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}
