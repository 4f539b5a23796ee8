import { EmptyState, PageNav, hrefWith } from "#src/features/categories/views/parts.tsx";
import { EXT_FILTERS, type ExtKey } from "#src/features/categories/listing.ts";
import { formatBytes, formatDate } from "#src/lib/format.ts";
import { AdSlot } from "#src/views/components/AdSlot.tsx";
import { ExtBadge, compactCount } from "#src/views/components/DocumentCard.tsx";
import { ArticleSearchHits } from "#src/features/articles/views/ArticleSearchHits.tsx";
import type { ArticleHit } from "#src/features/articles/search.ts";
import { SEARCH_SORTS, type SearchHit, type SearchSort } from "../service.ts";

export interface SearchViewProps {
  wd: string;
  type: number;
  page: number;
  pages: number;
  total: number;
  seconds: string;
  sort: SearchSort;
  ext?: string;
  categoryId?: number;
  categories: { id: number; title: string; doc_count: number }[];
  hits: SearchHit[];
  /** type 1: the article hits (hits is then empty) */
  articleHits?: ArticleHit[];
}

/** URL of a search view with defaults left out, so equal views share one URL. */
export function searchHref(v: { wd: string; type?: number; sort?: SearchSort; ext?: string; category_id?: number; page?: number }) {
  return hrefWith("/search", {
    wd: v.wd, type: v.type ? v.type : undefined, category_id: v.category_id, ext: v.ext,
    sort: v.sort && v.sort !== "relevance" ? v.sort : undefined, page: v.page && v.page > 1 ? v.page : undefined,
  });
}

// Titles and snippets arrive as HTML built by highlight.ts: escaped text plus <mark> only.
function Hit({ h }: { h: SearchHit }) {
  const href = `/document/${h.uuid}${h.page > 1 ? `?page=${h.page}` : ""}`;
  return (
    <li className="search-hit">
      <h3 className="search-hit-title">
        <ExtBadge ext={h.ext} />
        <a href={`/document/${h.uuid}`} dangerouslySetInnerHTML={{ __html: h.title }} />
      </h3>
      {h.snippet ? (
        <a className="search-snippet" href={href}>
          <span className="search-page-label">{`第 ${h.page} 页`}</span>
          <span dangerouslySetInnerHTML={{ __html: h.snippet }} />
        </a>
      ) : null}
      <p className="search-hit-meta muted">
        <span>{h.ext.toUpperCase()}</span>
        {h.pages > 0 ? <span>{h.pages} 页</span> : null}
        {h.size > 0 ? <span>{formatBytes(h.size)}</span> : null}
        {h.score > 0 ? <span className="doc-score">★{(h.score / 100).toFixed(1)}</span> : null}
        <span>{compactCount(h.download_count)} 下载</span>
        {h.username ? <a href={`/user/${h.user_id}`}>{h.username}</a> : null}
        <span>{formatDate(h.created_at)}</span>
      </p>
    </li>
  );
}

function Empty({ p }: { p: SearchViewProps }) {
  const filtered = p.ext || p.categoryId;
  return (
    <div className="search-empty">
      <EmptyState
        title={p.wd ? `没有找到与“${p.wd}”相关的${p.type === 1 ? "文章" : "文档"}` : "请输入要搜索的内容"}
        text={filtered ? "当前筛选条件下没有结果，可以去掉筛选再试。" : undefined}
        action={filtered ? { href: searchHref({ wd: p.wd, type: p.type }), label: "清除筛选" } : undefined}
      />
      <div className="search-tips">
        <h3>搜索建议</h3>
        <ul>
          <li>检查输入是否有错别字，或换一个意思相近的词；</li>
          <li>减少关键词，或使用更常见的说法（如“合同范本”而不是完整标题）；</li>
          <li>关键词之间用空格分开，加上 pdf、word、ppt、excel 可优先显示该类型的文档。</li>
        </ul>
        {p.categories.length ? (
          <>
            <h3>热门分类</h3>
            <div className="chips">
              {p.categories.slice(0, 12).map((c) => <a key={c.id} className="chip" href={`/category/${c.id}`}>{c.title}</a>)}
            </div>
          </>
        ) : null}
      </div>
    </div>
  );
}

export function SearchView(p: SearchViewProps) {
  const base = { wd: p.wd, type: p.type, sort: p.sort, ext: p.ext, category_id: p.categoryId };
  const extKeys = Object.keys(EXT_FILTERS) as ExtKey[];
  const sorts = Object.keys(SEARCH_SORTS) as SearchSort[];
  return (
    <div className="container search-page">
      <AdSlot position="search_top" />
      <div className="search-layout">
        <section className="card search-main" aria-label="搜索结果">
          {p.type === 0 ? (
            <div className="search-filters">
              <nav className="chips" aria-label="分类">
                <a className={!p.categoryId ? "chip active" : "chip"} href={searchHref({ ...base, category_id: undefined })}>全部分类</a>
                {p.categories.map((c) => <a key={c.id} className={c.id === p.categoryId ? "chip active" : "chip"} href={searchHref({ ...base, category_id: c.id })}>{c.title}</a>)}
              </nav>
              <div className="cat-toolbar">
                <nav className="cat-sorts" aria-label="排序">
                  {sorts.map((k) => <a key={k} className={k === p.sort ? "active" : undefined} aria-current={k === p.sort ? "true" : undefined} href={searchHref({ ...base, sort: k })}>{SEARCH_SORTS[k]}</a>)}
                </nav>
                <nav className="cat-exts" aria-label="文件类型">
                  <a className={!p.ext ? "active" : undefined} href={searchHref({ ...base, ext: undefined })}>全部</a>
                  {extKeys.map((k) => <a key={k} className={k === p.ext ? "active" : undefined} aria-current={k === p.ext ? "true" : undefined} href={searchHref({ ...base, ext: k })}>{EXT_FILTERS[k].label}</a>)}
                </nav>
              </div>
            </div>
          ) : null}
          {p.wd ? <p className="search-summary muted">{`共找到 ${p.total} 篇${p.type === 1 ? "文章" : "文档"}，用时 ${p.seconds} 秒`}</p> : null}
          {p.hits.length || p.articleHits?.length ? (
            <>
              {p.articleHits?.length ? <ArticleSearchHits hits={p.articleHits} /> : <ol className="search-hits">{p.hits.map((h) => <Hit key={h.uuid} h={h} />)}</ol>}
              <PageNav page={p.page} pages={p.pages} href={(n) => searchHref({ ...base, page: n })} />
            </>
          ) : <Empty p={p} />}
          <AdSlot position="search_bottom" />
        </section>
        <aside className="search-side">
          <AdSlot position="search_right" />
        </aside>
      </div>
    </div>
  );
}
