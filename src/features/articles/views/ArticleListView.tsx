import { EmptyState, PageNav, hrefWith } from "#src/features/categories/views/parts.tsx";
import { AdSlot } from "#src/views/components/AdSlot.tsx";
import type { CategoryNode } from "#src/features/site/layoutData.ts";
import { ARTICLE_SORTS, type ArticleCardData, type ArticleSort } from "../listing.ts";
import { ArticleLines, ArticleList } from "./parts.tsx";

export interface ArticleListViewProps {
  categories: CategoryNode[];
  /** the filtered category's root → leaf chain (empty: all articles) */
  chain: { id: number; title: string }[];
  sort: ArticleSort;
  page: number;
  pages: number;
  total: number;
  items: ArticleCardData[];
  hot: ArticleCardData[];
  mayPost: boolean;
}

/** URL of a list view with defaults left out, so equal views share one URL (and cache entry). */
export const listHref = (v: { category_id?: number; sort?: ArticleSort; page?: number }) =>
  hrefWith("/article", { category_id: v.category_id || undefined, sort: v.sort && v.sort !== "recommend" ? v.sort : undefined, page: v.page && v.page > 1 ? v.page : undefined });

/** Category chips: the top level, then the children of the selected branch. */
function Filters({ categories, chain, sort }: Pick<ArticleListViewProps, "categories" | "chain" | "sort">) {
  const current = chain.at(-1)?.id;
  const top = categories.find((c) => c.id === chain[0]?.id);
  const children = chain.length ? (chain.length > 1 ? findNode(categories, chain.at(-2)!.id)?.children : top?.children) ?? [] : [];
  return (
    <div className="card art-filters">
      <nav className="chips" aria-label="文章分类">
        <a className={!current ? "chip active" : "chip"} aria-current={!current ? "page" : undefined} href={listHref({ sort })}>全部</a>
        {categories.map((c) => <a key={c.id} className={c.id === chain[0]?.id ? "chip active" : "chip"} href={listHref({ category_id: c.id, sort })}>{c.title}</a>)}
      </nav>
      {children.length ? (
        <nav className="chips art-subcats" aria-label="下级分类">
          {children.map((c) => <a key={c.id} className={c.id === current ? "chip active" : "chip"} aria-current={c.id === current ? "page" : undefined} href={listHref({ category_id: c.id, sort })}>{c.title}</a>)}
        </nav>
      ) : null}
      <nav className="cat-sorts art-sorts" aria-label="排序">
        {(Object.keys(ARTICLE_SORTS) as ArticleSort[]).map((k) => (
          <a key={k} className={k === sort ? "active" : undefined} aria-current={k === sort ? "true" : undefined} href={listHref({ category_id: current, sort: k })}>{ARTICLE_SORTS[k].label}</a>
        ))}
      </nav>
    </div>
  );
}

function findNode(nodes: CategoryNode[], id: number): CategoryNode | undefined {
  for (const n of nodes) {
    if (n.id === id) return n;
    const hit = findNode(n.children, id);
    if (hit) return hit;
  }
  return undefined;
}

export function ArticleListView(p: ArticleListViewProps) {
  const current = p.chain.at(-1);
  return (
    <div className="container art-page">
      <AdSlot position="list_1" />
      <div className="art-layout">
        <div className="art-main">
          <h1 className="art-page-title">{current ? current.title : "文章"}<span className="muted">{`共 ${p.total} 篇`}</span></h1>
          <Filters categories={p.categories} chain={p.chain} sort={p.sort} />
          <section className="card art-list-card" aria-label="文章列表">
            {p.items.length ? (
              <>
                <ArticleList items={p.items} />
                <PageNav page={p.page} pages={p.pages} href={(n) => listHref({ category_id: current?.id, sort: p.sort, page: n })} />
              </>
            ) : (
              <EmptyState title={current ? "该分类下还没有文章" : "还没有文章"} text="写下你的经验与见解，与大家分享。" action={p.mayPost ? { href: "/post", label: "发布文章" } : undefined} />
            )}
          </section>
          <AdSlot position="list_2" />
        </div>
        <aside className="art-side">
          {p.mayPost ? <a className="btn btn-primary btn-block art-post-btn" href="/post">发布文章</a> : null}
          <section className="card">
            <h2 className="card-title">热门文章</h2>
            {p.hot.length ? <ArticleLines items={p.hot} /> : <p className="muted">暂无热门文章</p>}
          </section>
          <AdSlot position="list_3" />
        </aside>
      </div>
    </div>
  );
}
