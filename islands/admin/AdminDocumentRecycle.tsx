import { useCallback, useState } from "react";
import { useHydrated, useReloadOnChange } from "./useHydrated.ts";
import { api } from "../api.ts";
import { Pager, Toolbar } from "./AdminCells.tsx";
import { Modal } from "./AdminKit.tsx";
import { batch, docLink, size, StatusTag, when, type DocRow } from "./AdminDocumentParts.tsx";
import { toast } from "../toast.ts";

export interface AdminDocumentRecycleProps { initial: { total: number; rows: DocRow[] }; pageSize: number }

/** /admin/document/recycle: restore, or delete for good (files go when no other document uses them). */
export default function AdminDocumentRecycle(p: AdminDocumentRecycleProps) {
  const [rows, setRows] = useState(p.initial.rows);
  const [total, setTotal] = useState(p.initial.total);
  const [q, setQ] = useState({ page: 1, wd: "" });
  const [picked, setPicked] = useState<number[]>([]);
  const [purging, setPurging] = useState<number[] | null>(null);
  const [ban, setBan] = useState(false);
  const ready = useHydrated();

  const load = useCallback(async () => {
    const r = await api<{ total: number; document: DocRow[] }>("GET", "/document/recycle/list", { query: { page: q.page, size: p.pageSize, wd: q.wd } });
    if (!r.ok || !r.data) return toast(r.message || "加载失败", "error");
    setRows(r.data.document);
    setTotal(r.data.total);
    setPicked([]);
  }, [q, p.pageSize]);
  useReloadOnChange(load);

  const restore = async (ids: number[]) => (await batch("/document/recycle/restore", { id: ids }, "恢复成功")) && void load();
  const purge = async () => {
    const r = await api<{ removedFiles: number }>("DELETE", "/document/recycle", { body: { id: purging, ban_hash: ban } });
    setPurging(null);
    setBan(false);
    if (!r.ok) return toast(r.message || "删除失败", "error");
    toast(`已彻底删除${r.data?.removedFiles ? `，清理文件 ${r.data.removedFiles} 份` : ""}`, "success");
    void load();
  };
  const flip = (id: number) => setPicked(picked.includes(id) ? picked.filter((x) => x !== id) : [...picked, id]);
  const all = rows.length > 0 && picked.length === rows.length;

  return (
    <div className="adm-table-wrap">
      <div className="adm-toolbar">
        <Toolbar filters={[]} values={{}} keyword={{ name: "wd", placeholder: "搜索标题、关键词或 UUID" }} ready={ready} onFilter={() => {}} onSearch={(wd) => setQ({ page: 1, wd })} />
        <span className="adm-spacer" />
        <button type="button" className="adm-btn" disabled={!ready || !picked.length} onClick={() => void restore(picked)}>批量恢复</button>
        <button type="button" className="adm-btn adm-btn-danger" disabled={!ready || !picked.length} onClick={() => setPurging(picked)}>彻底删除</button>
      </div>
      <div className="adm-scroll">
        <table className="adm-table">
          <thead>
            <tr>
              <th className="adm-check"><input type="checkbox" aria-label="全选" checked={all} onChange={() => setPicked(all ? [] : rows.map((r) => r.id))} /></th>
              <th style={{ width: 60 }}>ID</th><th>标题</th><th>上传者</th><th>类型</th><th>大小</th><th>状态</th><th>删除人</th><th>删除时间</th>
              <th className="adm-actions-col">操作</th>
            </tr>
          </thead>
          <tbody>
            {rows.length ? rows.map((r) => (
              <tr key={r.id}>
                <td className="adm-check"><input type="checkbox" aria-label={`选择 ${r.title}`} checked={picked.includes(r.id)} onChange={() => flip(r.id)} /></td>
                <td>{r.id}</td>
                <td>{docLink(r)}</td>
                <td>{r.username}</td>
                <td className="adm-nowrap">{r.ext.toUpperCase()}</td>
                <td>{size(r)}</td>
                <td><StatusTag row={r} /></td>
                <td>{r.deleted_username || <span className="adm-muted">—</span>}</td>
                <td>{when(r.deleted_at)}</td>
                <td className="adm-actions-col">
                  <button type="button" className="adm-link" disabled={!ready} onClick={() => void restore([r.id])}>恢复</button>
                  <button type="button" className="adm-link adm-danger" disabled={!ready} onClick={() => setPurging([r.id])}>彻底删除</button>
                </td>
              </tr>
            )) : <tr><td colSpan={10} className="adm-empty">回收站是空的</td></tr>}
          </tbody>
        </table>
      </div>
      <Pager page={q.page} size={p.pageSize} total={total} onPage={(page) => setQ({ ...q, page })} />
      <Modal open={!!purging} title="彻底删除" width={460} onClose={() => setPurging(null)}>
        <p>{`确定彻底删除选中的 ${purging?.length ?? 0} 篇文档吗？此操作不可恢复；没有其他文档使用的原文件和转换结果也会一并删除。`}</p>
        <label className="adm-check-opt adm-doc-ban">
          <input type="checkbox" checked={ban} onChange={(e) => setBan(e.target.checked)} />
          <span>同时禁止再次上传相同文件（按文件 MD5 拦截）</span>
        </label>
        <div className="adm-form-actions"><button type="button" className="adm-btn" onClick={() => setPurging(null)}>取消</button><button type="button" className="adm-btn adm-btn-danger" onClick={() => void purge()}>彻底删除</button></div>
      </Modal>
    </div>
  );
}
