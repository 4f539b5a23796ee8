import type { ReactElement } from "react";
import { renderToReadableStream } from "react-dom/server.browser";
import { getSettings } from "#src/features/settings/service.ts";
import { PAGE_CACHE_HEADER, PAGE_SHARE_HEADER } from "#src/http/pageCache.ts";
import type { AppContext } from "#src/http/context.ts";
import { analyticsSnippet } from "./analytics.ts";
import { AssetsContext, getManifest } from "./assets.tsx";
import { Document, type PageMeta } from "./Document.tsx";
import { guardedRequest, ShareProvider, takeShare } from "./personal.tsx";
import { RequestContext, type RequestInfo } from "./request.tsx";

export interface RenderOptions {
  meta: PageMeta;
  status?: number;
  /** anonymous responses may be cached and shared (no per-user content) */
  cache?: boolean;
  /**
   * with `cache`: everything that depends on the signed-in user sits in <Personal> parts, so members
   * are served the kept page with only those parts rendered for them (views/personal.tsx)
   */
  share?: boolean;
  /** which stylesheet bundle: public pages or the admin back office */
  styles?: "site" | "admin";
  bodyClass?: string;
}

export function requestInfo(c: AppContext): RequestInfo {
  const url = new URL(c.req.url);
  return { path: url.pathname, search: url.search, user: c.get("user") };
}

/** Streams a full HTML page: document shell + the given layout/page element. */
export async function renderPage(c: AppContext, page: ReactElement, opts: RenderOptions): Promise<Response> {
  const settings = getSettings();
  const m = getManifest();
  const sys = settings.system;
  const favicon = String(sys.favicon || "") || m.files["favicon.svg"]!;
  const styles = opts.styles ?? "site";
  const css = [m.css.site!, ...(styles === "admin" ? [m.css.admin!] : [])];
  let info = requestInfo(c);
  const assets = { islands: new Set<string>(), eager: new Set<string>() };
  const keepable = !!opts.cache && !info.user && c.req.method === "GET";
  // Offered by the page cache when it will keep this render: Personal parts are marked in it.
  const share = keepable && opts.share ? takeShare(c.req.raw) : null;
  if (share) {
    share.assets = assets;
    info = guardedRequest(info.path, info.search, share);
  }
  const tree = (
    <AssetsContext.Provider value={assets}>
      <RequestContext.Provider value={info}>
        <Document
          meta={opts.meta}
          siteName={String(sys.sitename)}
          domain={String(sys.domain || "") || new URL(c.req.url).origin}
          favicon={favicon}
          css={css}
          analytics={styles === "site" ? analyticsSnippet() : ""}
          bodyClass={opts.bodyClass}
        >
          {page}
        </Document>
      </RequestContext.Provider>
    </AssetsContext.Provider>
  );
  const stream = await renderToReadableStream(share ? <ShareProvider value={share}>{tree}</ShareProvider> : tree, {
    onError(err) {
      console.error(err);
    },
  });
  const headers: Record<string, string> = { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-cache" };
  if (keepable) headers[PAGE_CACHE_HEADER] = "1";
  if (share) headers[PAGE_SHARE_HEADER] = "1";
  return new Response(stream, { status: opts.status ?? 200, headers });
}
