import { useState } from "react";
import type { CommentSort } from "#src/features/comments/status.ts";
import { useHydrated } from "../admin/useHydrated.ts";
import { api } from "../api.ts";
import { toast } from "../toast.ts";
import { CommentForm, type FormContext } from "./CommentForm.tsx";
import { CommentThread, type Item } from "./CommentItem.tsx";

export interface CommentsProps {
  target: { document_id?: number; article_id?: number };
  /** the page's path: the sort links and 登录 lead back to it */
  path: string;
  /** shown comments of the item, replies included */
  count: number;
  initial: { total: number; comment: Item[] };
  sort: CommentSort;
  pageSize: number;
  viewer: { id: number; moderator: boolean } | null;
  settings: FormContext["settings"];
}

const SORTS: { value: CommentSort; label: string }[] = [{ value: "new", label: "最新" }, { value: "hot", label: "最热" }];

/**
 * Comments under a document or an article: the form, newest or hottest threads with their
 * replies, 加载更多. The sort switch is a plain link before hydration; after it, it reloads in place.
 */
export default function Comments(p: CommentsProps) {
  const ready = useHydrated();
  const [items, setItems] = useState(p.initial.comment);
  const [total, setTotal] = useState(p.initial.total);
  const [count, setCount] = useState(p.count);
  const [sort, setSort] = useState(p.sort);
  const [page, setPage] = useState(1);
  const [busy, setBusy] = useState(false);
  const loginHref = `/login?redirect=${encodeURIComponent(`${p.path}#comments`)}`;
  const ctx: FormContext = { target: p.target, viewer: p.viewer, settings: p.settings, loginHref, ready };

  const load = async (next: CommentSort, nextPage: number) => {
    setBusy(true);
    const r = await api<{ total: number; comment: Item[] }>("GET", "/comment/list", { query: { ...p.target, sort: next, page: nextPage, size: p.pageSize } });
    setBusy(false);
    if (!r.ok || !r.data) return toast(r.message || "加载评论失败", "error");
    const got = r.data.comment;
    setItems((old) => (nextPage === 1 ? got : [...old, ...got.filter((c) => !old.some((o) => o.id === c.id))]));
    setTotal(r.data.total);
    setSort(next);
    setPage(nextPage);
  };
  const switchSort = (e: React.MouseEvent, next: CommentSort) => {
    e.preventDefault();
    if (next === sort || busy) return;
    history.replaceState(history.state, "", `${p.path}${next === "hot" ? "?comment_sort=hot" : ""}#comments`);
    void load(next, 1);
  };
  const posted = (c: Item) => {
    setItems((old) => [{ ...c, replies: [], reply_total: 0 }, ...old]);
    setTotal((n) => n + 1);
    if (c.status === 0) setCount((n) => n + 1);
  };
  // A deleted top comment takes its replies with it; the shown count drops by what was shown.
  const deleted = (c: Item) => {
    if (!c.parent_id) {
      setItems((old) => old.filter((o) => o.id !== c.id));
      setTotal((n) => Math.max(0, n - 1));
    }
    if (c.status === 0) setCount((n) => Math.max(0, n - 1 - (c.parent_id ? 0 : (c.reply_total ?? 0))));
  };

  return (
    <div className="cmt">
      <div className="cmt-head">
        <h2 className="card-title" id="comments-title">{`评论 ${count}`}</h2>
        <nav className="cmt-sorts" aria-label="评论排序">
          {SORTS.map((s) => (
            <a key={s.value} href={`${p.path}${s.value === "hot" ? "?comment_sort=hot" : ""}#comments`} aria-current={sort === s.value ? "true" : undefined}
              className={sort === s.value ? "cmt-sort active" : "cmt-sort"} onClick={(e) => ready && switchSort(e, s.value)}>{s.label}</a>
          ))}
        </nav>
      </div>
      {!p.settings.enable ? <p className="cmt-note muted">评论功能已关闭</p>
        : p.viewer ? <CommentForm ctx={ctx} placeholder="写下你的评论，友善发言" onPosted={posted} />
        : <p className="cmt-note"><a className="btn btn-primary btn-sm" href={loginHref}>登录</a><span className="muted">登录后参与评论</span></p>}
      {items.length ? (
        <ul className="cmt-list">
          {items.map((c) => <CommentThread key={c.id} item={c} ctx={ctx} onDeleted={deleted} />)}
        </ul>
      ) : p.settings.enable ? <p className="cmt-empty muted">还没有评论，来说两句吧</p> : null}
      {items.length < total ? (
        <button type="button" className="btn btn-block cmt-load" disabled={!ready || busy} onClick={() => void load(sort, page + 1)}>{busy ? "加载中…" : "加载更多评论"}</button>
      ) : null}
    </div>
  );
}
