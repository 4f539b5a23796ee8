import { Hono } from "hono";
import { publicDocCategories } from "#src/features/categories/service.ts";
import { getSettings } from "#src/features/settings/service.ts";
import { adminApi } from "#src/http/adminOnly.ts";
import { whenServed } from "#src/http/pageCache.ts";
import { clientIp, type AppContext, type AppEnv } from "#src/http/context.ts";
import { validate } from "#src/lib/validate.ts";
import { DefaultLayout } from "#src/views/layouts/DefaultLayout.tsx";
import { renderPage } from "#src/views/render.tsx";
import { rebuildStatus, requestRebuild } from "./indexer.ts";
import { recordSearch } from "./records.ts";
import { searchQuery, type SearchQueryInput } from "./schema.ts";
import { maxSearchPages, searchDocuments, type SearchResult } from "./service.ts";
import { SearchView } from "./views/SearchView.tsx";

export const searchRoutes = new Hono<AppEnv>();

/** Logs one search as seen by this request (records.ts writes it off the request path). */
function record(c: AppContext, q: SearchQueryInput, total: number, spendMs: number) {
  if (!q.wd) return;
  recordSearch({
    keywords: q.wd, type: q.type, total, page: q.page, spend_ms: Math.round(spendMs),
    user_id: c.get("user")?.id ?? 0, ip: clientIp(c), user_agent: c.req.header("user-agent") ?? "",
  });
}

/**
 * Runs a search and logs it. The /search page is kept by the page cache: then the cache logs it,
 * for this request and for every later one it serves the kept page to (spend 0: nothing was searched).
 */
function search(c: AppContext, q: SearchQueryInput, page = false): SearchResult {
  const r = searchDocuments(q);
  if (!(page && whenServed(c, (cc, hit) => record(cc, q, r.total, hit ? 0 : r.spend_ms)))) record(c, q, r.total, r.spend_ms);
  return r;
}

searchRoutes.get("/api/v1/search", validate("query", searchQuery), (c) => c.json(search(c, c.req.valid("query"))));

// Index rebuild (admin): starts the background job, and answers its progress for the admin panel.
searchRoutes.put("/api/v1/renew/document/index", adminApi, (c) => c.json({ message: "已开始重建索引", ...requestRebuild() }));
searchRoutes.get("/api/v1/renew/document/index", adminApi, (c) => c.json(rebuildStatus()));

searchRoutes.get("/search", (c) => {
  // A malformed filter in a shared link falls back to the defaults instead of an error page.
  const parsed = searchQuery.safeParse(c.req.query());
  const q: SearchQueryInput = parsed.success ? { ...parsed.data, size: 10 } : { wd: String(c.req.query("wd") ?? "").trim().slice(0, 64), type: 0, page: 1, size: 10, sort: "relevance" };
  const cap = maxSearchPages();
  const page = Math.min(q.page, cap);
  const r = search(c, { ...q, page }, true);
  const pages = Math.min(cap, Math.ceil(r.total / q.size));
  const categories = q.type === 0 ? publicDocCategories(0).filter((x) => x.parent_id === 0 && x.doc_count > 0) : [];
  const sitename = String(getSettings().system.sitename);
  const label = q.type === 1 ? "文章" : "文档";
  return renderPage(
    c,
    <DefaultLayout>
      <SearchView
        wd={q.wd} type={q.type} page={page} pages={pages} total={r.total} seconds={(r.spend_ms / 1000).toFixed(3)}
        sort={q.sort} ext={q.ext} categoryId={q.category_id} categories={categories} hits={r.document} articleHits={r.article}
      />
    </DefaultLayout>,
    {
      meta: {
        title: q.wd ? `${q.wd} - ${label}搜索${page > 1 ? ` - 第${page}页` : ""}` : `${label}搜索`,
        description: `在${sitename}搜索“${q.wd}”相关的${label}，共找到 ${r.total} 篇。`.slice(0, 160),
        canonical: `/search?wd=${encodeURIComponent(q.wd)}${q.type ? "&type=1" : ""}`,
        // Result pages are endless and thin: search engines should follow them, not index them.
        noindex: true,
      },
      // Kept per URL (query, filters, page) and content version, and shared with members (the
      // header is their only personal part); every search, served from the cache or not, is logged.
      cache: true,
      share: true,
    },
  );
});
