import { useEffect, useState } from "react";
import { formatDateTime } from "#src/lib/format.ts";
import { api } from "../api.ts";
import { toast } from "../toast.ts";

export interface MyArticle {
  id: number; identifier: string; title: string; status: number; status_label: string; reject_reason?: string;
  category_title: string; view_count: number; comment_count: number; favorite_count: number; created_at: number; updated_at: number;
}

export interface MyArticleListProps { userId: number; pageSize: number; initial: { total: number; rows: MyArticle[] } }

const FILTERS = [{ value: "", label: "全部" }, { value: "1", label: "已发布" }, { value: "0", label: "待审核" }, { value: "2", label: "未通过" }];

/** /me/article: the user's articles in every status, with edit links and delete (into the recycle bin). */
export default function MyArticleList(p: MyArticleListProps) {
  const [rows, setRows] = useState(p.initial.rows);
  const [total, setTotal] = useState(p.initial.total);
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState("");
  const [ready, setReady] = useState(false);
  const [first, setFirst] = useState(true);
  useEffect(() => setReady(true), []);

  const load = async (pg: number, st: string) => {
    const r = await api<{ total: number; article: MyArticle[] }>("GET", "/article/list", { query: { user_id: p.userId, page: pg, size: p.pageSize, status: st } });
    if (!r.ok || !r.data) return toast(r.message || "加载失败", "error");
    setRows(r.data.article);
    setTotal(r.data.total);
  };
  useEffect(() => {
    if (first) return setFirst(false);
    void load(page, status);
  }, [page, status]);

  const remove = async (a: MyArticle) => {
    if (!confirm(`确定删除《${a.title}》吗？`)) return;
    const r = await api("DELETE", "/article", { body: { id: [a.id] } });
    if (!r.ok) return toast(r.message || "删除失败", "error");
    toast("已删除", "success");
    void load(page, status);
  };

  const pages = Math.max(1, Math.ceil(total / p.pageSize));
  return (
    <div className="my-articles">
      <div className="my-art-head">
        <nav className="cat-sorts" aria-label="按状态筛选">
          {FILTERS.map((f) => (
            <button key={f.value} type="button" className={f.value === status ? "active" : undefined} aria-pressed={f.value === status} disabled={!ready} onClick={() => (setStatus(f.value), setPage(1))}>{f.label}</button>
          ))}
        </nav>
        <a className="btn btn-primary btn-sm" href="/post">发布文章</a>
      </div>
      {rows.length ? (
        <ul className="my-art-list">
          {rows.map((a) => (
            <li key={a.id} className="my-art">
              <div className="my-art-body">
                <p className="my-art-title"><span className={`art-status art-status-${a.status}`}>{a.status_label}</span><a href={`/article/${a.identifier}`}>{a.title}</a></p>
                {a.status === 2 && a.reject_reason ? <p className="my-art-reason">{`未通过原因：${a.reject_reason}`}</p> : null}
                <p className="muted my-art-meta">
                  <span>{formatDateTime(a.created_at)}</span>
                  {a.category_title ? <span>{a.category_title}</span> : null}
                  <span>{`${a.view_count} 阅读`}</span><span>{`${a.comment_count} 评论`}</span><span>{`${a.favorite_count} 收藏`}</span>
                </p>
              </div>
              <div className="my-art-ops">
                <a className="btn btn-sm" href={`/post?id=${a.id}`}>编辑</a>
                <button type="button" className="btn btn-sm btn-text" disabled={!ready} onClick={() => void remove(a)}>删除</button>
              </div>
            </li>
          ))}
        </ul>
      ) : <p className="muted my-art-empty">{status ? "没有这个状态的文章" : "还没有发布过文章"}</p>}
      {pages > 1 ? (
        <nav className="pager" aria-label="分页">
          <button type="button" className="btn btn-sm" disabled={!ready || page <= 1} onClick={() => setPage(page - 1)}>上一页</button>
          <span className="muted">{page} / {pages}</span>
          <button type="button" className="btn btn-sm" disabled={!ready || page >= pages} onClick={() => setPage(page + 1)}>下一页</button>
        </nav>
      ) : null}
    </div>
  );
}
