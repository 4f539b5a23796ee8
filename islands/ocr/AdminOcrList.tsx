import { Fragment, useCallback, useState } from "react";
import { formatDateTime } from "#src/lib/format.ts";
import { api } from "../api.ts";
import { toast } from "../toast.ts";
import { Pager, Toolbar } from "../admin/AdminCells.tsx";
import type { Opt } from "../admin/AdminKit.tsx";
import { useHydrated, useReloadOnChange } from "../admin/useHydrated.ts";
import { ENGINE, OcrPages, type OcrRow, seconds, TONE } from "./AdminOcrParts.tsx";

export interface AdminOcrListProps {
  initial: { total: number; rows: OcrRow[] };
  pageSize: number;
  statuses: Opt[];
}

const ACTIONS = [
  { label: "重试失败页", path: "/ocr/retry" },
  { label: "重新识别", path: "/ocr/redo" },
] as const;
const COLS = 9;

/** /admin/document/ocr: documents with pages OCR'd, their progress and quality; retry failed pages or run again. */
export default function AdminOcrList(p: AdminOcrListProps) {
  const [rows, setRows] = useState(p.initial.rows);
  const [total, setTotal] = useState(p.initial.total);
  const [q, setQ] = useState({ page: 1, wd: "", filters: {} as Record<string, string> });
  const [picked, setPicked] = useState<number[]>([]);
  const [open, setOpen] = useState<number[]>([]);
  const ready = useHydrated();

  const load = useCallback(async () => {
    const r = await api<{ total: number; ocr_document: OcrRow[] }>("GET", "/ocr/list", { query: { page: q.page, size: p.pageSize, wd: q.wd, ...q.filters } });
    if (!r.ok || !r.data) return toast(r.message || "加载失败", "error");
    setRows(r.data.ocr_document);
    setTotal(r.data.total);
    setPicked([]);
    setOpen([]);
  }, [q, p.pageSize]);
  useReloadOnChange(load);

  const run = async (path: string, ids?: number[]) => {
    const r = await api<{ message: string }>("POST", path, ids ? { body: { document_id: ids } } : {});
    if (!r.ok) return toast(r.message || "操作失败", "error");
    toast(r.data?.message || "操作成功", "success");
    void load();
  };
  const flip = (list: number[], id: number) => (list.includes(id) ? list.filter((x) => x !== id) : [...list, id]);
  const all = rows.length > 0 && picked.length === rows.length;

  return (
    <div className="adm-table-wrap">
      <div className="adm-toolbar">
        <Toolbar filters={[{ name: "status", label: "状态", options: p.statuses }]} values={q.filters} keyword={{ name: "wd", placeholder: "搜索文档标题" }} ready={ready}
          onFilter={(name, v) => setQ({ ...q, page: 1, filters: { ...q.filters, [name]: v } })} onSearch={(wd) => setQ({ ...q, page: 1, wd })} />
        <button type="button" className="adm-btn" disabled={!ready} onClick={() => void load()}>刷新</button>
        <button type="button" className="adm-btn" disabled={!ready} title="为开启 OCR 之前转换、含扫描页的文档排队识别" onClick={() => void run("/ocr/scan")}>识别已有文档</button>
      </div>
      <div className="adm-toolbar" role="group" aria-label="批量操作">
        <span className="adm-muted">{picked.length ? `已选 ${picked.length} 篇` : "勾选文档后可批量操作"}</span>
        {ACTIONS.map((a) => <button key={a.path} type="button" className="adm-btn adm-btn-sm" disabled={!ready || !picked.length} onClick={() => void run(a.path, picked)}>{a.label}</button>)}
      </div>
      <div className="adm-scroll">
        <table className="adm-table">
          <thead>
            <tr>
              <th className="adm-check"><input type="checkbox" aria-label="全选" checked={all} disabled={!ready} onChange={() => setPicked(all ? [] : rows.map((r) => r.document_id))} /></th>
              <th>文档</th><th>状态</th><th>引擎</th><th>页面（成功/失败/共）</th><th>用时</th><th>平均置信度</th><th>更新时间</th><th>操作</th>
            </tr>
          </thead>
          <tbody>
            {rows.length ? rows.map((r) => (
              <Fragment key={r.document_id}>
                <tr>
                  <td className="adm-check"><input type="checkbox" aria-label={`选择 ${r.title}`} checked={picked.includes(r.document_id)} disabled={!ready} onChange={() => setPicked(flip(picked, r.document_id))} /></td>
                  <td>
                    <a className="adm-ellipsis" href={`/document/${r.uuid}`} target="_blank" rel="noopener noreferrer" title={r.title}>{r.title}</a>
                    <br /><span className="adm-muted adm-nowrap">{`${r.ext.toUpperCase()} · 共 ${r.document_pages} 页`}</span>
                  </td>
                  <td className="adm-nowrap"><span className={TONE[r.status] ?? "adm-tag"}>{r.status_label}</span>{r.error ? <><br /><span className="adm-muted" style={{ whiteSpace: "normal" }}>{r.error}</span></> : null}</td>
                  <td className="adm-nowrap">{ENGINE[r.engine] ?? (r.engine || "—")}</td>
                  <td className="adm-nowrap">{`${r.done} / ${r.failed} / ${r.pages}`}</td>
                  <td className="adm-nowrap">{r.ms ? seconds(r.ms) : "—"}</td>
                  <td>{r.done ? `${r.confidence.toFixed(1)}%` : "—"}</td>
                  <td className="adm-nowrap">{formatDateTime(r.updated_at)}</td>
                  <td className="adm-nowrap">
                    <button type="button" className="adm-btn adm-btn-sm" disabled={!ready} aria-expanded={open.includes(r.document_id)} onClick={() => setOpen(flip(open, r.document_id))}>{open.includes(r.document_id) ? "收起" : "页面"}</button>
                    {r.failed ? <button type="button" className="adm-btn adm-btn-sm" disabled={!ready} onClick={() => void run("/ocr/retry", [r.document_id])}>重试失败页</button> : null}
                    <button type="button" className="adm-btn adm-btn-sm" disabled={!ready} onClick={() => void run("/ocr/redo", [r.document_id])}>重新识别此文档</button>
                  </td>
                </tr>
                {open.includes(r.document_id) ? <OcrPages documentId={r.document_id} colSpan={COLS} /> : null}
              </Fragment>
            )) : <tr><td colSpan={COLS} className="adm-empty">暂无 OCR 记录：转换后没有扫描页的文档不会出现在这里</td></tr>}
          </tbody>
        </table>
      </div>
      <Pager page={q.page} size={p.pageSize} total={total} onPage={(page) => setQ({ ...q, page })} />
    </div>
  );
}
