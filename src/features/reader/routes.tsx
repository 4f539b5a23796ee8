import { Hono } from "hono";
import { adsFor } from "#src/features/site/layoutData.ts";
import { renderNotFound } from "#src/features/site/errorPages.tsx";
import { creditName } from "#src/features/settings/service.ts";
import type { AppContext, AppEnv } from "#src/http/context.ts";
import { DefaultLayout } from "#src/views/layouts/DefaultLayout.tsx";
import { renderPage } from "#src/views/render.tsx";
import ReaderPages, { type ReaderPagesProps } from "#islands/reader/ReaderPages.tsx";
import { Island } from "#src/views/Island.tsx";
import { requestFullRender } from "#src/features/convert/enqueue.ts";
import { getManifest } from "#src/views/assets.tsx";
import { canManage, documentByUuid, isVisible, readsWhole, renderedPages, type DocumentRow } from "./access.ts";
import { readerApi } from "./api.ts";
import { favoriteOf } from "./favorites.ts";
import { adminReportRoutes } from "./adminReport.tsx";
import { askedPage, categoryChain, initialPages, pageFormat, pageUrl, readerSettings, uploaderOf, watermarkCss } from "./reader.ts";
import { relatedDocuments } from "./related.ts";
import { reportedBy } from "./reports.ts";
import { myScore } from "./scores.ts";
import { PendingView } from "./views/PendingView.tsx";
import { ReaderView } from "./views/ReaderView.tsx";
import { CommentsSection } from "#src/features/comments/views/CommentsSection.tsx";

/** The reader page /document/{uuid}, its APIs and the admin report screen (page images: pageImages.ts). */
export const readerRoutes = new Hono<AppEnv>();
readerRoutes.route("/", readerApi);
readerRoutes.route("/", adminReportRoutes);

const isVip = (c: AppContext) => !!(c.get("user") as { is_vip?: boolean } | null)?.is_vip;

/**
 * How many page images this reader gets: every rendered one for the owner, admins and buyers (whose
 * missing pages are queued for rendering now), the preview for everyone else.
 */
function readablePages(c: AppContext, doc: DocumentRow): { readable: number; whole: boolean } {
  if (!readsWhole(c.get("user"), doc)) return { readable: doc.preview, whole: false };
  const readable = renderedPages(doc);
  if (readable < doc.pages) requestFullRender(doc.id);
  return { readable, whole: true };
}

/** The page images part, or null when the conversion left none to show. */
function pagesProps(c: AppContext, doc: DocumentRow, count: boolean, readable: number): ReaderPagesProps | null {
  const format = readable > 0 ? pageFormat(doc.hash) : null;
  if (!format) return null;
  const { per, watermark } = readerSettings();
  const focus = askedPage(c.req.query("page"), readable);
  const between = isVip(c) ? "" : adsFor(["document_between"]).map((a) => `<div class="ad-item">${a.content}</div>`).join("");
  return {
    uuid: doc.uuid, title: doc.title, url: pageUrl(doc.uuid, format), preview: readable, per, initial: initialPages(readable, per, focus),
    width: doc.width, height: doc.height, watermark: watermark ? watermarkCss(watermark) : "", between, focus, count,
  };
}

const MD5 = /^[0-9a-f]{32}$/;

readerRoutes.get("/document/:uuid", (c) => {
  const doc = documentByUuid(c.req.param("uuid"));
  const user = c.get("user");
  if (!doc || doc.deleted_at !== null || !MD5.test(doc.hash)) return renderNotFound(c);
  const meta = { title: doc.title, description: (doc.description || doc.title).slice(0, 200), keywords: doc.keywords, canonical: `/document/${doc.uuid}`, ogType: "article" };
  if (!isVisible(doc)) {
    if (!canManage(user, doc)) return renderNotFound(c);
    const pages = pagesProps(c, doc, false, readablePages(c, doc).readable);
    return renderPage(c, <DefaultLayout><PendingView doc={doc}>{pages ? <Island name="ReaderPages" component={ReaderPages} props={pages} /> : null}</PendingView></DefaultLayout>, { meta: { ...meta, noindex: true } });
  }
  const crumbs = categoryChain(doc.category_id);
  const fav = user ? favoriteOf(user.id, doc.id) : null;
  const actions = {
    documentId: doc.id, path: `/document/${doc.uuid}`, loggedIn: !!user, favoriteId: fav?.id ?? 0, favoriteCount: doc.favorite_count,
    myScore: user ? myScore(user.id, doc.id) : 0, reported: user ? reportedBy(user.id, doc.id) : false, reportUrl: getManifest().islands.ReportDialog ?? "",
  };
  const related = relatedDocuments(doc, crumbs[0]?.id ?? 0);
  const reading = readablePages(c, doc);
  return renderPage(
    c,
    <DefaultLayout>
      <ReaderView doc={doc} crumbs={crumbs} uploader={uploaderOf(doc.user_id)} related={related} pages={pagesProps(c, doc, true, reading.readable)} reading={reading} actions={actions} creditName={creditName()}
        comments={<CommentsSection target={{ document_id: doc.id }} viewer={user} path={`/document/${doc.uuid}`} sort={c.req.query("comment_sort")} />} />
    </DefaultLayout>,
    { meta: { ...meta, image: doc.cover || undefined }, cache: true },
  );
});
