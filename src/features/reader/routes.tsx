import { Hono } from "hono";
import { renderNotFound } from "#src/features/site/errorPages.tsx";
import { creditName } from "#src/features/settings/service.ts";
import type { AppEnv } from "#src/http/context.ts";
import { DefaultLayout } from "#src/views/layouts/DefaultLayout.tsx";
import { renderPage } from "#src/views/render.tsx";
import ReaderPages from "#islands/reader/ReaderPages.tsx";
import { Island } from "#src/views/Island.tsx";
import { canManage, documentByUuid, isVisible, } from "./access.ts";
import { readerApi } from "./api.ts";
import { adminReportRoutes } from "./adminReport.tsx";
import { categoryChain, uploaderOf, } from "./reader.ts";
import { relatedDocuments } from "./related.ts";
import { PendingView } from "./views/PendingView.tsx";
import { ReaderView } from "./views/ReaderView.tsx";
import { pagesProps, readablePages } from "./views/ReaderPersonal.tsx";

/** The reader page /document/{uuid}, its APIs and the admin report screen (page images: pageImages.ts). */
export const readerRoutes = new Hono<AppEnv>();
readerRoutes.route("/", readerApi);
readerRoutes.route("/", adminReportRoutes);

const MD5 = /^[0-9a-f]{32}$/;

readerRoutes.get("/document/:uuid", (c) => {
  const doc = documentByUuid(c.req.param("uuid"));
  const user = c.get("user");
  if (!doc || doc.deleted_at !== null || !MD5.test(doc.hash)) return renderNotFound(c);
  const meta = { title: doc.title, description: (doc.description || doc.title).slice(0, 200), keywords: doc.keywords, canonical: `/document/${doc.uuid}`, ogType: "article" };
  if (!isVisible(doc)) {
    if (!canManage(user, doc)) return renderNotFound(c);
    const pages = pagesProps(user, doc, false, readablePages(user, doc).readable, c.req.query("page"));
    return renderPage(c, <DefaultLayout><PendingView doc={doc}>{pages ? <Island name="ReaderPages" component={ReaderPages} props={pages} /> : null}</PendingView></DefaultLayout>, { meta: { ...meta, noindex: true } });
  }
  // Shared by every reader of this document version; the per-reader parts are Personal (ReaderPersonal.tsx).
  const crumbs = categoryChain(doc.category_id);
  return renderPage(
    c,
    <DefaultLayout>
      <ReaderView doc={doc} crumbs={crumbs} uploader={uploaderOf(doc.user_id)} related={relatedDocuments(doc, crumbs[0]?.id ?? 0)} creditName={creditName()}
        asked={c.req.query("page")} commentSort={c.req.query("comment_sort")} />
    </DefaultLayout>,
    { meta: { ...meta, image: doc.cover || undefined }, cache: true, share: true },
  );
});
