import { useCallback, useState } from "react";
import { useHydrated, useReloadOnChange } from "./useHydrated.ts";
import { api } from "../api.ts";
import { Cell, Pager, Toolbar, type ColumnDef, type FilterDef, type KeywordDef } from "./AdminCells.tsx";
import { AdminDateRange } from "./AdminDateRange.tsx";
import { EditorForm } from "./AdminEditor.tsx";
import { Modal, type FieldDef, type Opt } from "./AdminKit.tsx";
import { toast } from "../toast.ts";

type Row = Record<string, unknown> & { id: number };

export interface AdminTableProps {
  /** CRUD path under /api/v1 (POST/PUT/DELETE) */
  entity: string;
  listPath: string;
  listKey: string;
  baseQuery?: Record<string, string | number>;
  columns: ColumnDef[];
  /** editor fields; empty means rows cannot be edited */
  fields: FieldDef[];
  defaults: Record<string, unknown>;
  tabs?: { name: string; options: Opt[] };
  filter?: FilterDef;
  filters?: FilterDef[];
  /** true searches `keyword` over names and descriptions; or the query name and placeholder */
  keyword?: boolean | KeywordDef;
  pageSize: number;
  canCreate: boolean;
  /** false hides the delete buttons (rows that only the code removes, e.g. permissions) */
  canDelete?: boolean;
  /** extra per-row buttons; each dispatches a window CustomEvent `event` with the row as detail */
  rowActions?: { label: string; event: string }[];
  /** boolean column switched in place */
  toggle?: string;
  /** a select field whose options are the other rows (tree parents) */
  parentField?: string;
  /** rows whose `field` is truthy (e.g. fixed navigation) cannot be deleted and edit only `fields` */
  locked?: { field: string; fields: string[] };
  /** the list answers a tree (rows with `children`): shown flattened, children after their parent */
  tree?: boolean;
  /** a date-range filter sending `start`/`end` (YYYY-MM-DD); the string labels it, e.g. "注册时间" */
  dateRange?: string;
  initial: { total: number; rows: Row[] };
}

const flatten = (rows: Row[]): Row[] => rows.flatMap((r) => [r, ...flatten((r.children as Row[] | undefined) ?? [])]);

export default function AdminTable(p: AdminTableProps) {
  const [rows, setRows] = useState<Row[]>(p.tree ? flatten(p.initial.rows) : p.initial.rows);
  const [total, setTotal] = useState(p.initial.total);
  const filters = [...(p.filter ? [p.filter] : []), ...(p.filters ?? [])];
  const keyword = p.keyword === true ? { name: "keyword", placeholder: "搜索名称或描述" } : p.keyword || null;
  const [q, setQ] = useState({ page: 1, tab: p.tabs ? String(p.tabs.options[0]!.value) : "", filters: {} as Record<string, string>, keyword: "" });
  const [editing, setEditing] = useState<Row | "new" | null>(null);
  const [deleting, setDeleting] = useState<Row[] | null>(null);
  const [picked, setPicked] = useState<number[]>([]);
  const [preview, setPreview] = useState("");
  const ready = useHydrated();

  const load = useCallback(async () => {
    const query = { ...p.baseQuery, page: q.page, size: p.pageSize, ...(keyword ? { [keyword.name]: q.keyword } : {}), ...(p.tabs ? { [p.tabs.name]: q.tab } : {}), ...q.filters };
    const r = await api<Record<string, unknown>>("GET", p.listPath, { query });
    if (!r.ok || !r.data) return toast(r.message || "加载失败", "error");
    const got = (r.data[p.listKey] as Row[]) ?? [];
    setRows(p.tree ? flatten(got) : got);
    setTotal(Number(r.data.total ?? 0));
    setPicked([]);
  }, [q, p.baseQuery, p.listPath, p.listKey, p.pageSize, p.tabs]);
  useReloadOnChange(load);

  const toggle = async (row: Row) => {
    const r = await api("PUT", `/${p.entity}`, { body: { id: row.id, [p.toggle!]: !row[p.toggle!] } });
    if (!r.ok) return toast(r.message || "操作失败", "error");
    toast(row[p.toggle!] ? "已禁用" : "已启用", "success");
    void load();
  };
  const remove = async () => {
    const r = await api("DELETE", `/${p.entity}`, { query: { id: deleting!.map((d) => d.id) } });
    setDeleting(null);
    if (!r.ok) return toast(r.message || "删除失败", "error");
    toast("删除成功", "success");
    void load();
  };
  // Parent choices exclude the edited row and its descendants, so no cycle can be picked.
  const fields = p.fields.map((f) => {
    if (f.name !== p.parentField) return f;
    const self = editing && editing !== "new" ? editing.id : 0;
    const banned = new Set([self]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const r of rows) if (!banned.has(r.id) && banned.has(Number(r[f.name]))) banned.add(r.id), (grew = true);
    }
    return { ...f, options: [{ value: 0, label: "无（顶级）" }, ...rows.filter((r) => !banned.has(r.id) && !(p.locked && r[p.locked.field])).map((r) => ({ value: r.id, label: String(r.title) }))] };
  });
  const title = (r: Row) => String(r.title ?? r.name ?? `#${r.id}`);
  const all = rows.length > 0 && picked.length > 0 && picked.length === rows.filter((r) => !(p.locked && r[p.locked.field])).length;
  const canDelete = p.canDelete !== false;
  const isLocked = (r: Row) => !!p.locked && !!r[p.locked.field];
  const editFields = editing && editing !== "new" && isLocked(editing) ? fields.filter((f) => p.locked!.fields.includes(f.name)) : fields;

  return (
    <div className="adm-table-wrap">
      {p.tabs ? (
        <div className="adm-tabs" role="tablist">
          {p.tabs.options.map((o) => <button key={o.value} type="button" role="tab" aria-selected={String(o.value) === q.tab} className={String(o.value) === q.tab ? "active" : ""} disabled={!ready} onClick={() => setQ({ ...q, page: 1, tab: String(o.value) })}>{o.label}</button>)}
        </div>
      ) : null}
      <div className="adm-toolbar">
        <Toolbar filters={filters} values={q.filters} keyword={keyword} ready={ready} onFilter={(name, v) => setQ({ ...q, page: 1, filters: { ...q.filters, [name]: v } })} onSearch={(wd) => setQ({ ...q, page: 1, keyword: wd })} />
        {p.dateRange ? <AdminDateRange label={p.dateRange} disabled={!ready} value={{ start: q.filters.start ?? "", end: q.filters.end ?? "" }} onChange={(v) => setQ({ ...q, page: 1, filters: { ...q.filters, ...v } })} /> : null}
        <span className="adm-spacer" />
        {canDelete ? <button type="button" className="adm-btn adm-btn-danger" disabled={!ready || !picked.length} onClick={() => setDeleting(rows.filter((r) => picked.includes(r.id)))}>批量删除</button> : null}
        {p.canCreate ? <button type="button" className="adm-btn adm-btn-primary" disabled={!ready} onClick={() => setEditing("new")}>新增</button> : null}
      </div>
      <div className="adm-scroll">
        <table className="adm-table">
          <thead>
            <tr>
              <th className="adm-check"><input type="checkbox" aria-label="全选" checked={all} onChange={() => setPicked(all ? [] : rows.filter((r) => !isLocked(r)).map((r) => r.id))} /></th>
              {p.columns.map((c) => <th key={c.key} style={c.width ? { width: c.width } : undefined}>{c.label}</th>)}
              <th className="adm-actions-col">操作</th>
            </tr>
          </thead>
          <tbody>
            {rows.length ? rows.map((r) => (
              <tr key={r.id}>
                <td className="adm-check"><input type="checkbox" disabled={isLocked(r)} aria-label={`选择 ${title(r)}`} checked={picked.includes(r.id)} onChange={() => setPicked(picked.includes(r.id) ? picked.filter((x) => x !== r.id) : [...picked, r.id])} /></td>
                {p.columns.map((c) => <td key={c.key}>{c.key === p.toggle ? <button type="button" className={r[c.key] ? "adm-toggle on" : "adm-toggle"} role="switch" aria-checked={!!r[c.key]} aria-label={`${c.label}：${title(r)}`} disabled={!ready} onClick={() => void toggle(r)} /> : <Cell col={c} row={r} rows={rows} onPreview={setPreview} />}</td>)}
                <td className="adm-actions-col">
                  {p.fields.length ? <button type="button" className="adm-link" disabled={!ready} onClick={() => setEditing(r)}>编辑</button> : null}
                  {p.rowActions?.map((a) => <button key={a.event} type="button" className="adm-link" disabled={!ready} onClick={() => window.dispatchEvent(new CustomEvent(a.event, { detail: r }))}>{a.label}</button>)}
                  {canDelete && !isLocked(r) ? <button type="button" className="adm-link adm-danger" disabled={!ready} onClick={() => setDeleting([r])}>删除</button> : null}
                </td>
              </tr>
            )) : <tr><td colSpan={p.columns.length + 2} className="adm-empty">暂无数据</td></tr>}
          </tbody>
        </table>
      </div>
      <Pager page={q.page} size={p.pageSize} total={total} onPage={(page) => setQ({ ...q, page })} />
      <Modal open={!!editing} title={editing === "new" ? "新增" : "编辑"} onClose={() => setEditing(null)}>
        {editing ? <EditorForm entity={p.entity} fields={editFields} row={editing === "new" ? null : editing} defaults={p.tabs ? { ...p.defaults, [p.tabs.name]: p.tabs.options.find((o) => String(o.value) === q.tab)?.value } : p.defaults} onCancel={() => setEditing(null)} onSaved={() => (setEditing(null), void load())} /> : null}
      </Modal>
      <Modal open={!!deleting} title="确认删除" width={420} onClose={() => setDeleting(null)}>
        <p>{deleting?.length === 1 ? `确定删除「${title(deleting[0]!)}」吗？` : `确定删除选中的 ${deleting?.length} 条记录吗？`}删除后不可恢复。</p>
        <div className="adm-form-actions"><button type="button" className="adm-btn" onClick={() => setDeleting(null)}>取消</button><button type="button" className="adm-btn adm-btn-danger" onClick={() => void remove()}>确定删除</button></div>
      </Modal>
      <Modal open={!!preview} title="图片预览" width={860} onClose={() => setPreview("")}><img className="adm-preview" src={preview} alt="预览" /></Modal>
    </div>
  );
}
