import { useCallback, useState } from "react";
import { api } from "../api.ts";
import { Pager, Toolbar, type FilterDef } from "../admin/AdminCells.tsx";
import { AdminDateRange } from "../admin/AdminDateRange.tsx";
import { EditorForm } from "../admin/AdminEditor.tsx";
import { Modal, type FieldDef } from "../admin/AdminKit.tsx";
import { useHydrated, useReloadOnChange } from "../admin/useHydrated.ts";
import { toast } from "../toast.ts";
import { ArticleBatchBar, ArticleStatus, articleLink, day, type ArticleRowData } from "./AdminArticleParts.tsx";

export interface AdminArticleListProps {
  initial: { total: number; rows: ArticleRowData[] };
  pageSize: number;
  filters: FilterDef[];
  /** the quick editor's fields (category options filled by the server) */
  fields: FieldDef[];
}

/** /admin/article/list: filter, search, review (reject with a reason), recommend, edit and delete into the recycle bin. */
export default function AdminArticleList(p: AdminArticleListProps) {
  const [rows, setRows] = useState(p.initial.rows);
  const [total, setTotal] = useState(p.initial.total);
  const [q, setQ] = useState({ page: 1, wd: "", filters: {} as Record<string, string>, user: null as { id: number; name: string } | null });
  const [picked, setPicked] = useState<number[]>([]);
  const [editing, setEditing] = useState<ArticleRowData | null>(null);
  const [deleting, setDeleting] = useState<number[] | null>(null);
  const ready = useHydrated();

  const load = useCallback(async () => {
    const query = { page: q.page, size: p.pageSize, wd: q.wd, user_id: q.user?.id, ...q.filters };
    const r = await api<{ total: number; article: ArticleRowData[] }>("GET", "/article/list", { query });
    if (!r.ok || !r.data) return toast(r.message || "加载失败", "error");
    setRows(r.data.article);
    setTotal(r.data.total);
    setPicked([]);
  }, [q, p.pageSize]);
  useReloadOnChange(load);

  const remove = async () => {
    const r = await api("DELETE", "/article", { body: { id: deleting } });
    setDeleting(null);
    if (!r.ok) return toast(r.message || "删除失败", "error");
    toast("已移入回收站", "success");
    void load();
  };
  const flip = (id: number) => setPicked(picked.includes(id) ? picked.filter((x) => x !== id) : [...picked, id]);
  const all = rows.length > 0 && picked.length === rows.length;
  // The quick editor works on the leaf category; the list row carries the root → leaf chain.
  const editRow = (r: ArticleRowData) => ({ ...r, category_id: Array.isArray(r.category_id) ? (r.category_id.at(-1) ?? 0) : r.category_id });

  return (
    <div className="adm-table-wrap">
      <div className="adm-toolbar">
        <Toolbar filters={p.filters} values={q.filters} keyword={{ name: "wd", placeholder: "搜索标题、关键词、摘要或标识" }} ready={ready}
          onFilter={(name, v) => setQ({ ...q, page: 1, filters: { ...q.filters, [name]: v } })} onSearch={(wd) => setQ({ ...q, page: 1, wd })} />
        <AdminDateRange label="发布时间" disabled={!ready} value={{ start: q.filters.start ?? "", end: q.filters.end ?? "" }} onChange={(v) => setQ({ ...q, page: 1, filters: { ...q.filters, ...v } })} />
        {q.user ? <button type="button" className="adm-btn adm-btn-sm" title="取消按作者筛选" onClick={() => setQ({ ...q, page: 1, user: null })}>{`作者：${q.user.name} ×`}</button> : null}
      </div>
      <ArticleBatchBar picked={picked} ready={ready} onDone={() => void load()} onDelete={() => setDeleting(picked)} />
      <div className="adm-scroll">
        <table className="adm-table">
          <thead>
            <tr>
              <th className="adm-check"><input type="checkbox" aria-label="全选" checked={all} onChange={() => setPicked(all ? [] : rows.map((r) => r.id))} /></th>
              <th style={{ width: 60 }}>ID</th><th>标题</th><th>作者</th><th>分类</th><th>状态</th><th>阅读 / 评论 / 收藏</th><th>发布时间</th>
              <th className="adm-actions-col">操作</th>
            </tr>
          </thead>
          <tbody>
            {rows.length ? rows.map((r) => (
              <tr key={r.id}>
                <td className="adm-check"><input type="checkbox" aria-label={`选择 ${r.title}`} checked={picked.includes(r.id)} onChange={() => flip(r.id)} /></td>
                <td>{r.id}</td>
                <td>{articleLink(r)}{r.is_recommend ? <span className="adm-tag adm-tag-ok adm-doc-rec">推荐</span> : null}</td>
                <td><button type="button" className="adm-link" title="只看此作者的文章" disabled={!ready} onClick={() => setQ({ ...q, page: 1, user: { id: r.user_id, name: r.username } })}>{r.username || `#${r.user_id}`}</button></td>
                <td className="adm-nowrap">{r.category_title || <span className="adm-muted">—</span>}</td>
                <td><ArticleStatus row={r} />{r.status === 2 && r.reject_reason ? <div className="adm-muted adm-ellipsis" title={r.reject_reason}>{r.reject_reason}</div> : null}</td>
                <td className="adm-nowrap">{`${r.view_count} / ${r.comment_count} / ${r.favorite_count}`}</td>
                <td>{day(r.created_at)}</td>
                <td className="adm-actions-col">
                  <button type="button" className="adm-link" disabled={!ready} onClick={() => setEditing(editRow(r))}>编辑</button>
                  <a className="adm-link" href={`/post?id=${r.id}`} target="_blank" rel="noopener noreferrer">改正文</a>
                  <button type="button" className="adm-link adm-danger" disabled={!ready} onClick={() => setDeleting([r.id])}>删除</button>
                </td>
              </tr>
            )) : <tr><td colSpan={9} className="adm-empty">暂无文章</td></tr>}
          </tbody>
        </table>
      </div>
      <Pager page={q.page} size={p.pageSize} total={total} onPage={(page) => setQ({ ...q, page })} />
      <Modal open={!!editing} title="编辑文章" onClose={() => setEditing(null)}>
        {editing ? <EditorForm entity="article" fields={p.fields} row={editing} defaults={{}} onCancel={() => setEditing(null)} onSaved={() => (setEditing(null), void load())} /> : null}
      </Modal>
      <Modal open={!!deleting} title="确认删除" width={420} onClose={() => setDeleting(null)}>
        <p>{deleting?.length === 1 ? "确定删除这篇文章吗？" : `确定删除选中的 ${deleting?.length} 篇文章吗？`}删除后文章进入回收站，可以在回收站恢复。</p>
        <div className="adm-form-actions"><button type="button" className="adm-btn" onClick={() => setDeleting(null)}>取消</button><button type="button" className="adm-btn adm-btn-danger" onClick={() => void remove()}>确定删除</button></div>
      </Modal>
    </div>
  );
}
