import { useEffect, useState } from "react";
import type { EmbeddingStatus, FailureRow } from "#src/features/embedding/status.ts";
import { formatDateTime } from "#src/lib/format.ts";
import { useHydrated } from "../admin/useHydrated.ts";
import { api } from "../api.ts";
import { toast } from "../toast.ts";
import { SpaceCard } from "./EmbeddingSpaceCard.tsx";

export interface AdminEmbeddingStatusProps {
  status: EmbeddingStatus;
  failures: { total: number; failure: FailureRow[] };
  canRebuild: boolean;
  canRetry: boolean;
}

const busyNow = (s: EmbeddingStatus) => !!s.building || !!(s.active && s.active.documents.pending + s.active.documents.running > 0) || s.rebuild_job?.status === "running";

/**
 * The status half of /admin/ai/embedding: active and building spaces with counts and the rebuild's
 * progress (refreshed every few seconds while work is under way), 重建索引, and failed documents
 * with retry.
 */
export default function AdminEmbeddingStatus({ status: initial, failures: initialFailures, canRebuild, canRetry }: AdminEmbeddingStatusProps) {
  const [status, setStatus] = useState(initial);
  const [failures, setFailures] = useState(initialFailures);
  const [busy, setBusy] = useState(false);
  const ready = useHydrated();

  const reload = async () => {
    const [s, f] = await Promise.all([api<EmbeddingStatus>("GET", "/embedding/status"), api<typeof failures>("GET", "/embedding/failed", { query: { page: 1, size: 20 } })]);
    if (s.ok && s.data) setStatus(s.data);
    if (f.ok && f.data) setFailures(f.data);
  };
  useEffect(() => {
    if (!busyNow(status)) return;
    const t = setTimeout(() => void reload(), 3000);
    return () => clearTimeout(t);
  }, [status]);

  const act = async (method: string, path: string, body: unknown, confirmText?: string) => {
    if (confirmText && !confirm(confirmText)) return;
    setBusy(true);
    const r = await api<{ message: string }>(method, path, { body });
    setBusy(false);
    toast(r.ok ? r.data?.message || "操作成功" : r.message || "操作失败", r.ok ? "success" : "error");
    void reload();
  };

  const job = status.rebuild_job;
  return (
    <>
      <section className="adm-card">
        <h2 className="adm-card-title">向量索引</h2>
        <p className="adm-help" style={{ marginTop: 0 }}>
          {!status.enable ? "向量检索未启用：AI 对话与搜索只使用关键词检索。" : !status.configured ? "已启用，但模型设置不完整（本地模型需填写模型文件夹，远程服务需填写接口地址与模型名称）。" : `可向量化的文档 ${status.eligible_documents.toLocaleString("zh-CN")} 篇，片段 ${status.chunks.toLocaleString("zh-CN")} 个。`}
        </p>
        {job?.status === "failed" || (job?.error && job.status !== "done") ? <p className="adm-muted" style={{ color: "var(--adm-danger)" }}>{`重建任务出错（${formatDateTime(job.updated_at)}）：${job.error}`}</p> : null}
        {status.last_query_error ? <p className="adm-muted">{`最近一次问题向量化失败（${formatDateTime(status.last_query_error.at)}），已改用关键词检索：${status.last_query_error.message}`}</p> : null}
        <div className="adm-form-actions" style={{ justifyContent: "flex-start" }}>
          {canRebuild ? <button type="button" className="adm-btn" disabled={!ready || busy || !status.enable} onClick={() => void act("POST", "/embedding/rebuild", {}, "用当前设置重新向量化全部文档？完成前继续使用当前索引。")}>重建索引</button> : null}
          <button type="button" className="adm-btn" disabled={!ready} onClick={() => void reload()}>刷新</button>
        </div>
      </section>
      {status.active ? <SpaceCard title="当前使用的向量索引" s={status.active} /> : null}
      {status.building ? <SpaceCard title="正在构建的向量索引" s={status.building} /> : null}
      <section className="adm-card">
        <h2 className="adm-card-title">{`失败的文档（${failures.total}）`}</h2>
        {failures.failure.length ? (
          <>
            <table className="adm-table">
              <thead><tr><th>文档</th><th>原因</th><th>时间</th>{canRetry ? <th>操作</th> : null}</tr></thead>
              <tbody>
                {failures.failure.map((f) => (
                  <tr key={f.document_id}>
                    <td><a href={`/document/${f.uuid}`} target="_blank" rel="noopener noreferrer">{f.title || `#${f.document_id}`}</a></td>
                    <td style={{ overflowWrap: "anywhere" }}>{f.error}</td>
                    <td>{formatDateTime(f.updated_at)}</td>
                    {canRetry ? <td><button type="button" className="adm-btn adm-btn-sm" disabled={!ready || busy} onClick={() => void act("POST", "/embedding/retry", { id: [f.document_id] })}>重试</button></td> : null}
                  </tr>
                ))}
              </tbody>
            </table>
            {canRetry ? <div className="adm-form-actions" style={{ justifyContent: "flex-start" }}><button type="button" className="adm-btn" disabled={!ready || busy} onClick={() => void act("POST", "/embedding/retry", {})}>全部重试</button></div> : null}
          </>
        ) : <p className="adm-empty">没有失败的文档</p>}
      </section>
    </>
  );
}
