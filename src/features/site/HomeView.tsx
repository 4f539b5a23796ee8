import { EmptyState } from "#src/features/categories/views/parts.tsx";
import { DocumentCard, DocumentLines, DocumentList, ExtBadge, compactCount, type DocumentCardData } from "#src/views/components/DocumentCard.tsx";
import { AdSlot } from "#src/views/components/AdSlot.tsx";
import type { ArticleCardData } from "#src/features/articles/listing.ts";
import { ArticleLines, ArticleList } from "#src/features/articles/views/parts.tsx";
import { isBuilt, SECTIONS } from "./sections.ts";
import type { CategoryNode } from "./layoutData.ts";

export interface HomeProps {
  banners: { id: number; title: string; path: string; url: string }[];
  categories: CategoryNode[];
  recommended: DocumentCardData[];
  latest: DocumentCardData[];
  /** newest documents of each top-level category's subtree, by category id */
  blocks: Record<number, DocumentCardData[]>;
  articleCategories: CategoryNode[];
  /** newest approved articles, and those the admins recommend */
  articles: { latest: ArticleCardData[]; recommended: ArticleCardData[] };
  sitename: string;
  description: string;
  creditName: string;
}

function Banners({ banners, sitename, description, creditName }: Pick<HomeProps, "banners" | "sitename" | "description" | "creditName">) {
  if (!banners.length) {
    return (
      <section className="hero">
        <h1>{sitename}</h1>
        <p>{description}</p>
        <form action="/search" method="get" className="hero-search" role="search">
          <input type="hidden" name="type" value="0" />
          <input name="wd" maxLength={64} placeholder="搜索文档，如：年度工作总结" aria-label="搜索文档" />
          <button type="submit" className="btn btn-primary">搜索</button>
        </form>
        <ul className="hero-points">
          <li>海量文档在线阅读</li>
          <li>全文检索秒级响应</li>
          <li>上传分享赚取{creditName}</li>
        </ul>
      </section>
    );
  }
  // CSS scroll-snap carousel: swipeable with no script; browsers with CSS scroll markers add dots
  // and arrows, which are laid out beside the track, so the section is their positioned frame.
  return (
    <section className="banners" aria-label="轮播图">
      <div className="banner-track">
        {banners.map((b, i) => (
          <a key={b.id} className="banner" href={b.url && isBuilt(b.url) ? b.url : undefined} title={b.title}>
            <img src={b.path} alt={b.title} loading={i === 0 ? "eager" : "lazy"} />
            <span className="banner-title">{b.title}</span>
          </a>
        ))}
      </div>
    </section>
  );
}

/** A category block: the newest three as cover cards, the rest as title lines. */
function BlockDocs({ docs, description }: { docs: DocumentCardData[]; description: string }) {
  if (!docs.length) return <EmptyState compact title="该分类暂无文档" text={description || "上传文档时选择此分类即可出现在这里。"} />;
  return (
    <>
      <div className="block-covers">{docs.slice(0, 3).map((d) => <DocumentCard key={d.uuid} doc={d} />)}</div>
      {docs.length > 3 ? (
        <ul className="block-lines">
          {docs.slice(3).map((d) => (
            <li key={d.uuid}><ExtBadge ext={d.ext} /><a href={`/document/${d.uuid}`} title={d.title}>{d.title}</a><span className="muted">{compactCount(d.view_count)}浏览</span></li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

export function HomeView(p: HomeProps) {
  return (
    <div className="container home">
      <div className="home-top">
        <Banners banners={p.banners} sitename={p.sitename} description={p.description} creditName={p.creditName} />
        <aside className="home-side card">
          <h2 className="card-title">推荐文档</h2>
          {p.recommended.length ? <DocumentLines docs={p.recommended} count="download" /> : <EmptyState title="暂无推荐文档" text="管理员推荐的优质文档会出现在这里。" />}
        </aside>
      </div>

      <AdSlot position="index_1" />

      <section className="card">
        <div className="card-head"><h2 className="card-title">最新文档</h2><a href="/category" className="more">更多 ›</a></div>
        {p.latest.length ? <DocumentList docs={p.latest} /> : <EmptyState title="还没有文档" text="成为第一个分享知识的人吧。" action={{ href: "/upload", label: "上传文档" }} />}
      </section>

      <AdSlot position="index_2" />

      {p.categories.length ? (
        <section className="category-blocks">
          {p.categories.map((c) => (
            <div className="card category-block" key={c.id}>
              <div className="card-head">
                <h2 className="card-title"><a href={`/category/${c.id}`}>{c.title}</a></h2>
                <a className="more" href={`/category/${c.id}`}>更多 ›</a>
              </div>
              {c.cover ? <a className="block-cover" href={`/category/${c.id}`} tabIndex={-1} aria-hidden="true"><img src={c.cover} alt="" loading="lazy" /></a> : null}
              {c.children.length ? (
                <div className="chips">{c.children.map((s) => <a key={s.id} className="chip" href={`/category/${s.id}`}>{s.title}</a>)}</div>
              ) : null}
              <BlockDocs docs={p.blocks[c.id] ?? []} description={c.description} />
            </div>
          ))}
        </section>
      ) : (
        <section className="card"><EmptyState title="还没有文档分类" text="管理员在后台添加分类后，这里会按分类展示文档。" /></section>
      )}

      <AdSlot position="index_3" />

      {SECTIONS.articles ? (
        <div className="home-articles">
          <section className="card">
            <div className="card-head"><h2 className="card-title">最新文章</h2><a href="/article" className="more">更多 ›</a></div>
            {p.articleCategories.length ? (
              <div className="chips">{p.articleCategories.map((c) => <a key={c.id} className="chip" href={`/article?category_id=${c.id}`}>{c.title}</a>)}</div>
            ) : null}
            {p.articles.latest.length ? <ArticleList items={p.articles.latest} headingLevel={3} /> : <EmptyState title="还没有文章" text="发布你的第一篇文章，与大家分享经验。" action={{ href: "/post", label: "发布文章" }} />}
          </section>
          <aside className="card">
            <h2 className="card-title">推荐文章</h2>
            {p.articles.recommended.length ? <ArticleLines items={p.articles.recommended} count="none" /> : <EmptyState compact title="暂无推荐文章" text="管理员推荐的优质文章会出现在这里。" />}
          </aside>
        </div>
      ) : null}

      <AdSlot position="index_4" />
    </div>
  );
}
