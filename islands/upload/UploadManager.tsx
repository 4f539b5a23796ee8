import { useCallback, useEffect, useState } from "react";
import { formatBytes, formatDate } from "#src/lib/format.ts";
import { api } from "../api.ts";
import { toast } from "../toast.ts";
import { UploadEditDialog, type MyDoc } from "./UploadEditDialog.tsx";
import type { CategoryOpt, Lang } from "./UploadItem.tsx";

export interface UploadManagerProps {
  userId: number;
  initial: { total: number; rows: MyDoc[] };
  pageSize: number;
  categories: CategoryOpt[];
  languages: Lang[];
  creditName: string;
}

const TONE: Record<number, string> = { 2: "ok", 3: "bad", 4: "bad", 6: "warn", 7: "bad" };

/** /me/document: my uploads in every status, with edit and delete (into the recycle bin). */
export default function UploadManager(p: UploadManagerProps) {
  const [rows, setRows] = useState(p.initial.rows);
  const [total, setTotal] = useState(p.initial.total);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<MyDoc | null>(null);
  const [deleting, setDeleting] = useState<MyDoc | null>(null);
  const [ready, setReady] = useState(false);

  const load = useCallback(async () => {
    const r = await api<{ total: number; document: MyDoc[] }>("GET", "/document/list", { query: { user_id: p.userId, page, size: p.pageSize } });
    if (!r.ok || !r.data) return toast(r.message || "加载失败", "error");
    setRows(r.data.document);
    setTotal(r.data.total);
  }, [page, p.userId, p.pageSize]);
  useEffect(() => {
    if (ready) void load();
    else setReady(true);
  }, [load]);

  const remove = async () => {
    const r = await api("DELETE", "/document", { query: { id: deleting!.id } });
    setDeleting(null);
    if (!r.ok) return toast(r.message || "删除失败", "error");
    toast("已删除", "success");
    if (rows.length === 1 && page > 1) setPage(page - 1);
    else void load();
  };
  const pages = Math.max(1, Math.ceil(total / p.pageSize));

  if (!rows.length && page === 1) {
    return (
      <div className="empty-state">
        <p className="empty-title">还没有上传过文档</p>
        <p className="muted">上传的文档转换完成（需要审核的在审核通过）后，会对外展示，供他人阅读与下载。</p>
        <a className="btn btn-primary btn-sm" href="/upload">上传文档</a>
      </div>
    );
  }
  return (
    <>
      <ul className="my-docs">
        {rows.map((d) => (
          <li key={d.id}>
            <div className="my-doc-main">
              <span className="up-ext">{d.ext.toUpperCase()}</span>
              {d.status === 2 ? <a className="my-doc-title" href={`/document/${d.uuid}`} title={d.title}>{d.title}</a> : <span className="my-doc-title" title={d.title}>{d.title}</span>}
              <span className={`my-doc-status ${TONE[d.status] ?? ""}`} title={d.convert_error || undefined}>{d.status_label}</span>
            </div>
            <p className="my-doc-meta muted">
              <span>{d.category_title || "未分类"}</span>
              {d.pages ? <span>{`${d.pages} 页`}</span> : null}
              <span>{formatBytes(d.size)}</span>
              <span>{d.price ? `${d.price} ${p.creditName}` : "免费"}</span>
              <span>{`${d.view_count} 浏览 · ${d.download_count} 下载`}</span>
              <span>{formatDate(d.created_at)}</span>
            </p>
            <div className="my-doc-actions">
              <button type="button" className="btn btn-sm" disabled={!ready} onClick={() => setEditing(d)}>编辑</button>
              <button type="button" className="btn btn-sm my-doc-delete" disabled={!ready} onClick={() => setDeleting(d)}>删除</button>
            </div>
          </li>
        ))}
      </ul>
      {pages > 1 ? (
        <nav className="pager" aria-label="分页">
          <button type="button" className="btn btn-sm" disabled={!ready || page <= 1} onClick={() => setPage(page - 1)}>上一页</button>
          <span className="muted">{page} / {pages}</span>
          <button type="button" className="btn btn-sm" disabled={!ready || page >= pages} onClick={() => setPage(page + 1)}>下一页</button>
        </nav>
      ) : null}
      {editing ? <UploadEditDialog doc={editing} categories={p.categories} languages={p.languages} creditName={p.creditName} onClose={() => setEditing(null)} onSaved={() => (setEditing(null), void load())} /> : null}
      {deleting ? (
        <div className="up-overlay" onMouseDown={(e) => e.target === e.currentTarget && setDeleting(null)}>
          <section className="up-dialog up-dialog-sm" role="dialog" aria-modal="true" aria-label="删除文档">
            <header><h2>删除文档</h2></header>
            <p>{`确定删除《${deleting.title}》吗？删除后对外不再展示。`}</p>
            <div className="up-dialog-actions">
              <button type="button" className="btn" onClick={() => setDeleting(null)}>取消</button>
              <button type="button" className="btn btn-primary my-doc-delete-confirm" onClick={() => void remove()}>确定删除</button>
            </div>
          </section>
        </div>
      ) : null}
    </>
  );
}
