import { userArticles } from "../listing.ts";
import { ArticleList } from "./parts.tsx";

export const USER_ARTICLES_PAGE = 20;

/** Body of /user/{id}/article: the user's approved articles, newest first, with plain links to page. */
export function UserArticles({ userId, page, empty }: { userId: number; page: number; empty: React.ReactNode }) {
  const { total, items } = userArticles(userId, page, USER_ARTICLES_PAGE);
  if (!items.length) return <>{empty}</>;
  const pages = Math.ceil(total / USER_ARTICLES_PAGE);
  return (
    <>
      <ArticleList items={items} showAuthor={false} />
      {pages > 1 ? (
        <nav className="pager" aria-label="分页">
          {page > 1 ? <a className="btn btn-sm" href={`/user/${userId}/article?page=${page - 1}`}>上一页</a> : null}
          <span className="muted">{page} / {pages}</span>
          {page < pages ? <a className="btn btn-sm" href={`/user/${userId}/article?page=${page + 1}`}>下一页</a> : null}
        </nav>
      ) : null}
    </>
  );
}
