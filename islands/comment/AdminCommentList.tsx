import { useCallback, useState } from "react";
import { COMMENT_STATUS_OPTIONS } from "#src/features/comments/status.ts";
import { formatDateTime } from "#src/lib/format.ts";
import { api } from "../api.ts";
import { Pager, Toolbar } from "../admin/AdminCells.tsx";
import { AdminDateRange } from "../admin/AdminDateRange.tsx";
import { batch } from "../admin/AdminDocumentParts.tsx";
import { Modal } from "../admin/AdminKit.tsx";
import { useHydrated, useReloadOnChange } from "../admin/useHydrated.ts";
import { toast } from "../toast.ts";

export interface AdminCommentRow {
  id: number; user_id: number; username: string; content: string; status: number; status_label: string; parent_id: number; reply_username: string;
  target_type: string; target_title: string; target_url: string; ip?: string; created_at: number;
}

export interface AdminCommentListProps { initial: { total: number; rows: AdminCommentRow[] }; pageSize: number; tab: string }

const TABS = [{ value: "2", label: "待审核" }, ...COMMENT_STATUS_OPTIONS.filter((o) => o.value !== 2).map((o) => ({ value: String(o.value), label: o.label })), { value: "", label: "全部" }];
const TONE: Record<number, string> = { 0: "adm-tag adm-tag-ok", 1: "adm-tag adm-tag-bad", 2: "adm-tag adm-tag-warn", 3: "adm-tag adm-tag-bad" };
const ACTIONS = [{ label: "审核通过", status: 0 }, { label: "审核拒绝", status: 3, danger: true }, { label: "禁用", status: 1, danger: true }];
const TYPES = { name: "type", label: "评论对象", options: [{ value: "document", label: "文档" }, { value: "article", label: "文章" }] };

/** /admin/comment: filter by status, item type, user, keyword and dates; approve, reject, disable and delete in bulk. */
export default function AdminCommentList(p: AdminCommentListProps) {
  const [rows, setRows] = useState(p.initial.rows);
  const [total, setTotal] = useState(p.initial.total);
  const [q, setQ] = useState({ page: 1, tab: p.tab, wd: "", filters: {} as Record<string, string>, user: null as { id: number; name: string } | null });
  const [picked, setPicked] = useState<number[]>([]);
  const [deleting, setDeleting] = useState<number[] | null>(null);
  const [reading, setReading] = useState<AdminCommentRow | null>(null);
  const ready = useHydrated();

  const load = useCallback(async () => {
    const query = { page: q.page, size: p.pageSize, status: q.tab, wd: q.wd, user_id: q.user?.id, ...q.filters };
    const r = await api<{ total: number; comment: AdminCommentRow[] }>("GET", "/comment/list", { query });
    if (!r.ok || !r.data) return toast(r.message || "加载失败", "error");
    setRows(r.data.comment);
    setTotal(r.data.total);
    setPicked([]);
  }, [q, p.pageSize]);
  useReloadOnChange(load);

  const check = async (ids: number[], status: number) => (await batch("/comment/check", { id: ids, status }, "操作成功")) && void load();
  const remove = async () => {
    const r = await api("DELETE", "/comment", { query: { id: deleting! } });
    setDeleting(null);
    if (!r.ok) return toast(r.message || "删除失败", "error");
    toast("删除成功", "success");
    void load();
  };
  const flip = (id: number) => setPicked(picked.includes(id) ? picked.filter((x) => x !== id) : [...picked, id]);
  const all = rows.length > 0 && picked.length === rows.length;

  return (
    <div className="adm-table-wrap">
      <div className="adm-tabs" role="tablist">
        {TABS.map((t) => <button key={t.value} type="button" role="tab" aria-selected={t.value === q.tab} className={t.value === q.tab ? "active" : ""} disabled={!ready} onClick={() => setQ({ ...q, page: 1, tab: t.value })}>{t.label}</button>)}
      </div>
      <div className="adm-toolbar">
        <Toolbar filters={[TYPES]} values={q.filters} keyword={{ name: "wd", placeholder: "搜索评论内容、用户名或标题" }} ready={ready}
          onFilter={(name, v) => setQ({ ...q, page: 1, filters: { ...q.filters, [name]: v } })} onSearch={(wd) => setQ({ ...q, page: 1, wd })} />
        <AdminDateRange label="评论时间" disabled={!ready} value={{ start: q.filters.start ?? "", end: q.filters.end ?? "" }} onChange={(v) => setQ({ ...q, page: 1, filters: { ...q.filters, ...v } })} />
        {q.user ? <button type="button" className="adm-btn adm-btn-sm" title="取消按用户筛选" onClick={() => setQ({ ...q, page: 1, user: null })}>{`用户：${q.user.name} ×`}</button> : null}
      </div>
      <div className="adm-toolbar" role="group" aria-label="批量操作">
        <span className="adm-muted">{picked.length ? `已选 ${picked.length} 条` : "勾选评论后可批量操作"}</span>
        {ACTIONS.map((a) => <button key={a.label} type="button" className={a.danger ? "adm-btn adm-btn-sm adm-btn-danger" : "adm-btn adm-btn-sm"} disabled={!ready || !picked.length} onClick={() => void check(picked, a.status)}>{a.label}</button>)}
        <button type="button" className="adm-btn adm-btn-sm adm-btn-danger" disabled={!ready || !picked.length} onClick={() => setDeleting(picked)}>删除</button>
      </div>
      <div className="adm-scroll">
        <table className="adm-table">
          <thead>
            <tr>
              <th className="adm-check"><input type="checkbox" aria-label="全选" checked={all} onChange={() => setPicked(all ? [] : rows.map((r) => r.id))} /></th>
              <th style={{ width: 60 }}>ID</th><th>评论内容</th><th>评论者</th><th>评论对象</th><th>状态</th><th>IP</th><th>评论时间</th>
              <th className="adm-actions-col">操作</th>
            </tr>
          </thead>
          <tbody>
            {rows.length ? rows.map((r) => (
              <tr key={r.id}>
                <td className="adm-check"><input type="checkbox" aria-label={`选择评论 ${r.id}`} checked={picked.includes(r.id)} onChange={() => flip(r.id)} /></td>
                <td>{r.id}</td>
                <td>
                  {r.parent_id ? <span className="adm-muted">{`回复 @${r.reply_username || "已注销用户"}：`}</span> : null}
                  <button type="button" className="adm-link adm-ellipsis" title="查看全文" onClick={() => setReading(r)}>{r.content}</button>
                </td>
                <td className="adm-nowrap"><button type="button" className="adm-link" title="只看此用户的评论" disabled={!ready} onClick={() => setQ({ ...q, page: 1, user: { id: r.user_id, name: r.username } })}>{r.username || `#${r.user_id}`}</button></td>
                <td><span className="adm-tag">{r.target_type === "article" ? "文章" : "文档"}</span> {r.target_url ? <a className="adm-ellipsis" href={`${r.target_url}#comments`} target="_blank" rel="noopener noreferrer" title={r.target_title}>{r.target_title}</a> : <span className="adm-muted">已删除</span>}</td>
                <td><span className={TONE[r.status] ?? "adm-tag"}>{r.status_label}</span></td>
                <td className="adm-nowrap">{r.ip || <span className="adm-muted">—</span>}</td>
                <td className="adm-nowrap">{formatDateTime(r.created_at)}</td>
                <td className="adm-actions-col">
                  {r.status !== 0 ? <button type="button" className="adm-link" disabled={!ready} onClick={() => void check([r.id], 0)}>通过</button> : null}
                  {r.status === 2 ? <button type="button" className="adm-link adm-danger" disabled={!ready} onClick={() => void check([r.id], 3)}>拒绝</button> : null}
                  {r.status === 0 ? <button type="button" className="adm-link adm-danger" disabled={!ready} onClick={() => void check([r.id], 1)}>禁用</button> : null}
                  <button type="button" className="adm-link adm-danger" disabled={!ready} onClick={() => setDeleting([r.id])}>删除</button>
                </td>
              </tr>
            )) : <tr><td colSpan={9} className="adm-empty">暂无评论</td></tr>}
          </tbody>
        </table>
      </div>
      <Pager page={q.page} size={p.pageSize} total={total} onPage={(page) => setQ({ ...q, page })} />
      <Modal open={!!reading} title="评论全文" width={560} onClose={() => setReading(null)}>
        {reading ? <p style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>{reading.content}</p> : null}
      </Modal>
      <Modal open={!!deleting} title="确认删除" width={420} onClose={() => setDeleting(null)}>
        <p>{deleting?.length === 1 ? "确定删除这条评论吗？" : `确定删除选中的 ${deleting?.length} 条评论吗？`}删除评论会一并删除它下面的回复，且不可恢复。</p>
        <div className="adm-form-actions"><button type="button" className="adm-btn" onClick={() => setDeleting(null)}>取消</button><button type="button" className="adm-btn adm-btn-danger" onClick={() => void remove()}>确定删除</button></div>
      </Modal>
    </div>
  );
}
