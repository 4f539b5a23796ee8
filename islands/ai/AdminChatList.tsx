import { useCallback, useState } from "react";
import { useHydrated, useReloadOnChange } from "../admin/useHydrated.ts";
import { formatDateTime } from "#src/lib/format.ts";
import { api } from "../api.ts";
import { Pager } from "../admin/AdminCells.tsx";
import { Drawer, Modal, type Opt } from "../admin/AdminKit.tsx";
import { toast } from "../toast.ts";
import { ChatFilters, NO_FILTER, type ChatFilter } from "./AdminChatFilters.tsx";
import { ms, MessageView, StatusTag, topicHref, userLink, type ChatDetail, type ChatRow } from "./AdminChatParts.tsx";

interface ListData { total: number; message: ChatRow[]; totals: { questions: number; tokens: number } }
export interface AdminChatListProps { initial: ListData; pageSize: number; statuses: Opt[] }

/** "11-24 21:43" this year, the full date-time otherwise (the cell's title always has it). */
const shortTime = (ms: number) => {
  const full = formatDateTime(ms);
  return full.slice(0, 4) === formatDateTime(Date.now()).slice(0, 4) ? full.slice(5) : full;
};

type Deleting = { kind: "message"; ids: number[] } | { kind: "topic"; id: number; title: string };

/** /admin/ai/chat: every user's questions and answers, filtered, paged, opened in a drawer and deleted. */
export default function AdminChatList(p: AdminChatListProps) {
  const [data, setData] = useState(p.initial);
  const [q, setQ] = useState({ page: 1, f: NO_FILTER as ChatFilter });
  const [picked, setPicked] = useState<number[]>([]);
  const [open, setOpen] = useState<ChatDetail | null>(null);
  const [deleting, setDeleting] = useState<Deleting | null>(null);
  const ready = useHydrated();

  const load = useCallback(async () => {
    const r = await api<ListData>("GET", "/chat/message/all", { query: { page: q.page, size: p.pageSize, ...q.f } });
    if (!r.ok || !r.data) return toast(r.message || "加载失败", "error");
    setData(r.data);
    setPicked([]);
  }, [q, p.pageSize]);
  useReloadOnChange(load);

  const show = async (id: number) => {
    const r = await api<ChatDetail>("GET", "/chat/message/detail", { query: { id } });
    if (!r.ok || !r.data) return toast(r.message || "加载失败", "error");
    setOpen(r.data);
  };
  const remove = async () => {
    const d = deleting!;
    const r = d.kind === "message" ? await api("DELETE", "/chat/message", { body: { id: d.ids } }) : await api("DELETE", "/chat/topic/all", { body: { id: [d.id] } });
    setDeleting(null);
    if (!r.ok) return toast(r.message || "删除失败", "error");
    toast("删除成功", "success");
    setOpen(null);
    void load();
  };
  const rows = data.message;
  const all = rows.length > 0 && picked.length === rows.length;
  const flip = (id: number) => setPicked(picked.includes(id) ? picked.filter((x) => x !== id) : [...picked, id]);

  return (
    <div className="adm-table-wrap">
      <ChatFilters statuses={p.statuses} ready={ready} onApply={(f) => setQ({ page: 1, f })} />
      <div className="adm-toolbar">
        <span className="adm-muted" role="status">{`共 ${data.totals.questions.toLocaleString("zh-CN")} 次提问，合计 ${data.totals.tokens.toLocaleString("zh-CN")} tokens`}</span>
        <span className="adm-spacer" />
        <button type="button" className="adm-btn adm-btn-danger" disabled={!ready || !picked.length} onClick={() => setDeleting({ kind: "message", ids: picked })}>批量删除</button>
      </div>
      <div className="adm-scroll">
        <table className="adm-table">
          <thead>
            <tr>
              <th className="adm-check"><input type="checkbox" aria-label="全选" checked={all} onChange={() => setPicked(all ? [] : rows.map((r) => r.id))} /></th>
              <th>时间</th><th>用户</th><th>会话</th><th>问题</th><th>回答</th><th>状态</th><th>Tokens</th><th>首字</th><th>引用</th>
              <th className="adm-actions-col">操作</th>
            </tr>
          </thead>
          <tbody>
            {rows.length ? rows.map((r) => (
              <tr key={r.id}>
                <td className="adm-check"><input type="checkbox" aria-label={`选择第 ${r.id} 条`} checked={picked.includes(r.id)} onChange={() => flip(r.id)} /></td>
                <td className="adm-nowrap" title={formatDateTime(r.created_at)}>{shortTime(r.created_at)}</td>
                <td className="adm-nowrap">{userLink(r)}</td>
                <td><a className="adm-ellipsis" style={{ maxWidth: 120 }} href={topicHref(r.topic_id)} title={r.topic_title}>{r.topic_title || "未命名会话"}</a></td>
                <td><span className="adm-ellipsis" style={{ maxWidth: 150 }} title={r.question}>{r.question}</span></td>
                <td><span className="adm-ellipsis" style={{ maxWidth: 150 }} title={r.answer}>{r.answer || <span className="adm-muted">—</span>}</span></td>
                <td><StatusTag row={r} /></td>
                <td>{r.total_tokens.toLocaleString("zh-CN")}</td>
                <td className="adm-nowrap">{ms(r.first_token_ms)}</td>
                <td>{r.ref_count}</td>
                <td className="adm-actions-col">
                  <button type="button" className="adm-link" disabled={!ready} onClick={() => void show(r.id)}>详情</button>
                  <button type="button" className="adm-link adm-danger" disabled={!ready} onClick={() => setDeleting({ kind: "message", ids: [r.id] })}>删除</button>
                </td>
              </tr>
            )) : <tr><td colSpan={11} className="adm-empty">暂无对话记录</td></tr>}
          </tbody>
        </table>
      </div>
      <Pager page={q.page} size={p.pageSize} total={data.total} onPage={(page) => setQ({ ...q, page })} />
      <Drawer open={!!open} title="对话详情" onClose={() => setOpen(null)}>
        {open ? (
          <>
            <MessageView m={open} />
            <div className="adm-form-actions">
              <a className="adm-btn" href={topicHref(open.topic_id)}>查看整个会话</a>
              <button type="button" className="adm-btn adm-btn-danger" onClick={() => setDeleting({ kind: "topic", id: open.topic_id, title: open.topic_title })}>删除整个会话</button>
              <button type="button" className="adm-btn adm-btn-danger" onClick={() => setDeleting({ kind: "message", ids: [open.id] })}>删除此条</button>
            </div>
          </>
        ) : null}
      </Drawer>
      <Modal open={!!deleting} title="确认删除" width={420} onClose={() => setDeleting(null)}>
        <p>
          {deleting?.kind === "topic" ? `确定删除会话「${deleting.title || "未命名会话"}」及其全部对话吗？` : deleting?.ids.length === 1 ? "确定删除这条对话记录吗？" : `确定删除选中的 ${deleting?.ids.length} 条对话记录吗？`}
          删除后不可恢复。
        </p>
        <div className="adm-form-actions"><button type="button" className="adm-btn" onClick={() => setDeleting(null)}>取消</button><button type="button" className="adm-btn adm-btn-danger" onClick={() => void remove()}>确定删除</button></div>
      </Modal>
    </div>
  );
}
