import { AdSlot } from "#src/views/components/AdSlot.tsx";
import { compactCount } from "#src/views/components/DocumentCard.tsx";
import type { PublicCategory } from "../service.ts";
import type { Node } from "../tree.ts";
import { Breadcrumb, CategoryIcon, EmptyState } from "./parts.tsx";

/** /category: every top-level document category as a card with its children. */
export function CategoryIndexView({ tree, total }: { tree: Node<PublicCategory>[]; total: number }) {
  return (
    <div className="container category-page">
      <Breadcrumb items={[{ href: "/", label: "首页" }, { label: "文档分类" }]} />
      <header className="cat-head card">
        <h1>文档分类</h1>
        <p className="muted">共 {tree.length} 个大类，{compactCount(total)} 篇文档，按分类浏览你需要的资料。</p>
      </header>
      <AdSlot position="list_1" />
      {tree.length ? (
        <section className="cat-boxes">
          {tree.map((c) => (
            <article key={c.id} className="card cat-box">
              <a className="cat-box-cover" href={`/category/${c.id}`} tabIndex={-1} aria-hidden="true">
                {c.cover ? <img src={c.cover} alt="" loading="lazy" /> : <span className="cat-box-ph">{c.title.slice(0, 2)}</span>}
              </a>
              <div className="cat-box-body">
                <h2 className="cat-box-title">
                  <CategoryIcon src={c.icon} />
                  <a href={`/category/${c.id}`}>{c.title}</a>
                  <span className="cat-count">{compactCount(c.doc_count)} 篇</span>
                </h2>
                {c.show_description && c.description ? <p className="cat-desc">{c.description}</p> : null}
                {c.children.length ? (
                  <ul className="cat-children">
                    {c.children.map((s) => (
                      <li key={s.id}><a href={`/category/${s.id}`}>{s.title}<span className="cat-count">{compactCount(s.doc_count)}</span></a></li>
                    ))}
                  </ul>
                ) : null}
              </div>
            </article>
          ))}
        </section>
      ) : (
        <section className="card"><EmptyState title="还没有文档分类" text="管理员在后台添加分类后，这里会按分类展示文档。" /></section>
      )}
      <AdSlot position="list_3" />
    </div>
  );
}
