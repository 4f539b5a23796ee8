// Small server components of the article pages, the home page and the user homepage.
import { Avatar } from "#islands/site/UserMenu.tsx";
import { timeAgo } from "#src/lib/format.ts";
import { compactCount } from "#src/views/components/DocumentCard.tsx";
import type { ArticleCardData } from "../listing.ts";

export const articleHref = (identifier: string) => `/article/${identifier}`;

/** One article in a list: title, summary, author, time and counts; the cover on the right when there is one. */
export function ArticleItem({ a, showAuthor = true, headingLevel = 2 }: { a: ArticleCardData; showAuthor?: boolean; headingLevel?: 2 | 3 }) {
  const H = headingLevel === 2 ? "h2" : "h3";
  return (
    <li className="art-item">
      <div className="art-item-body">
        <H className="art-item-title">
          {a.is_recommend ? <span className="art-badge art-badge-rec">荐</span> : null}
          <a href={articleHref(a.identifier)}>{a.title}</a>
        </H>
        {a.description ? <p className="art-item-desc">{a.description}</p> : null}
        <p className="art-item-meta muted">
          {showAuthor ? <a className="art-author" href={`/user/${a.user_id}`}><Avatar src={a.avatar} name={a.username} size={20} /><span>{a.username}</span></a> : null}
          <time dateTime={new Date(a.created_at).toISOString()}>{timeAgo(a.created_at)}</time>
          {a.category_title ? <a href={`/article?category_id=${a.category_id}`}>{a.category_title}</a> : null}
          <span>{`${compactCount(a.view_count)} 阅读`}</span>
          <span>{`${compactCount(a.comment_count)} 评论`}</span>
        </p>
      </div>
      {a.cover ? <a className="art-item-cover" href={articleHref(a.identifier)} tabIndex={-1} aria-hidden="true"><img src={a.cover} alt="" loading="lazy" /></a> : null}
    </li>
  );
}

export function ArticleList({ items, showAuthor, headingLevel }: { items: ArticleCardData[]; showAuthor?: boolean; headingLevel?: 2 | 3 }) {
  return <ul className="art-list">{items.map((a) => <ArticleItem key={a.id} a={a} showAuthor={showAuthor} headingLevel={headingLevel} />)}</ul>;
}

/** Numbered title lines (hot and related articles, the home sidebar). */
export function ArticleLines({ items, count = "view" }: { items: ArticleCardData[]; count?: "view" | "none" }) {
  return (
    <ol className="art-lines">
      {items.map((a, i) => (
        <li key={a.id}>
          <span className={i < 3 ? "art-lines-n top" : "art-lines-n"} aria-hidden="true">{i + 1}</span>
          <a href={articleHref(a.identifier)} title={a.title}>{a.title}</a>
          {count === "view" ? <span className="muted">{compactCount(a.view_count)}</span> : null}
        </li>
      ))}
    </ol>
  );
}
