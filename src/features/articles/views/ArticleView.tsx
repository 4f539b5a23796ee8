import { Avatar } from "#islands/site/UserMenu.tsx";
import { Breadcrumb } from "#src/features/categories/views/parts.tsx";
import { formatDateTime, timeAgo } from "#src/lib/format.ts";
import { AdSlot } from "#src/views/components/AdSlot.tsx";
import { compactCount } from "#src/views/components/DocumentCard.tsx";
import type { ArticleCardData } from "../listing.ts";
import type { TocItem } from "../markdown.ts";
import type { ArticleRow } from "../policy.ts";
import { PersonalActions, PersonalComments, PersonalEditLink } from "./ArticlePersonal.tsx";
import { ArticleLines } from "./parts.tsx";

export interface ArticleViewProps {
  a: ArticleRow;
  html: string;
  toc: TocItem[];
  /** the summary its author wrote ("" when it was taken from the text, which follows anyway) */
  lead: string;
  crumbs: { id: number; title: string }[];
  author: { id: number; username: string; avatar: string; signature: string; article_count: number } | null;
  related: ArticleCardData[];
  commentSort?: string;
}

function Keywords({ text }: { text: string }) {
  const words = [...new Set(text.split(/[\s,，;；、]+/).map((w) => w.trim()).filter(Boolean))].slice(0, 12);
  if (!words.length) return null;
  return <p className="art-keywords">{words.map((w) => <a key={w} className="chip" href={`/search?wd=${encodeURIComponent(w)}&type=1`}>{w}</a>)}</p>;
}

function Toc({ toc, label }: { toc: TocItem[]; label: string }) {
  const top = Math.min(...toc.map((t) => t.level));
  return (
    <nav className="art-toc" aria-label={label}>
      <ol>{toc.map((t) => <li key={t.id} className={`art-toc-l${t.level - top + 1}`}><a href={`#${t.id}`}>{t.text}</a></li>)}</ol>
    </nav>
  );
}

function ReviewNotice({ a }: { a: ArticleRow }) {
  if (a.deleted_at !== null) return <p className="art-notice art-notice-bad" role="status">这篇文章在回收站中，访客看不到它。</p>;
  if (a.status === 0) return <p className="art-notice" role="status">文章正在审核中，审核通过后所有人都能看到。</p>;
  if (a.status === 2) return <p className="art-notice art-notice-bad" role="status">{`文章未通过审核${a.reject_reason ? `：${a.reject_reason}` : ""}。修改后会重新提交审核。`}</p>;
  return null;
}

export function ArticleView(p: ArticleViewProps) {
  const { a } = p;
  const visible = a.status === 1 && a.deleted_at === null;
  return (
    <div className="container art-read">
      <AdSlot position="document_top" />
      <Breadcrumb items={[{ href: "/", label: "首页" }, { href: "/article", label: "文章" }, ...p.crumbs.map((c) => ({ href: `/article?category_id=${c.id}`, label: c.title })), { label: a.title }]} />
      <div className="art-read-layout">
        <div className="art-read-main">
          <article className="card art-article">
            <header className="art-head">
              <h1 className="art-title">{a.title}</h1>
              <p className="art-meta muted">
                {p.author ? <a href={`/user/${p.author.id}`}>{p.author.username}</a> : null}
                <time dateTime={new Date(a.created_at).toISOString()} title={formatDateTime(a.created_at)}>{timeAgo(a.created_at)}</time>
                <span>{`${compactCount(a.view_count)} 阅读`}</span>
                <span>{`${compactCount(a.comment_count)} 评论`}</span>
                {a.updated_at - a.created_at > 60_000 ? <span title={formatDateTime(a.updated_at)}>{`更新于 ${timeAgo(a.updated_at)}`}</span> : null}
                <PersonalEditLink a={a} />
              </p>
              {/* Only its author and article administrators reach an article that is not public. */}
              {visible ? null : <ReviewNotice a={a} />}
            </header>
            {p.lead ? <p className="art-lead">{p.lead}</p> : null}
            {p.toc.length > 1 ? <details className="art-toc-inline"><summary>目录</summary><Toc toc={p.toc} label="文章目录" /></details> : null}
            {/* Rendered by markdown.ts and passed through the allow-list sanitiser (sanitize.ts). */}
            <div className="art-content md-body" dangerouslySetInnerHTML={{ __html: p.html }} />
            <Keywords text={a.keywords} />
            <footer className="art-foot">
              <PersonalActions a={a} visible={visible} />
            </footer>
          </article>
          <AdSlot position="document_bottom" />
          <section id="comments" className="card art-comments" aria-label="评论">
            {visible ? <PersonalComments a={a} sort={p.commentSort} /> : <p className="muted">文章公开后才能评论。</p>}
          </section>
        </div>
        <aside className="art-side art-read-side">
          {p.author ? (
            <section className="card art-author-card">
              <a className="art-author-link" href={`/user/${p.author.id}`}>
                <Avatar src={p.author.avatar} name={p.author.username} size={48} />
                <span><strong>{p.author.username}</strong><span className="muted">{`发布文章 ${p.author.article_count} 篇`}</span></span>
              </a>
              {p.author.signature ? <p className="muted art-author-sign">{p.author.signature}</p> : null}
            </section>
          ) : null}
          {p.related.length ? (
            <section className="card">
              <h2 className="card-title">相关文章</h2>
              <ArticleLines items={p.related} count="none" />
            </section>
          ) : null}
          {p.toc.length > 1 ? (
            <section className="card art-toc-card">
              <h2 className="card-title">目录</h2>
              <Toc toc={p.toc} label="目录导航" />
            </section>
          ) : null}
        </aside>
      </div>
    </div>
  );
}
