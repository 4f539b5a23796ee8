import { Hono } from "hono";
import { idsFrom, isAdmin } from "#src/features/admin/crud/routes.ts";
import { idQuery } from "#src/features/admin/crud/schema.ts";
import { adminApi } from "#src/http/adminOnly.ts";
import { getSettings } from "#src/features/settings/service.ts";
import { renderNotFound } from "#src/features/site/errorPages.tsx";
import type { AppEnv } from "#src/http/context.ts";
import { validate } from "#src/lib/validate.ts";
import { DefaultLayout } from "#src/views/layouts/DefaultLayout.tsx";
import { renderPage } from "#src/views/render.tsx";
import { categoryAdminRoutes } from "./admin.tsx";
import { EXT_FILTERS, SORTS, categoryDocuments, hotDocuments, type ExtKey, type SortKey } from "./listing.ts";
import { categoryCreate, categoryListQuery, categoryUpdate } from "./schema.ts";
import { categoryPage, categoryService, listCategories, publicDocTree } from "./service.ts";
import { CategoryIndexView } from "./views/CategoryIndexView.tsx";
import { CategoryView, viewHref } from "./views/CategoryView.tsx";

export const categoryRoutes = new Hono<AppEnv>();

// Admin CRUD (spec §7). PUT takes the id plus any subset of fields; the merged row is re-checked.
categoryRoutes.get("/api/v1/category", adminApi, validate("query", idQuery), (c) => c.json(categoryService.mustGet(c.req.valid("query").id)));
categoryRoutes.post("/api/v1/category", adminApi, validate("json", categoryCreate), (c) => c.json(categoryService.create(c.req.valid("json"))));
categoryRoutes.put("/api/v1/category", adminApi, validate("json", categoryUpdate), (c) => {
  const { id, ...patch } = c.req.valid("json");
  return c.json(categoryService.update(id, patch));
});
categoryRoutes.delete("/api/v1/category", adminApi, async (c) => c.json({ message: "删除成功", deleted: categoryService.remove(await idsFrom(c)).length }));

categoryRoutes.get("/api/v1/category/list", validate("query", categoryListQuery), (c) => c.json(listCategories(c.req.valid("query"), isAdmin(c, "category"))));

categoryRoutes.route("/", categoryAdminRoutes);

categoryRoutes.get("/category", (c) => {
  const tree = publicDocTree();
  const sitename = String(getSettings().system.sitename);
  const total = tree.reduce((n, x) => n + x.doc_count, 0);
  return renderPage(c, <DefaultLayout><CategoryIndexView tree={tree} total={total} /></DefaultLayout>, {
    meta: {
      title: "文档分类",
      description: `${sitename}的全部文档分类：${tree.map((x) => x.title).join("、")}`.slice(0, 160),
      keywords: tree.map((x) => x.title).join(","),
      canonical: "/category",
    },
    cache: true,
    share: true,
  });
});

const pick = <K extends string>(keys: Record<K, unknown>, v: string | undefined): K | undefined => (v && Object.hasOwn(keys, v) ? (v as K) : undefined);

categoryRoutes.get("/category/:id{[0-9]+}", (c) => {
  const id = Number(c.req.param("id"));
  const found = Number.isSafeInteger(id) ? categoryPage(id) : null;
  if (!found) return renderNotFound(c);
  const sort: SortKey = pick(SORTS, c.req.query("sort")) ?? "latest";
  const ext: ExtKey | undefined = pick(EXT_FILTERS, c.req.query("ext"));
  const rawPage = Number(c.req.query("page") ?? 1);
  const page = Number.isInteger(rawPage) && rawPage >= 1 && rawPage <= 100_000 ? rawPage : 1;
  const { total, docs } = categoryDocuments(id, { sort, ext, page, docCount: found.category.doc_count });
  // Past the last page there is nothing to show or index.
  if (page > 1 && !docs.length) return renderNotFound(c);
  const cat = found.category;
  const sitename = String(getSettings().system.sitename);
  const trail = found.chain.map((x) => x.title).join(" - ");
  const suffix = `${ext ? ` - ${EXT_FILTERS[ext].label}` : ""}${sort !== "latest" ? ` - ${SORTS[sort].label}` : ""}${page > 1 ? ` - 第${page}页` : ""}`;
  return renderPage(
    c,
    <DefaultLayout>
      <CategoryView {...found} sort={sort} ext={ext} page={page} total={total} docs={docs} hot={hotDocuments(id, 8)} />
    </DefaultLayout>,
    {
      meta: {
        title: `${found.chain.slice().reverse().map((x) => x.title).join(" - ")}${suffix}`,
        description: (cat.description || `${sitename}${trail}分类下的文档，共 ${cat.doc_count} 篇，在线阅读与下载。`).slice(0, 160),
        keywords: [...found.chain.map((x) => x.title), ...found.children.map((x) => x.title)].join(","),
        // Sort orders show the same documents: one canonical URL per category, file type and page.
        canonical: viewHref(id, { ext, page }),
      },
      cache: true,
      share: true,
    },
  );
});
