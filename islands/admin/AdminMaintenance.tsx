import { useState } from "react";
import { formatBytes, formatDateTime } from "#src/lib/format.ts";
import { useHydrated } from "./useHydrated.ts";
import { api } from "../api.ts";
import { toast } from "../toast.ts";

interface Step { name: string; label: string; ok: boolean; result: string; ms: number }
export interface MaintenanceResult { at: number; ok: boolean; vacuum: boolean; steps: Step[]; size_before: number; size_after: number; ms: number }

/** Dashboard card: runs PUT /sqlmode (SQLite upkeep) and shows each step's result and time. */
export default function AdminMaintenance({ last }: { last: MaintenanceResult | null }) {
  const [result, setResult] = useState(last);
  const [vacuum, setVacuum] = useState(false);
  const [busy, setBusy] = useState(false);
  const ready = useHydrated();
  const run = async () => {
    setBusy(true);
    const r = await api<MaintenanceResult>("PUT", "/sqlmode", { body: { vacuum } });
    setBusy(false);
    if (!r.ok || !r.data) return toast(r.message || "维护失败", "error");
    setResult(r.data);
    toast(r.data.ok ? "数据库维护完成" : "维护完成，但有步骤未通过", r.data.ok ? "success" : "error");
  };
  return (
    <section className="adm-card">
      <h2 className="adm-card-title">数据库维护</h2>
      <p className="adm-help">依次执行完整性检查、优化查询统计与 WAL 检查点；VACUUM 会重写整个数据库以回收空间，期间网站写入会短暂等待，建议在访问量低时勾选。</p>
      <div className="adm-row">
        <label className="adm-check-opt"><input type="checkbox" checked={vacuum} disabled={!ready || busy} onChange={(e) => setVacuum(e.currentTarget.checked)} /> 同时执行 VACUUM</label>
        <button type="button" className="adm-btn adm-btn-primary" disabled={!ready || busy} onClick={() => void run()}>{busy ? "维护中…" : "开始维护"}</button>
      </div>
      {result ? (
        <>
          <p className="adm-help" role="status">
            {`上次维护：${formatDateTime(result.at)} · 共 ${(result.ms / 1000).toFixed(2)} 秒 · 数据库 ${formatBytes(result.size_before)} → ${formatBytes(result.size_after)}`}
          </p>
          <div className="adm-scroll">
            <table className="adm-table">
              <thead><tr><th>步骤</th><th>状态</th><th>结果</th><th>耗时</th></tr></thead>
              <tbody>
                {result.steps.map((s) => (
                  <tr key={s.name}>
                    <td className="adm-nowrap">{s.label}</td>
                    <td><span className={s.ok ? "adm-tag adm-tag-ok" : "adm-tag adm-tag-bad"}>{s.ok ? "通过" : "异常"}</span></td>
                    <td>{s.result}</td>
                    <td className="adm-nowrap adm-num">{`${s.ms} ms`}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : <p className="adm-muted">尚未执行过维护。</p>}
    </section>
  );
}
