import ArticleActions, { type ArticleActionsProps } from "#islands/article/ArticleActions.tsx";
import { getSqlite } from "#db/client.ts";
import { epochMemo } from "#db/epoch.ts";
import { prepared } from "#db/prepared.ts";
import type { SessionUser } from "#src/features/auth/sessions.ts";
import { isCommentModerator } from "#src/features/comments/policy.ts";
import { COMMENT_STATUS } from "#src/features/comments/status.ts";
import { CommentsSection } from "#src/features/comments/views/CommentsSection.tsx";
import { getManifest } from "#src/views/assets.tsx";
import { Island } from "#src/views/Island.tsx";
import { Personal } from "#src/views/personal.tsx";
import { useRequest } from "#src/views/request.tsx";
import { isArticleAdmin, mayManage, type ArticleRow } from "../policy.ts";

// The parts of the article page that depend on the reader (views/personal.tsx): the edit link for
// its author and article administrators, the favourite/report state, and the comments. The rest of
// the page is shared by every reader of the article.

const manages = (user: SessionUser | null, a: ArticleRow) => mayManage(user, a, isArticleAdmin(user));

function EditLink({ a }: { a: ArticleRow }) {
  const { user } = useRequest();
  return manages(user, a) ? <a className="art-edit" href={`/post?id=${a.id}`}>编辑</a> : null;
}

/**
 * What the favourite bar and the comments read for a member, in one statement: the favourite count
 * (it changes without a content version bump), their favourite and report, and their comments under
 * review. Kept while the database cannot have changed (db/epoch.ts: every such change is a write)
 * so the slots' outputs can be kept per member and this state (views/personal.tsx vary) — as the reader's are.
 */
type StateRow = { favorite_count: number; favorited: number; reported: number; review: string };
const kept = epochMemo<StateRow | null>();

function articleState(user: SessionUser, articleId: number): StateRow | null {
  const stmt = prepared("article.memberState", () => getSqlite().query<StateRow, [number, number, number]>(`SELECT a.favorite_count,
      EXISTS (SELECT 1 FROM article_favorite f WHERE f.user_id = ?1 AND f.article_id = ?2) AS favorited,
      EXISTS (SELECT 1 FROM report r WHERE r.user_id = ?1 AND r.article_id = ?2) AS reported,
      (SELECT count(*) || ':' || coalesce(max(+c.id), 0) FROM comment c WHERE c.user_id = ?1 AND c.article_id = ?2 AND +c.status = ?3) AS review
      FROM article a WHERE a.id = ?2`));
  return kept(`${user.id}:${articleId}`, () => stmt.get(user.id, articleId, COMMENT_STATUS.review));
}

function Actions({ a, visible }: { a: ArticleRow; visible: boolean }) {
  const { user } = useRequest();
  const st = user ? articleState(user, a.id) : null;
  const props: ArticleActionsProps = {
    articleId: a.id, identifier: a.identifier, title: a.title, loggedIn: !!user, visible,
    favorited: !!st?.favorited, favoriteCount: st?.favorite_count ?? a.favorite_count, reported: !!st?.reported,
    reportUrl: getManifest().islands.ReportDialog ?? "",
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
/** Favourite, share and report: kept per member and their state. */
export const PersonalActions = ({ a, visible }: { a: ArticleRow; visible: boolean }) => (
  <Personal vary={(user) => {
    if (!user) return "";
    const st = articleState(user, a.id);
    return st ? `${user.id}:${st.favorite_count}:${st.favorited}:${st.reported}` : null;
  }}><Actions a={a} visible={visible} /></Personal>
);
/**
 * A member who is not a moderator sees the visitors' comments plus their own still under review;
 * every other change to what they see bumps the content version. Moderators render per request.
 */
export const PersonalComments = ({ a, sort }: { a: ArticleRow; sort: string | undefined }) => (
  <Personal vary={(user) => {
    if (!user) return "";
    if (isCommentModerator(user)) return null;
    const st = articleState(user, a.id);
    return st ? `${user.id}:${st.review}` : null;
  }}><Comments a={a} sort={sort} /></Personal>
);
