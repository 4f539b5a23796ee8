import { formatDate } from "#src/lib/format.ts";
import { compactCount } from "#src/views/components/DocumentCard.tsx";
import type { ArticleHit } from "../search.ts";

// Titles and snippets arrive as HTML built by search/highlight.ts: escaped text plus <mark> only.
/** Results of an article search (/search?type=1), in the search page's own list styles. */
export function ArticleSearchHits({ hits }: { hits: ArticleHit[] }) {
  return (
    <ol className="search-hits">
      {hits.map((h) => (
        <li key={h.identifier} className="search-hit">
          <h3 className="search-hit-title"><span className="art-badge">文章</span><a href={`/article/${h.identifier}`} dangerouslySetInnerHTML={{ __html: h.title }} /></h3>
          {h.snippet ? <a className="search-snippet" href={`/article/${h.identifier}`}><span dangerouslySetInnerHTML={{ __html: h.snippet }} /></a> : null}
          <p className="search-hit-meta muted">
            {h.username ? <a href={`/user/${h.user_id}`}>{h.username}</a> : null}
            <span>{formatDate(h.created_at)}</span>
            <span>{`${compactCount(h.view_count)} 阅读`}</span>
            <span>{`${compactCount(h.comment_count)} 评论`}</span>
          </p>
        </li>
      ))}
    </ol>
  );
}
