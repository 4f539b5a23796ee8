import { useCallback, useState } from "react";
import { REPORT_REASONS } from "#src/features/reader/reasons.ts";
import { formatDateTime } from "#src/lib/format.ts";
import { api } from "../api.ts";
import { Pager, Toolbar } from "../admin/AdminCells.tsx";
import { AdminDateRange } from "../admin/AdminDateRange.tsx";
import { Modal, type Opt } from "../admin/AdminKit.tsx";
import { useHydrated, useReloadOnChange } from "../admin/useHydrated.ts";
import { toast } from "../toast.ts";
import { PunishForm, type PunishChoice } from "./AdminReportPunish.tsx";

export interface ReportRow {
  id: number; username: string; reason: number; reason_label: string; remark: string; status: number; created_at: number;
  target_type: string; target_title: string; target_url: string; target_visible: boolean; author_id: number; author_name: string;
}

export interface AdminReportListProps { initial: { total: number; rows: ReportRow[] }; pageSize: number; punishTypes: Opt[] }

const TABS = [{ value: "2", label: "待处理" }, { value: "0", label: "已处理" }, { value: "4", label: "已忽略" }, { value: "", label: "全部" }];
const STATUS: Record<number, [string, string]> = { 2: ["待处理", "adm-tag adm-tag-warn"], 0: ["已处理", "adm-tag adm-tag-ok"], 4: ["已忽略", "adm-tag"] };
const FILTERS = [
  { name: "type", label: "举报对象", options: [{ value: "document", label: "文档" }, { value: "article", label: "文章" }] },
  { name: "reason", label: "举报原因", options: REPORT_REASONS.map((r) => ({ value: r.value, label: r.label })) },
];

/** /admin/report: reports on documents and articles; ignore, disable the item or punish its author, one or many at once. */
export default function AdminReportList(p: AdminReportListProps) {
  const [rows, setRows] = useState(p.initial.rows);
  const [total, setTotal] = useState(p.initial.total);
  const [q, setQ] = useState({ page: 1, tab: "2", wd: "", filters: {} as Record<string, string> });
  const [picked, setPicked] = useState<number[]>([]);
  const [punishing, setPunishing] = useState<number[] | null>(null);
  const [deleting, setDeleting] = useState<number[] | null>(null);
  const ready = useHydrated();

  const load = useCallback(async () => {
    const r = await api<{ total: number; report: ReportRow[] }>("GET", "/report/list", { query: { page: q.page, size: p.pageSize, status: q.tab, wd: q.wd, ...q.filters } });
    if (!r.ok || !r.data) return toast(r.message || "加载失败", "error");
    setRows(r.data.report);
    setTotal(r.data.total);
    setPicked([]);
  }, [q, p.pageSize]);
  useReloadOnChange(load);

  const handle = async (ids: number[], action: "ignore" | "disable" | "punish", extra: Partial<PunishChoice> = {}) => {
    const r = await api<{ message: string }>("PUT", "/report/handle", { body: { id: ids, action, ...extra } });
    if (!r.ok) return toast(r.message || "操作失败", "error");
    toast(r.data?.message || "操作成功", "success");
    setPunishing(null);
    void load();
  };
  const remove = async () => {
    const r = await api("DELETE", "/report", { query: { id: deleting! } });
    setDeleting(null);
    if (!r.ok) return toast(r.message || "删除失败", "error");
    toast("删除成功", "success");
    void load();
  };
  const all = rows.length > 0 && picked.length === rows.length;
  const bulk = (label: string, run: () => void, danger = false) => (
    <button type="button" className={danger ? "adm-btn adm-btn-sm adm-btn-danger" : "adm-btn adm-btn-sm"} disabled={!ready || !picked.length} onClick={run}>{label}</button>
  );

  return (
    <div className="adm-table-wrap">
      <div className="adm-tabs" role="tablist">
        {TABS.map((t) => <button key={t.value} type="button" role="tab" aria-selected={t.value === q.tab} className={t.value === q.tab ? "active" : ""} disabled={!ready} onClick={() => setQ({ ...q, page: 1, tab: t.value })}>{t.label}</button>)}
      </div>
      <div className="adm-toolbar">
        <Toolbar filters={FILTERS} values={q.filters} keyword={{ name: "wd", placeholder: "搜索标题或举报说明" }} ready={ready}
          onFilter={(name, v) => setQ({ ...q, page: 1, filters: { ...q.filters, [name]: v } })} onSearch={(wd) => setQ({ ...q, page: 1, wd })} />
        <AdminDateRange label="举报时间" disabled={!ready} value={{ start: q.filters.start ?? "", end: q.filters.end ?? "" }} onChange={(v) => setQ({ ...q, page: 1, filters: { ...q.filters, ...v } })} />
      </div>
      <div className="adm-toolbar" role="group" aria-label="批量操作">
        <span className="adm-muted">{picked.length ? `已选 ${picked.length} 条` : "勾选举报后可批量处理"}</span>
        {bulk("忽略", () => void handle(picked, "ignore"))}
        {bulk("禁用内容", () => void handle(picked, "disable"), true)}
        {bulk("处罚作者", () => setPunishing(picked), true)}
        {bulk("删除", () => setDeleting(picked), true)}
      </div>
      <div className="adm-scroll">
        <table className="adm-table">
          <thead>
            <tr>
              <th className="adm-check"><input type="checkbox" aria-label="全选" checked={all} onChange={() => setPicked(all ? [] : rows.map((r) => r.id))} /></th>
              <th style={{ width: 60 }}>ID</th><th>举报对象</th><th>作者</th><th>原因</th><th>说明</th><th>举报人</th><th>状态</th><th>举报时间</th>
              <th className="adm-actions-col">操作</th>
            </tr>
          </thead>
          <tbody>
            {rows.length ? rows.map((r) => (
              <tr key={r.id}>
                <td className="adm-check"><input type="checkbox" aria-label={`选择举报 ${r.id}`} checked={picked.includes(r.id)} onChange={() => setPicked(picked.includes(r.id) ? picked.filter((x) => x !== r.id) : [...picked, r.id])} /></td>
                <td>{r.id}</td>
                <td>
                  <span className="adm-tag">{r.target_type === "article" ? "文章" : "文档"}</span>{" "}
                  <a className="adm-ellipsis" href={r.target_url} target="_blank" rel="noopener noreferrer" title={r.target_title}>{r.target_title}</a>
                  {r.target_visible ? null : <span className="adm-tag adm-tag-bad">{r.target_type === "article" ? "已下架" : "已禁用"}</span>}
                </td>
                <td className="adm-nowrap">{r.author_name || <span className="adm-muted">—</span>}</td>
                <td className="adm-nowrap">{r.reason_label}</td>
                <td><span className="adm-ellipsis" title={r.remark}>{r.remark || <span className="adm-muted">—</span>}</span></td>
                <td className="adm-nowrap">{r.username || <span className="adm-muted">—</span>}</td>
                <td><span className={STATUS[r.status]?.[1] ?? "adm-tag"}>{STATUS[r.status]?.[0] ?? r.status}</span></td>
                <td className="adm-nowrap">{formatDateTime(r.created_at)}</td>
                <td className="adm-actions-col">
                  {r.status === 2 ? <button type="button" className="adm-link" disabled={!ready} onClick={() => void handle([r.id], "ignore")}>忽略</button> : null}
                  {r.target_visible ? <button type="button" className="adm-link adm-danger" disabled={!ready} onClick={() => void handle([r.id], "disable")}>禁用内容</button> : null}
                  <button type="button" className="adm-link adm-danger" disabled={!ready || !r.author_id} onClick={() => setPunishing([r.id])}>处罚作者</button>
                  <button type="button" className="adm-link adm-danger" disabled={!ready} onClick={() => setDeleting([r.id])}>删除</button>
                </td>
              </tr>
            )) : <tr><td colSpan={10} className="adm-empty">暂无举报</td></tr>}
          </tbody>
        </table>
      </div>
      <Pager page={q.page} size={p.pageSize} total={total} onPage={(page) => setQ({ ...q, page })} />
      <Modal open={!!punishing} title="处罚作者" width={560} onClose={() => setPunishing(null)}>
        {punishing ? <PunishForm punishTypes={p.punishTypes} count={punishing.length} onCancel={() => setPunishing(null)} onSubmit={(c) => void handle(punishing, "punish", c)} /> : null}
      </Modal>
      <Modal open={!!deleting} title="确认删除" width={420} onClose={() => setDeleting(null)}>
        <p>{`确定删除选中的 ${deleting?.length ?? 0} 条举报记录吗？删除后不可恢复（不影响被举报的内容）。`}</p>
        <div className="adm-form-actions"><button type="button" className="adm-btn" onClick={() => setDeleting(null)}>取消</button><button type="button" className="adm-btn adm-btn-danger" onClick={() => void remove()}>确定删除</button></div>
      </Modal>
    </div>
  );
}
