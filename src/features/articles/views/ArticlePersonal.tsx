import ArticleActions, { type ArticleActionsProps } from "#islands/article/ArticleActions.tsx";
import { getSqlite } from "#db/client.ts";
import type { SessionUser } from "#src/features/auth/sessions.ts";
import { CommentsSection, ownCommentsUnderReview } from "#src/features/comments/views/CommentsSection.tsx";
import { reportedArticleBy } from "#src/features/reader/reports.ts";
import { getManifest } from "#src/views/assets.tsx";
import { Island } from "#src/views/Island.tsx";
import { Personal } from "#src/views/personal.tsx";
import { useRequest } from "#src/views/request.tsx";
import { articleFavoriteOf } from "../favorites.ts";
import { isArticleAdmin, mayManage, type ArticleRow } from "../policy.ts";

// The parts of the article page that depend on the reader (views/personal.tsx): the edit link for
// its author and article administrators, the favourite/report state, and the comments. The rest of
// the page is shared by every reader of the article.

const manages = (user: SessionUser | null, a: ArticleRow) => mayManage(user, a, isArticleAdmin(user));

function EditLink({ a }: { a: ArticleRow }) {
  const { user } = useRequest();
  return manages(user, a) ? <a className="art-edit" href={`/post?id=${a.id}`}>编辑</a> : null;
}

// The favourite count changes without a content version bump: the slot reads it again.
const favoriteCount = (id: number, kept: number) =>
  (getSqlite().query("SELECT favorite_count AS n FROM article WHERE id = ?").get(id) as { n: number } | null)?.n ?? kept;

function Actions({ a, visible }: { a: ArticleRow; visible: boolean }) {
  const { user } = useRequest();
  const props: ArticleActionsProps = {
    articleId: a.id, identifier: a.identifier, title: a.title, loggedIn: !!user, visible,
    favorited: !!(user && articleFavoriteOf(user.id, a.id)), favoriteCount: user ? favoriteCount(a.id, a.favorite_count) : a.favorite_count,
    reported: !!(user && reportedArticleBy(user.id, a.id)), reportUrl: getManifest().islands.ReportDialog ?? "",
  };
  return <Island name="ArticleActions" component={ArticleActions} props={props} />;
}

function Comments({ a, sort }: { a: ArticleRow; sort: string | undefined }) {
  const { user } = useRequest();
  return <CommentsSection target={{ article_id: a.id }} viewer={user} path={`/article/${a.identifier}`} sort={sort} />;
}

/** 编辑 for whoever may change the article; kept per (member, may manage). */
export const PersonalEditLink = ({ a }: { a: ArticleRow }) => (
  <Personal vary={(user) => (user ? `${user.id}:${manages(user, a) ? 1 : 0}` : "")}><EditLink a={a} /></Personal>
);
/** Favourite, share and report: rendered per request (the favourite and report state are the member's own). */
export const PersonalActions = ({ a, visible }: { a: ArticleRow; visible: boolean }) => <Personal><Actions a={a} visible={visible} /></Personal>;
export const PersonalComments = ({ a, sort }: { a: ArticleRow; sort: string | undefined }) => (
  <Personal vary={ownCommentsUnderReview({ article_id: a.id })}><Comments a={a} sort={sort} /></Personal>
);
