import { useCallback, useEffect, useState } from "react";
import { formatBytes, formatDateTime } from "#src/lib/format.ts";
import { useHydrated } from "./useHydrated.ts";
import { Modal } from "./AdminKit.tsx";
import { api } from "../api.ts";
import { toast } from "../toast.ts";

export interface BackupRow { name: string; size: number; created_at: number; manifest: { version: string; took_ms: number; db: { size: number }; files: { count: number; bytes: number } } | null }
export interface BackupJob { id: number; status: string; error: string; updated_at: number }
interface ListAnswer { total: number; backup: BackupRow[]; job: BackupJob | null }

const JOB_LABEL: Record<string, string> = { queued: "排队中", running: "备份中", done: "已完成", failed: "失败" };

/** /admin/system/backup: take a backup now (a job), follow it, download or delete archives. */
export default function AdminBackups({ initial }: { initial: ListAnswer }) {
  const [data, setData] = useState(initial);
  const [deleting, setDeleting] = useState<BackupRow | null>(null);
  const ready = useHydrated();
  const active = data.job?.status === "queued" || data.job?.status === "running";
  const load = useCallback(async () => {
    const r = await api<ListAnswer>("GET", "/backup/list");
    if (r.ok && r.data) setData(r.data);
    else toast(r.message || "加载失败", "error");
  }, []);
  // While a backup job is pending the list is polled, so the new archive shows up by itself.
  useEffect(() => {
    if (!active) return;
    const t = setTimeout(() => void load(), 1500);
    return () => clearTimeout(t);
  }, [data, active, load]);

  const start = async () => {
    const r = await api<{ job: BackupJob }>("POST", "/backup");
    if (!r.ok) return toast(r.message || "操作失败", "error");
    toast("已开始备份，完成后会出现在列表中", "success");
    void load();
  };
  const remove = async () => {
    if (!deleting) return;
    const r = await api("DELETE", "/backup", { query: { name: deleting.name } });
    setDeleting(null);
    if (!r.ok) return toast(r.message || "删除失败", "error");
    toast("删除成功", "success");
    void load();
  };
  const job = data.job;
  return (
    <div className="adm-table-wrap">
      <div className="adm-toolbar">
        <span className="adm-muted" role="status">
          {`共 ${data.total} 份备份`}
          {job ? ` · 最近一次任务：${JOB_LABEL[job.status] ?? job.status}${job.status === "failed" && job.error ? `（${job.error}）` : ""}` : ""}
        </span>
        <span className="adm-spacer" />
        <button type="button" className="adm-btn" disabled={!ready} onClick={() => void load()}>刷新</button>
        <button type="button" className="adm-btn adm-btn-primary" disabled={!ready || active} onClick={() => void start()}>{active ? "备份中…" : "立即备份"}</button>
      </div>
      <div className="adm-scroll">
        <table className="adm-table">
          <thead>
            <tr><th>文件名</th><th>时间</th><th>大小</th><th>数据库</th><th>文件数</th><th>耗时</th><th className="adm-actions-col">操作</th></tr>
          </thead>
          <tbody>
            {data.backup.length ? data.backup.map((b) => (
              <tr key={b.name}>
                <td style={{ wordBreak: "break-all", minWidth: 140 }}><code>{b.name}</code></td>
                <td className="adm-nowrap">{formatDateTime(b.created_at)}</td>
                <td className="adm-nowrap adm-num">{formatBytes(b.size)}</td>
                <td className="adm-nowrap adm-num">{b.manifest ? formatBytes(b.manifest.db.size) : "—"}</td>
                <td className="adm-num">{b.manifest ? b.manifest.files.count.toLocaleString("zh-CN") : "—"}</td>
                <td className="adm-nowrap adm-num">{b.manifest ? `${(b.manifest.took_ms / 1000).toFixed(1)} 秒` : "—"}</td>
                <td className="adm-actions-col">
                  <a className="adm-link" href={`/api/v1/backup/download?name=${encodeURIComponent(b.name)}`} download>下载</a>
                  <button type="button" className="adm-link adm-danger" disabled={!ready} onClick={() => setDeleting(b)}>删除</button>
                </td>
              </tr>
            )) : <tr><td colSpan={7} className="adm-empty">还没有备份</td></tr>}
          </tbody>
        </table>
      </div>
      <Modal open={!!deleting} title="确认删除" width={420} onClose={() => setDeleting(null)}>
        <p>{`确定删除备份「${deleting?.name ?? ""}」吗？删除后不可恢复。`}</p>
        <div className="adm-form-actions"><button type="button" className="adm-btn" onClick={() => setDeleting(null)}>取消</button><button type="button" className="adm-btn adm-btn-danger" onClick={() => void remove()}>确定删除</button></div>
      </Modal>
    </div>
  );
}
