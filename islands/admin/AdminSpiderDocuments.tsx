import { useCallback, useState } from "react";
import { formatBytes, formatDateTime } from "#src/lib/format.ts";
import { api } from "../api.ts";
import { toast } from "../toast.ts";
import { Pager, Toolbar } from "./AdminCells.tsx";
import { Modal, type Opt } from "./AdminKit.tsx";
import { useHydrated, useReloadOnChange } from "./useHydrated.ts";

type DocRow = {
  id: number; url: string; title: string; status: number; status_label: string; message: string; ext: string; size: number; duplicate: boolean;
  document_id: number; document_uuid: string; document_title: string; created_at: number;
};

export interface AdminSpiderDocumentsProps {
  initial: { total: number; rows: DocRow[] };
  pageSize: number;
  statuses: Opt[];
  /** only the documents of this spider URL (0: all) */
  spiderUrlId: number;
}

const TONE: Record<number, string> = { 1: "adm-tag adm-tag-warn", 2: "adm-tag adm-tag-warn", 3: "adm-tag adm-tag-ok", 4: "adm-tag adm-tag-bad", 5: "adm-tag adm-tag-warn", 6: "adm-tag adm-tag-warn", 7: "adm-tag adm-tag-ok", 8: "adm-tag adm-tag-bad" };
// Messages wrap instead of widening the table past the screen.
const WRAP = { whiteSpace: "normal", minWidth: 160, maxWidth: 320 } as const;
const ACTIONS = [
  { label: "发布", method: "PUT", path: "/spider/document/publish" },
  { label: "重试", method: "PUT", path: "/spider/document/retry" },
] as const;

/** /admin/spider/document: what the spider found, downloaded and published; bulk publish, retry and delete. */
export default function AdminSpiderDocuments(p: AdminSpiderDocumentsProps) {
  const [rows, setRows] = useState(p.initial.rows);
  const [total, setTotal] = useState(p.initial.total);
  const [q, setQ] = useState({ page: 1, wd: "", filters: {} as Record<string, string> });
  const [picked, setPicked] = useState<number[]>([]);
  const [deleting, setDeleting] = useState<number[] | null>(null);
  const ready = useHydrated();

  const load = useCallback(async () => {
    const query = { page: q.page, size: p.pageSize, wd: q.wd, spider_url_id: p.spiderUrlId || undefined, ...q.filters };
    const r = await api<{ total: number; spider_document: DocRow[] }>("GET", "/spider/document/list", { query });
    if (!r.ok || !r.data) return toast(r.message || "加载失败", "error");
    setRows(r.data.spider_document);
    setTotal(r.data.total);
    setPicked([]);
  }, [q, p.pageSize, p.spiderUrlId]);
  useReloadOnChange(load);

  const run = async (method: "PUT" | "DELETE", path: string, ids: number[]) => {
    const r = method === "PUT" ? await api<{ message: string }>("PUT", path, { body: { id: ids } }) : await api<{ message: string }>("DELETE", path, { query: { id: ids } });
    if (!r.ok) return toast(r.message || "操作失败", "error");
    toast(r.data?.message || "操作成功", "success");
    void load();
  };
  const flip = (id: number) => setPicked(picked.includes(id) ? picked.filter((x) => x !== id) : [...picked, id]);
  const all = rows.length > 0 && picked.length === rows.length;

  return (
    <div className="adm-table-wrap">
      <div className="adm-toolbar">
        <Toolbar filters={[{ name: "status", label: "状态", options: p.statuses }]} values={q.filters} keyword={{ name: "wd", placeholder: "搜索标题或网址" }} ready={ready}
          onFilter={(name, v) => setQ({ ...q, page: 1, filters: { ...q.filters, [name]: v } })} onSearch={(wd) => setQ({ ...q, page: 1, wd })} />
        {p.spiderUrlId ? <a className="adm-btn adm-btn-sm" href="/admin/spider/document" title="显示全部采集文档">{`采集网址 #${p.spiderUrlId} ×`}</a> : null}
        <button type="button" className="adm-btn" disabled={!ready} onClick={() => void load()}>刷新</button>
      </div>
      <div className="adm-toolbar" role="group" aria-label="批量操作">
        <span className="adm-muted">{picked.length ? `已选 ${picked.length} 个` : "勾选文档后可批量操作"}</span>
        {ACTIONS.map((a) => <button key={a.label} type="button" className="adm-btn adm-btn-sm" disabled={!ready || !picked.length} onClick={() => void run(a.method, a.path, picked)}>{a.label}</button>)}
        <button type="button" className="adm-btn adm-btn-sm adm-btn-danger" disabled={!ready || !picked.length} onClick={() => setDeleting(picked)}>删除</button>
      </div>
      <div className="adm-scroll">
        <table className="adm-table">
          <thead>
            <tr>
              <th className="adm-check"><input type="checkbox" aria-label="全选" checked={all} onChange={() => setPicked(all ? [] : rows.map((r) => r.id))} /></th>
              <th style={{ width: 60 }}>ID</th><th>标题</th><th>文件</th><th>状态</th><th>说明</th><th>发现时间</th>
            </tr>
          </thead>
          <tbody>
            {rows.length ? rows.map((r) => (
              <tr key={r.id}>
                <td className="adm-check"><input type="checkbox" aria-label={`选择 ${r.title}`} checked={picked.includes(r.id)} onChange={() => flip(r.id)} /></td>
                <td>{r.id}</td>
                <td><span className="adm-ellipsis" title={r.title}>{r.title}</span><br /><a className="adm-ellipsis adm-muted" href={r.url} target="_blank" rel="noopener noreferrer nofollow" title={r.url}>{r.url}</a></td>
                <td className="adm-nowrap">{r.ext ? `${r.ext.toUpperCase()} · ${formatBytes(r.size)}` : "—"}</td>
                <td className="adm-nowrap"><span className={TONE[r.status] ?? "adm-tag"}>{r.status_label}</span>{r.duplicate ? <span className="adm-tag adm-tag-warn">重复</span> : null}</td>
                <td style={WRAP}>{r.message || "—"}{r.document_uuid ? <><br /><a href={`/document/${r.document_uuid}`} target="_blank" rel="noopener noreferrer">{`查看文档《${r.document_title}》`}</a></> : null}</td>
                <td className="adm-nowrap">{formatDateTime(r.created_at)}</td>
              </tr>
            )) : <tr><td colSpan={7} className="adm-empty">暂无采集文档</td></tr>}
          </tbody>
        </table>
      </div>
      <Pager page={q.page} size={p.pageSize} total={total} onPage={(page) => setQ({ ...q, page })} />
      <Modal open={!!deleting} title="确认删除" width={420} onClose={() => setDeleting(null)}>
        <p>{`确定删除选中的 ${deleting?.length ?? 0} 个采集文档吗？下载的文件在没有其他用途时一并删除；已发布的文档留在文库中。`}</p>
        <div className="adm-form-actions">
          <button type="button" className="adm-btn" onClick={() => setDeleting(null)}>取消</button>
          <button type="button" className="adm-btn adm-btn-danger" onClick={() => (setDeleting(null), void run("DELETE", "/spider/document", deleting!))}>确定删除</button>
        </div>
      </Modal>
    </div>
  );
}
