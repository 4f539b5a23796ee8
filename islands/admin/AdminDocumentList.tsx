import { useCallback, useState } from "react";
import { useHydrated, useReloadOnChange } from "./useHydrated.ts";
import { api } from "../api.ts";
import { Pager, Toolbar, type FilterDef } from "./AdminCells.tsx";
import { AdminDateRange } from "./AdminDateRange.tsx";
import { EditorForm } from "./AdminEditor.tsx";
import { Modal, type FieldDef } from "./AdminKit.tsx";
import { BatchBar, day, docLink, size, StatusTag, type DocRow } from "./AdminDocumentParts.tsx";
import { toast } from "../toast.ts";

export interface AdminDocumentListProps {
  initial: { total: number; rows: DocRow[] };
  pageSize: number;
  filters: FilterDef[];
  /** the editor's fields (category and language options filled by the server) */
  fields: FieldDef[];
  creditName: string;
}

/** /admin/document/list: filter, search, edit, review, recommend, reconvert and delete into the recycle bin. */
export default function AdminDocumentList(p: AdminDocumentListProps) {
  const [rows, setRows] = useState(p.initial.rows);
  const [total, setTotal] = useState(p.initial.total);
  const [q, setQ] = useState({ page: 1, wd: "", filters: {} as Record<string, string>, user: null as { id: number; name: string } | null });
  const [picked, setPicked] = useState<number[]>([]);
  const [editing, setEditing] = useState<DocRow | null>(null);
  const [deleting, setDeleting] = useState<number[] | null>(null);
  const ready = useHydrated();

  const load = useCallback(async () => {
    const query = { page: q.page, size: p.pageSize, wd: q.wd, user_id: q.user?.id, ...q.filters };
    const r = await api<{ total: number; document: DocRow[] }>("GET", "/document/list", { query });
    if (!r.ok || !r.data) return toast(r.message || "加载失败", "error");
    setRows(r.data.document);
    setTotal(r.data.total);
    setPicked([]);
  }, [q, p.pageSize]);
  useReloadOnChange(load);

  const remove = async () => {
    const r = await api("DELETE", "/document", { query: { id: deleting! } });
    setDeleting(null);
    if (!r.ok) return toast(r.message || "删除失败", "error");
    toast("已移入回收站", "success");
    void load();
  };
  const flip = (id: number) => setPicked(picked.includes(id) ? picked.filter((x) => x !== id) : [...picked, id]);
  const all = rows.length > 0 && picked.length === rows.length;

  return (
    <div className="adm-table-wrap">
      <div className="adm-toolbar">
        <Toolbar filters={p.filters} values={q.filters} keyword={{ name: "wd", placeholder: "搜索标题、关键词或 UUID" }} ready={ready}
          onFilter={(name, v) => setQ({ ...q, page: 1, filters: { ...q.filters, [name]: v } })} onSearch={(wd) => setQ({ ...q, page: 1, wd })} />
        <AdminDateRange label="上传时间" disabled={!ready} value={{ start: q.filters.start ?? "", end: q.filters.end ?? "" }} onChange={(v) => setQ({ ...q, page: 1, filters: { ...q.filters, ...v } })} />
        {q.user ? <button type="button" className="adm-btn adm-btn-sm" title="取消按上传者筛选" onClick={() => setQ({ ...q, page: 1, user: null })}>{`上传者：${q.user.name} ×`}</button> : null}
      </div>
      <BatchBar picked={picked} ready={ready} onDone={() => void load()} onDelete={() => setDeleting(picked)} />
      <div className="adm-scroll">
        <table className="adm-table">
          <thead>
            <tr>
              <th className="adm-check"><input type="checkbox" aria-label="全选" checked={all} onChange={() => setPicked(all ? [] : rows.map((r) => r.id))} /></th>
              <th style={{ width: 60 }}>ID</th><th>标题</th><th>上传者</th><th>分类</th><th>文件</th><th>{`价格（${p.creditName}）`}</th><th>状态</th><th>上传时间</th>
              <th className="adm-actions-col">操作</th>
            </tr>
          </thead>
          <tbody>
            {rows.length ? rows.map((r) => (
              <tr key={r.id}>
                <td className="adm-check"><input type="checkbox" aria-label={`选择 ${r.title}`} checked={picked.includes(r.id)} onChange={() => flip(r.id)} /></td>
                <td>{r.id}</td>
                <td>{docLink(r)}{r.is_recommend ? <span className="adm-tag adm-tag-ok adm-doc-rec">推荐</span> : null}</td>
                <td><button type="button" className="adm-link" title="只看此用户的文档" disabled={!ready} onClick={() => setQ({ ...q, page: 1, user: { id: r.user_id, name: r.username } })}>{r.username || `#${r.user_id}`}</button></td>
                <td className="adm-nowrap">{r.category_title || <span className="adm-muted">—</span>}</td>
                <td className="adm-nowrap">{`${r.ext.toUpperCase()} · ${r.pages ? `${r.pages} 页` : "—"}`}<br /><span className="adm-muted">{size(r)}</span></td>
                <td>{r.price || "免费"}</td>
                <td><StatusTag row={r} /></td>
                <td>{day(r.created_at)}</td>
                <td className="adm-actions-col">
                  <button type="button" className="adm-link" disabled={!ready} onClick={() => setEditing(r)}>编辑</button>
                  <button type="button" className="adm-link adm-danger" disabled={!ready} onClick={() => setDeleting([r.id])}>删除</button>
                </td>
              </tr>
            )) : <tr><td colSpan={10} className="adm-empty">暂无文档</td></tr>}
          </tbody>
        </table>
      </div>
      <Pager page={q.page} size={p.pageSize} total={total} onPage={(page) => setQ({ ...q, page })} />
      <Modal open={!!editing} title="编辑文档" onClose={() => setEditing(null)}>
        {editing ? <EditorForm entity="document" fields={p.fields} row={editing} defaults={{}} onCancel={() => setEditing(null)} onSaved={() => (setEditing(null), void load())} /> : null}
      </Modal>
      <Modal open={!!deleting} title="确认删除" width={420} onClose={() => setDeleting(null)}>
        <p>{deleting?.length === 1 ? "确定删除这篇文档吗？" : `确定删除选中的 ${deleting?.length} 篇文档吗？`}删除后文档进入回收站，可以在回收站恢复。</p>
        <div className="adm-form-actions"><button type="button" className="adm-btn" onClick={() => setDeleting(null)}>取消</button><button type="button" className="adm-btn adm-btn-danger" onClick={() => void remove()}>确定删除</button></div>
      </Modal>
    </div>
  );
}
