import AskDocumentButton from "#islands/chat/AskDocumentButton.tsx";
import DocumentActions, { type DocumentActionsProps } from "#islands/reader/DocumentActions.tsx";
import ReaderPages, { type ReaderPagesProps } from "#islands/reader/ReaderPages.tsx";
import type { SessionUser } from "#src/features/auth/sessions.ts";
import { CommentsSection } from "#src/features/comments/views/CommentsSection.tsx";
import { isCommentModerator } from "#src/features/comments/policy.ts";
import { COMMENT_STATUS } from "#src/features/comments/status.ts";
import { getSqlite } from "#db/client.ts";
import { epochMemo } from "#db/epoch.ts";
import { prepared } from "#db/prepared.ts";
import { requestFullRender } from "#src/features/convert/enqueue.ts";
import { priceFor } from "#src/features/downloads/service.ts";
import { boughtSql } from "#src/features/orders/ownership.ts";
import { setting } from "#src/features/settings/service.ts";
import { adsFor } from "#src/features/site/layoutData.ts";
import { getManifest } from "#src/views/assets.tsx";
import { Island } from "#src/views/Island.tsx";
import { Personal } from "#src/views/personal.tsx";
import { useRequest } from "#src/views/request.tsx";
import { canManage, readsWhole, renderedPages, type DocumentRow } from "../access.ts";
import { favoriteOf } from "../favorites.ts";
import { askedPage, initialPages, pageFormat, pageUrl, readerSettings, watermarkCss } from "../reader.ts";
import { reportedBy } from "../reports.ts";
import { myScore } from "../scores.ts";
import { DownloadSlot } from "./DownloadSlot.tsx";

// The parts of the reader page that depend on the reader (views/personal.tsx): favourite, score and
// report state, price and 购买/下载, how many pages they may read and the ads between them (VIPs see
// none), and the comments. Everything else on the page is shared by all readers of the document.

/**
 * How many page images this reader gets: every rendered one for the owner, admins and buyers (whose
 * missing pages are queued for rendering now), the preview for everyone else.
 */
export function readablePages(user: SessionUser | null, doc: DocumentRow): { readable: number; whole: boolean } {
  if (!readsWhole(user, doc)) return { readable: doc.preview, whole: false };
  const readable = renderedPages(doc);
  if (readable < doc.pages) requestFullRender(doc.id);
  return { readable, whole: true };
}

/** The page images part, or null when the conversion left none to show. */
export function pagesProps(user: SessionUser | null, doc: DocumentRow, count: boolean, readable: number, asked: string | undefined): ReaderPagesProps | null {
  const format = readable > 0 ? pageFormat(doc.hash) : null;
  if (!format) return null;
  const { per, watermark } = readerSettings();
  const focus = askedPage(asked, readable);
  const between = user?.is_vip ? "" : adsFor(["document_between"]).map((a) => `<div class="ad-item">${a.content}</div>`).join("");
  return {
    uuid: doc.uuid, title: doc.title, url: pageUrl(doc.uuid, format), preview: readable, per, initial: initialPages(readable, per, focus),
    width: doc.width, height: doc.height, watermark: watermark ? watermarkCss(watermark) : "", between, focus, count,
  };
}

/** What follows the last page this reader gets: the rest being rendered, or bought, or downloaded. */
function endText(doc: DocumentRow, rest: number, whole: boolean, buyable: boolean) {
  if (rest <= 0) return `已阅读完毕，全文共 ${doc.pages} 页`;
  if (whole) return <>其余 <strong>{rest}</strong> 页正在生成，请稍后刷新</>;
  return buyable ? <>剩余 <strong>{rest}</strong> 页未能预览，购买后即可阅读全文</> : <>剩余 <strong>{rest}</strong> 页未能预览，请下载后阅读</>;
}

function EndNotice({ doc, open, reading }: { doc: DocumentRow; open: boolean; reading: { readable: number; whole: boolean } }) {
  const { user } = useRequest();
  const rest = Math.max(0, doc.pages - reading.readable);
  // Visitors are told a paid document can be bought; a member only when it costs them something.
  const buyable = !reading.whole && doc.price > 0 && (!user || priceFor(user.id, doc) > 0);
  return (
    <section className="card reader-end" data-reader-end="" hidden={!open}>
      <p className="reader-end-text">{endText(doc, rest, reading.whole, buyable)}</p>
      <DownloadSlot doc={doc} />
    </section>
  );
}

/**
 * The kept page's document row with the fields re-read that change without a content version bump
 * (the full render's progress, a member's favourite count) or that decide what this member may do.
 */
function current(doc: DocumentRow): DocumentRow {
  const row = getSqlite().query("SELECT favorite_count, rendered_pages, preview, pages, price FROM document WHERE id = ?").get(doc.id) as Partial<DocumentRow> | null;
  return row ? { ...doc, ...row } : doc;
}

/** The page images this reader may see and the notice after them. */
function ReaderBody({ doc: kept, asked }: { doc: DocumentRow; asked: string | undefined }) {
  const { user } = useRequest();
  const doc = user ? current(kept) : kept;
  const reading = readablePages(user, doc);
  const pages = pagesProps(user, doc, true, reading.readable, asked);
  return (
    <>
      {pages ? <Island name="ReaderPages" component={ReaderPages} props={pages} /> : <p className="card reader-empty muted">该文档暂无可预览的页面，请下载后阅读。</p>}
      <EndNotice doc={doc} open={!pages || pages.initial >= pages.preview} reading={reading} />
    </>
  );
}

/** Favourite, score, report, ask AI and download/buy beside the title. */
function ReaderToolbar({ doc: kept }: { doc: DocumentRow }) {
  const { user } = useRequest();
  const doc = user ? current(kept) : kept;
  const path = `/document/${doc.uuid}`;
  const fav = user ? favoriteOf(user.id, doc.id) : null;
  const actions: DocumentActionsProps = {
    documentId: doc.id, path, loggedIn: !!user, favoriteId: fav?.id ?? 0, favoriteCount: doc.favorite_count,
    myScore: user ? myScore(user.id, doc.id) : 0, reported: user ? reportedBy(user.id, doc.id) : false, reportUrl: getManifest().islands.ReportDialog ?? "",
  };
  return (
    <>
      <Island name="DocumentActions" component={DocumentActions} props={actions} />
      {setting("llm", "enable") ? <Island name="AskDocumentButton" component={AskDocumentButton} props={{ documentId: doc.id, uuid: doc.uuid, loggedIn: !!user, path }} /> : null}
      <DownloadSlot doc={doc} />
    </>
  );
}

function ReaderComments({ doc, sort }: { doc: DocumentRow; sort: string | undefined }) {
  const { user } = useRequest();
  return <CommentsSection target={{ document_id: doc.id }} viewer={user} path={`/document/${doc.uuid}`} sort={sort} />;
}

/**
 * Everything the toolbar, the pages and the comments read for a member beyond the kept page, in one
 * statement: the document's fields that change without a content version bump, the member's
 * favourite, score, report and purchase, and their comments under review. Slot outputs are kept per
 * member and this state (views/personal.tsx vary), so a change shows on the next request; the user
 * parts (id, VIP, who may manage) come from this request's session. Read once per request: the
 * three slots vary on the same row (the session user is a new object each request).
 */
interface ReaderState { key: string; whole: boolean; rendered: number; pages: number; review: string }
type StateRow = { favorite_count: number; rendered_pages: number; preview: number; pages: number; price: number; fav: number | null; score: number | null; reported: number; bought: number; review: string };
const perRequest = new WeakMap<SessionUser, Map<number, ReaderState | null>>();
// Kept while the database cannot have changed (db/epoch.ts): every state change is a write.
const kept = epochMemo<StateRow | null>();

function readerState(user: SessionUser, doc: DocumentRow): ReaderState | null {
  let memo = perRequest.get(user);
  if (!memo) perRequest.set(user, (memo = new Map()));
  if (memo.has(doc.id)) return memo.get(doc.id)!;
  // Subqueries on the parameters, not correlated with d.id, and one pass over the member's
  // comments (by comment_user; `+c.status` keeps SQLite off the status index): 3.5 µs, where the
  // correlated form with count() and max() took 24 µs.
  const stmt = prepared("reader.memberState", () => getSqlite().query<StateRow, [number, number, number]>(`SELECT d.favorite_count, d.rendered_pages, d.preview, d.pages, d.price,
      (SELECT f.id FROM favorite f WHERE f.user_id = ?1 AND f.document_id = ?2) AS fav,
      (SELECT s.score FROM document_score s WHERE s.document_id = ?2 AND s.user_id = ?1) AS score,
      EXISTS (SELECT 1 FROM report r WHERE r.user_id = ?1 AND r.document_id = ?2) AS reported,
      ${boughtSql("?2", "?1")} AS bought,
      (SELECT count(*) || ':' || coalesce(max(+c.id), 0) FROM comment c WHERE c.user_id = ?1 AND c.document_id = ?2 AND +c.status = ?3) AS review
      FROM document d WHERE d.id = ?2`));
  const r = kept(`${user.id}:${doc.id}`, () => stmt.get(user.id, doc.id, COMMENT_STATUS.review));
  const state = r && {
    key: [user.id, user.is_vip ? 1 : 0, canManage(user, doc) ? 1 : 0, r.favorite_count, r.rendered_pages, r.preview, r.pages, r.price, r.fav ?? 0, r.score ?? 0, r.reported, r.bought].join(":"),
    whole: canManage(user, doc) || r.bought === 1, rendered: renderedPages(r), pages: r.pages, review: r.review,
  };
  memo.set(doc.id, state);
  return state;
}

/** Toolbar: kept per member and reader state. */
const toolbarVary = (doc: DocumentRow) => (user: SessionUser | null) => (user ? (readerState(user, doc)?.key ?? null) : "");
/**
 * Pages and end notice: the same, except while a reader entitled to the whole document waits for
 * pages still being rendered — then per request, as the render asks again that its job is queued.
 */
const bodyVary = (doc: DocumentRow) => (user: SessionUser | null) => {
  if (!user) return "";
  const s = readerState(user, doc);
  return !s || (s.whole && s.rendered < s.pages) ? null : s.key;
};
/**
 * A member who is not a moderator sees the visitors' comments plus their own still under review;
 * every other change to what they see bumps the content version. So their comments are kept per
 * member and the state of their own comments under review; moderators render per request.
 */
const commentsVary = (doc: DocumentRow) => (user: SessionUser | null) => {
  if (!user) return "";
  if (isCommentModerator(user)) return null;
  const s = readerState(user, doc);
  return s ? `${user.id}:${s.review}` : null;
};

export const PersonalToolbar = ({ doc }: { doc: DocumentRow }) => <Personal vary={toolbarVary(doc)}><ReaderToolbar doc={doc} /></Personal>;
export const PersonalBody = ({ doc, asked }: { doc: DocumentRow; asked: string | undefined }) => <Personal vary={bodyVary(doc)}><ReaderBody doc={doc} asked={asked} /></Personal>;
export const PersonalComments = ({ doc, sort }: { doc: DocumentRow; sort: string | undefined }) => <Personal vary={commentsVary(doc)}><ReaderComments doc={doc} sort={sort} /></Personal>;
