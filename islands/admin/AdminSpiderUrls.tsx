import { useCallback, useState } from "react";
import { formatDateTime } from "#src/lib/format.ts";
import { api } from "../api.ts";
import { toast } from "../toast.ts";
import { Pager, Toolbar } from "./AdminCells.tsx";
import { FieldInput, FormRow, Modal, type FieldDef, type Opt } from "./AdminKit.tsx";
import { useHydrated, useReloadOnChange } from "./useHydrated.ts";

type UrlRow = { id: number; url: string; status: number; status_label: string; message: string; category_title: string; username: string; depth: number; found: number; pages: number; created_at: number };

export interface AdminSpiderUrlsProps {
  initial: { total: number; rows: UrlRow[] };
  pageSize: number;
  categories: Opt[];
  exts: string[];
  maxSize: number;
  creditName: string;
  statuses: Opt[];
}

const TONE: Record<number, string> = { 1: "adm-tag adm-tag-warn", 2: "adm-tag adm-tag-ok", 3: "adm-tag adm-tag-bad" };
// Messages wrap instead of widening the table past the screen.
const WRAP = { whiteSpace: "normal", minWidth: 160, maxWidth: 320 } as const;
const DEFAULT_EXTS = ["pdf", "doc", "docx", "ppt", "pptx", "xls", "xlsx", "epub", "txt"];

/** /admin/spider/url: submit URLs (one a line) with their options; list, re-collect and delete them. */
export default function AdminSpiderUrls(p: AdminSpiderUrlsProps) {
  const [rows, setRows] = useState(p.initial.rows);
  const [total, setTotal] = useState(p.initial.total);
  const [q, setQ] = useState({ page: 1, wd: "", filters: {} as Record<string, string> });
  const [picked, setPicked] = useState<number[]>([]);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<number[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [form, setForm] = useState<Record<string, unknown>>({ urls: "", category_id: "", user_id: "", depth: 0, same_site: true, exts: DEFAULT_EXTS, max_size: p.maxSize, price: 0 });
  const ready = useHydrated();

  const load = useCallback(async () => {
    const r = await api<{ total: number; spider_url: UrlRow[] }>("GET", "/spider/url/list", { query: { page: q.page, size: p.pageSize, wd: q.wd, ...q.filters } });
    if (!r.ok || !r.data) return toast(r.message || "加载失败", "error");
    setRows(r.data.spider_url);
    setTotal(r.data.total);
    setPicked([]);
  }, [q, p.pageSize]);
  useReloadOnChange(load);

  const fields: FieldDef[] = [
    { name: "urls", label: "网址", kind: "textarea", required: true, placeholder: "https://example.com/docs/\nhttps://example.com/files/report.pdf", help: "每行一个，最多 100 个；只支持 http 和 https" },
    { name: "category_id", label: "目标分类", kind: "select", required: true, options: p.categories },
    { name: "user_id", label: "文档所有者", kind: "lookup", required: true, lookup: { path: "/user/list", key: "user", query: "wd", label: "username" }, help: "发布的文档归属此用户" },
    { name: "depth", label: "采集深度", kind: "select", options: [{ value: 0, label: "0：只看这个网页" }, { value: 1, label: "1：再看它链接的网页" }, { value: 2, label: "2：再深入一层" }] },
    { name: "same_site", label: "只采集本站链接", kind: "switch" },
    { name: "exts", label: "文件类型", kind: "multiselect", options: p.exts.map((e) => ({ value: e, label: e.toUpperCase() })) },
    { name: "max_size", label: "文件大小上限（MB）", kind: "number", help: `不超过采集设置中的 ${p.maxSize} MB` },
    { name: "price", label: `价格（${p.creditName}）`, kind: "number", help: "发布后文档的售价，0 为免费" },
  ];
  const submit = async () => {
    setBusy(true);
    const body = { ...form, category_id: Number(form.category_id) || 0, user_id: Number(form.user_id) || 0, depth: Number(form.depth), max_size: Number(form.max_size), price: Number(form.price) };
    const r = await api<{ message: string }>("POST", "/spider/url", { body });
    setBusy(false);
    if (!r.ok) return toast(r.message || "提交失败", "error");
    toast(r.data?.message || "提交成功", "success");
    setAdding(false);
    setForm({ ...form, urls: "" });
    setQ({ ...q, page: 1 });
    void load();
  };
  const bulk = async (method: "PUT" | "DELETE", ids: number[]) => {
    const r = method === "PUT" ? await api<{ message: string }>("PUT", "/spider/url/retry", { body: { id: ids } }) : await api<{ message: string }>("DELETE", "/spider/url", { query: { id: ids } });
    if (!r.ok) return toast(r.message || "操作失败", "error");
    toast(r.data?.message || "操作成功", "success");
    void load();
  };
  const flip = (id: number) => setPicked(picked.includes(id) ? picked.filter((x) => x !== id) : [...picked, id]);
  const all = rows.length > 0 && picked.length === rows.length;

  return (
    <div className="adm-table-wrap">
      <div className="adm-toolbar">
        <Toolbar filters={[{ name: "status", label: "状态", options: p.statuses }]} values={q.filters} keyword={{ name: "wd", placeholder: "搜索网址" }} ready={ready}
          onFilter={(name, v) => setQ({ ...q, page: 1, filters: { ...q.filters, [name]: v } })} onSearch={(wd) => setQ({ ...q, page: 1, wd })} />
        <span className="adm-spacer" />
        <button type="button" className="adm-btn" disabled={!ready || !picked.length} onClick={() => void bulk("PUT", picked)}>重新采集</button>
        <button type="button" className="adm-btn adm-btn-danger" disabled={!ready || !picked.length} onClick={() => setDeleting(picked)}>批量删除</button>
        <button type="button" className="adm-btn adm-btn-primary" disabled={!ready} onClick={() => setAdding(true)}>添加网址</button>
      </div>
      <div className="adm-scroll">
        <table className="adm-table">
          <thead>
            <tr>
              <th className="adm-check"><input type="checkbox" aria-label="全选" checked={all} onChange={() => setPicked(all ? [] : rows.map((r) => r.id))} /></th>
              <th style={{ width: 60 }}>ID</th><th>网址</th><th>分类 · 所有者</th><th>状态</th><th>结果</th><th>提交时间</th><th className="adm-actions-col">操作</th>
            </tr>
          </thead>
          <tbody>
            {rows.length ? rows.map((r) => (
              <tr key={r.id}>
                <td className="adm-check"><input type="checkbox" aria-label={`选择 ${r.url}`} checked={picked.includes(r.id)} onChange={() => flip(r.id)} /></td>
                <td>{r.id}</td>
                <td><a className="adm-ellipsis" href={r.url} target="_blank" rel="noopener noreferrer nofollow" title={r.url}>{r.url}</a></td>
                <td className="adm-nowrap">{r.category_title || "—"}<br /><span className="adm-muted">{`${r.username || "—"} · 深度 ${r.depth}`}</span></td>
                <td className="adm-nowrap"><span className={TONE[r.status] ?? "adm-tag"}>{r.status_label}</span></td>
                <td style={WRAP}>{r.message || "—"}</td>
                <td className="adm-nowrap">{formatDateTime(r.created_at)}</td>
                <td className="adm-actions-col">
                  <a className="adm-link" href={`/admin/spider/document?spider_url_id=${r.id}`}>{`文档（${r.found}）`}</a>
                  <button type="button" className="adm-link" disabled={!ready || r.status < 2} onClick={() => void bulk("PUT", [r.id])}>重新采集</button>
                </td>
              </tr>
            )) : <tr><td colSpan={8} className="adm-empty">暂无采集网址</td></tr>}
          </tbody>
        </table>
      </div>
      <Pager page={q.page} size={p.pageSize} total={total} onPage={(page) => setQ({ ...q, page })} />
      <Modal open={!!deleting} title="确认删除" width={420} onClose={() => setDeleting(null)}>
        <p>{`确定删除选中的 ${deleting?.length ?? 0} 个网址及其采集到的文档记录吗？已发布的文档留在文库中。`}</p>
        <div className="adm-form-actions">
          <button type="button" className="adm-btn" onClick={() => setDeleting(null)}>取消</button>
          <button type="button" className="adm-btn adm-btn-danger" onClick={() => (setDeleting(null), void bulk("DELETE", deleting!))}>确定删除</button>
        </div>
      </Modal>
      <Modal open={adding} title="添加采集网址" width={720} onClose={() => setAdding(false)}>
        <form className="adm-form" onSubmit={(e) => (e.preventDefault(), void submit())}>
          {fields.map((f) => <FormRow key={f.name} f={f}><FieldInput f={f} value={form[f.name]} onChange={(v) => setForm((x) => ({ ...x, [f.name]: v }))} /></FormRow>)}
          <div className="adm-form-actions">
            <button type="button" className="adm-btn" onClick={() => setAdding(false)}>取消</button>
            <button type="submit" className="adm-btn adm-btn-primary" disabled={busy}>{busy ? "提交中…" : "开始采集"}</button>
          </div>
        </form>
      </Modal>
    </div>
  );
}
