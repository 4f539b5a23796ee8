import { AdSlot } from "#src/views/components/AdSlot.tsx";
import { DocumentLines, DocumentList, compactCount, type DocumentCardData } from "#src/views/components/DocumentCard.tsx";
import { EXT_FILTERS, PAGE_SIZE, SORTS, type ExtKey, type SortKey } from "../listing.ts";
import type { PublicCategory } from "../service.ts";
import { Breadcrumb, CategoryIcon, EmptyState, PageNav, hrefWith } from "./parts.tsx";

export interface CategoryViewProps {
  category: PublicCategory;
  chain: PublicCategory[];
  children: PublicCategory[];
  siblings: PublicCategory[];
  sort: SortKey;
  ext?: ExtKey;
  page: number;
  total: number;
  docs: DocumentCardData[];
  hot: DocumentCardData[];
}

/** Query of a view with defaults left out (sort=latest, page 1), so each view has one URL. */
export function viewHref(id: number, v: { sort?: SortKey; ext?: ExtKey; page?: number }) {
  return hrefWith(`/category/${id}`, { ext: v.ext, sort: v.sort === "latest" ? undefined : v.sort, page: v.page && v.page > 1 ? v.page : undefined });
}

/** Children as chips; a leaf shows its siblings instead so visitors can move sideways. */
function Chips({ p }: { p: CategoryViewProps }) {
  const c = p.category;
  const list = p.children.length ? p.children : p.siblings;
  if (!list.length) return null;
  const allHref = p.children.length ? `/category/${c.id}` : `/category/${c.parent_id}`;
  return (
    <div className="chips cat-chips" role="list" aria-label="子分类">
      <a role="listitem" className={p.children.length ? "chip active" : "chip"} href={allHref}>全部</a>
      {list.map((s) => (
        <a role="listitem" key={s.id} className={s.id === c.id ? "chip active" : "chip"} href={`/category/${s.id}`}>{s.title}<span className="chip-count">{compactCount(s.doc_count)}</span></a>
      ))}
    </div>
  );
}

export function CategoryView(p: CategoryViewProps) {
  const c = p.category;
  const pages = Math.max(1, Math.ceil(p.total / PAGE_SIZE));
  const sortKeys = Object.keys(SORTS) as SortKey[];
  const extKeys = Object.keys(EXT_FILTERS) as ExtKey[];
  return (
    <div className="container category-page">
      <Breadcrumb items={[{ href: "/", label: "首页" }, { href: "/category", label: "文档分类" }, ...p.chain.map((x) => ({ href: `/category/${x.id}`, label: x.title }))]} />
      <header className="cat-head card">
        <div className="cat-head-row">
          {c.cover ? <img className="cat-head-cover" src={c.cover} alt="" /> : null}
          <div className="cat-head-text">
            <h1><CategoryIcon src={c.icon} />{c.title}</h1>
            {c.show_description && c.description ? <p className="cat-desc">{c.description}</p> : null}
            <p className="muted">共 {compactCount(c.doc_count)} 篇文档</p>
          </div>
        </div>
        <Chips p={p} />
      </header>
      <AdSlot position="list_1" />
      <div className="cat-layout">
        <section className="card cat-main" aria-label="文档列表">
          <div className="cat-toolbar">
            <nav className="cat-sorts" aria-label="排序">
              {sortKeys.map((k) => <a key={k} className={k === p.sort ? "active" : undefined} aria-current={k === p.sort ? "true" : undefined} href={viewHref(c.id, { sort: k, ext: p.ext })}>{SORTS[k].label}</a>)}
            </nav>
            <nav className="cat-exts" aria-label="文件类型">
              <a className={!p.ext ? "active" : undefined} aria-current={!p.ext ? "true" : undefined} href={viewHref(c.id, { sort: p.sort })}>全部</a>
              {extKeys.map((k) => <a key={k} className={k === p.ext ? "active" : undefined} aria-current={k === p.ext ? "true" : undefined} href={viewHref(c.id, { sort: p.sort, ext: k })}>{EXT_FILTERS[k].label}</a>)}
            </nav>
          </div>
          {p.docs.length ? (
            <>
              <DocumentList docs={p.docs} variant="row" />
              <PageNav page={p.page} pages={pages} href={(n) => viewHref(c.id, { sort: p.sort, ext: p.ext, page: n })} />
            </>
          ) : p.ext ? (
            <EmptyState title={`没有${EXT_FILTERS[p.ext].label}类型的文档`} text="换个文件类型看看吧。" action={{ href: viewHref(c.id, { sort: p.sort }), label: "查看全部类型" }} />
          ) : (
            <EmptyState title="该分类暂无文档" text="上传文档时选择此分类，就会出现在这里。" action={{ href: "/upload", label: "上传文档" }} />
          )}
          <AdSlot position="list_3" />
        </section>
        <aside className="cat-side">
          {p.hot.length ? (
            <section className="card">
              <h2 className="card-title">本类热门</h2>
              <DocumentLines docs={p.hot} />
            </section>
          ) : null}
          <AdSlot position="list_2" />
        </aside>
      </div>
    </div>
  );
}
