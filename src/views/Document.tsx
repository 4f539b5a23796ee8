import type { ReactNode } from "react";
import { getManifest, useAssets } from "./assets.tsx";

export interface PageMeta {
  title: string;
  description?: string;
  keywords?: string;
  /** path (or absolute URL) of the canonical page */
  canonical?: string;
  image?: string;
  ogType?: string;
  noindex?: boolean;
  /** use the title as is, without " - site name" (home page) */
  exactTitle?: boolean;
}

export interface ShellProps {
  meta: PageMeta;
  siteName: string;
  /** configured domain, else this request's origin: canonical and og URLs are absolute */
  domain: string;
  favicon: string;
  css: string[];
  analytics: string;
  bodyClass?: string;
  children: ReactNode;
}

const absolute = (domain: string, path: string) => (/^https?:\/\//.test(path) || !domain ? path : domain.replace(/\/$/, "") + path);

/** Rendered after the body so it sees every island the page used; loads only their chunks. */
function IslandScripts() {
  const assets = useAssets();
  const used = [...assets.islands];
  const m = getManifest();
  if (!used.length) return null;
  const chunks: Record<string, string> = {};
  for (const n of used) if (m.islands[n]) chunks[n] = m.islands[n];
  const preload = new Set<string>([...m.imports[m.client] ?? []]);
  // Islands that hydrate when visible are fetched then, not preloaded with the page.
  for (const n of assets.eager) {
    const u = m.islands[n];
    if (!u) continue;
    preload.add(u);
    for (const i of m.imports[u] ?? []) preload.add(i);
  }
  return (
    <>
      {[...preload].map((u) => <link key={u} rel="modulepreload" href={u} />)}
      <script id="island-manifest" type="application/json" dangerouslySetInnerHTML={{ __html: JSON.stringify(chunks).replace(/</g, "\\u003c") }} />
      <script type="module" src={m.client} />
    </>
  );
}

export function Document({ meta, siteName, domain, favicon, css, analytics, bodyClass, children }: ShellProps) {
  const title = meta.exactTitle || !meta.title || meta.title === siteName ? meta.title || siteName : `${meta.title} - ${siteName}`;
  const canonical = meta.canonical ? absolute(domain, meta.canonical) : undefined;
  return (
    <html lang="zh-CN">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        {meta.description ? <meta name="description" content={meta.description} /> : null}
        {meta.keywords ? <meta name="keywords" content={meta.keywords} /> : null}
        {meta.noindex ? <meta name="robots" content="noindex" /> : null}
        {canonical ? <link rel="canonical" href={canonical} /> : null}
        <meta property="og:site_name" content={siteName} />
        <meta property="og:title" content={meta.title || siteName} />
        <meta property="og:type" content={meta.ogType ?? "website"} />
        {meta.description ? <meta property="og:description" content={meta.description} /> : null}
        {canonical ? <meta property="og:url" content={canonical} /> : null}
        {meta.image ? <meta property="og:image" content={absolute(domain, meta.image)} /> : null}
        <meta property="og:locale" content="zh_CN" />
        <link rel="icon" href={favicon} />
        {css.map((href) => <link key={href} rel="stylesheet" href={href} />)}
      </head>
      <body className={bodyClass}>
        {children}
        <IslandScripts />
        {/* Admin-entered analytics markup, parsed with the page so its scripts run; CSP allows exactly them (views/analytics.ts). */}
        {analytics ? <div id="wk-analytics" hidden dangerouslySetInnerHTML={{ __html: analytics }} /> : null}
      </body>
    </html>
  );
}
