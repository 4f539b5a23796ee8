import { useState } from "react";
import { formatBytes, formatDateTime } from "#src/lib/format.ts";
import { api } from "../api.ts";
import { toast } from "../toast.ts";

export interface FavoriteRow {
  id: number; document_id: number; created_at: number; uuid: string; title: string; ext: string;
  size: number; pages: number; score: number; favorite_count: number; view_count: number; visible: boolean;
}

export interface ReaderFavoriteListProps { rows: FavoriteRow[]; total: number; page: number; size: number }

/** /me/favorite: my favourites with 取消收藏; pages are plain links (?page=N). */
export default function ReaderFavoriteList({ rows: initial, total: initialTotal, page, size }: ReaderFavoriteListProps) {
  const [rows, setRows] = useState(initial);
  const [total, setTotal] = useState(initialTotal);
  const [busy, setBusy] = useState(0);

  const remove = async (row: FavoriteRow) => {
    setBusy(row.id);
    const r = await api("DELETE", "/favorite", { body: { id: row.id } });
    setBusy(0);
    if (!r.ok) return toast(r.message || "取消收藏失败", "error");
    toast("已取消收藏", "success");
    setRows((list) => list.filter((x) => x.id !== row.id));
    setTotal((n) => n - 1);
  };

  if (!rows.length) {
    return (
      <div className="empty-state">
        <p className="empty-title">{total > 0 ? "这一页已经没有收藏了" : "还没有收藏"}</p>
        <p className="muted">阅读文档时点击「收藏」，就能在这里快速找到它。</p>
        <a className="btn btn-primary btn-sm" href={total > 0 ? "/me/favorite" : "/"}>{total > 0 ? "返回第一页" : "去发现文档"}</a>
      </div>
    );
  }
  const pages = Math.max(1, Math.ceil(total / size));
  return (
    <div className="fav-list">
      <ul>
        {rows.map((r) => (
          <li key={r.id} className="fav-item">
            <span className="fav-ext">{r.ext.replace(/^\./, "").toUpperCase()}</span>
            <div className="fav-body">
              {r.visible ? <a className="fav-title" href={`/document/${r.uuid}`}>{r.title}</a> : <span className="fav-title muted">{r.title}（文档已失效）</span>}
              <span className="fav-meta muted">{`${r.pages} 页 · ${formatBytes(r.size)} · ${r.view_count} 浏览 · 收藏于 ${formatDateTime(r.created_at)}`}</span>
            </div>
            <button type="button" className="btn btn-sm" disabled={busy === r.id} onClick={() => void remove(r)}>取消收藏</button>
          </li>
        ))}
      </ul>
      {pages > 1 ? (
        <nav className="pager" aria-label="分页">
          {page > 1 ? <a className="btn btn-sm" href={`?page=${page - 1}`}>上一页</a> : null}
          <span className="muted">{`第 ${page} / ${pages} 页，共 ${total} 条`}</span>
          {page < pages ? <a className="btn btn-sm" href={`?page=${page + 1}`}>下一页</a> : null}
        </nav>
      ) : <p className="muted fav-total">{`共 ${total} 条收藏`}</p>}
    </div>
  );
}
