import { useState } from "react";
import { api } from "../api.ts";
import { toast } from "../toast.ts";

export type FavoriteKind = "document" | "article";

/** One favourite as the server lays it out; `target` is the document or article id. */
export interface FavoriteRow { id: number; target: number; title: string; href: string; badge: string; meta: string; visible: boolean }

export interface ReaderFavoriteListProps {
  kind: FavoriteKind; rows: FavoriteRow[]; total: number; page: number; size: number;
  /** favourites of the other kind, for its tab */
  otherTotal: number;
}

// Documents and articles keep their own favourites (and APIs); the page shows one kind per tab.
const KIND = {
  document: { noun: "文档", tip: "阅读文档时点击「收藏」，就能在这里快速找到它。", home: "/", explore: "去发现文档", first: "/me/favorite", pageHref: (n: number) => `?page=${n}` },
  article: { noun: "文章", tip: "阅读文章时点击「收藏」，就能在这里快速找到它。", home: "/article", explore: "去看看文章", first: "/me/favorite?type=article", pageHref: (n: number) => `?type=article&page=${n}` },
};
const KINDS: FavoriteKind[] = ["document", "article"];

// Each kind has its own favourite API: documents by favourite id, articles by article id.
const removal = (kind: FavoriteKind, row: FavoriteRow) =>
  kind === "article" ? api("DELETE", `/article/favorite?article_id=${row.target}`) : api("DELETE", "/favorite", { body: { id: row.id } });

/** /me/favorite: my favourites of one kind with 取消收藏; pages are plain links (?page=N). */
export default function ReaderFavoriteList({ kind, rows: initial, total: initialTotal, page, size, otherTotal }: ReaderFavoriteListProps) {
  const [rows, setRows] = useState(initial);
  const [total, setTotal] = useState(initialTotal);
  const [busy, setBusy] = useState(0);
  const k = KIND[kind];

  const remove = async (row: FavoriteRow) => {
    setBusy(row.id);
    const r = await removal(kind, row);
    setBusy(0);
    if (!r.ok) return toast(r.message || "取消收藏失败", "error");
    toast("已取消收藏", "success");
    setRows((list) => list.filter((x) => x.id !== row.id));
    setTotal((n) => n - 1);
  };

  const tabs = (
    <nav className="fav-tabs" aria-label="收藏类型">
      {KINDS.map((t) => (
        <a key={t} href={KIND[t].first} className={t === kind ? "active" : undefined} aria-current={t === kind ? "page" : undefined}>
          {KIND[t].noun}<span className="fav-tab-count">{t === kind ? total : otherTotal}</span>
        </a>
      ))}
    </nav>
  );

  if (!rows.length) {
    return (
      <>
        {tabs}
        <div className="empty-state">
          <p className="empty-title">{total > 0 ? "这一页已经没有收藏了" : `还没有收藏${k.noun}`}</p>
          <p className="muted">{k.tip}</p>
          <a className="btn btn-primary btn-sm" href={total > 0 ? k.first : k.home}>{total > 0 ? "返回第一页" : k.explore}</a>
        </div>
      </>
    );
  }
  const pages = Math.max(1, Math.ceil(total / size));
  return (
    <div className="fav-list">
      {tabs}
      <ul>
        {rows.map((r) => (
          <li key={r.id} className="fav-item">
            <span className="fav-ext">{r.badge}</span>
            <div className="fav-body">
              {r.visible ? <a className="fav-title" href={r.href}>{r.title}</a> : <span className="fav-title muted">{`${r.title}（${k.noun}已失效）`}</span>}
              <span className="fav-meta muted">{r.meta}</span>
            </div>
            <button type="button" className="btn btn-sm" disabled={busy === r.id} onClick={() => void remove(r)}>取消收藏</button>
          </li>
        ))}
      </ul>
      {pages > 1 ? (
        <nav className="pager" aria-label="分页">
          {page > 1 ? <a className="btn btn-sm" href={k.pageHref(page - 1)}>上一页</a> : null}
          <span className="muted">{`第 ${page} / ${pages} 页，共 ${total} 条`}</span>
          {page < pages ? <a className="btn btn-sm" href={k.pageHref(page + 1)}>下一页</a> : null}
        </nav>
      ) : <p className="muted fav-total">{`共 ${total} 条收藏`}</p>}
    </div>
  );
}
