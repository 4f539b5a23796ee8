import { useCallback, useState } from "react";
import { formatDateTime } from "#src/lib/format.ts";
import { api } from "../api.ts";
import { toast } from "../toast.ts";
import { Pager } from "./AdminCells.tsx";
import { AdminDateRange } from "./AdminDateRange.tsx";
import { Lookup } from "./AdminFields.tsx";
import { Drawer, Modal, type FieldDef, type Opt } from "./AdminKit.tsx";
import {
  ORDER_STATUSES, ORDER_TYPES, OrderDetail, OrderStatus, PAYMENT_TYPES, payLabel, SystemRechargeForm, typeLabel, yuan,
  type OrderList, type OrderRow,
} from "./AdminOrderParts.tsx";
import { useHydrated, useReloadOnChange } from "./useHydrated.ts";

export interface AdminOrderListProps {
  initial: OrderList;
  pageSize: number;
  creditName: string;
}

interface Filters { order_type: string; status: string; payment_type: string; order_no: string; user_id: number | null; start: string; end: string }
/** "11-24 21:43" this year, the full date-time otherwise (the title always has it). */
const shortTime = (ms: number) => {
  const full = formatDateTime(ms);
  return full.slice(0, 4) === formatDateTime(Date.now()).slice(0, 4) ? full.slice(5) : full;
};

const NONE: Filters = { order_type: "", status: "", payment_type: "", order_no: "", user_id: null, start: "", end: "" };

const SELECTS: { name: "order_type" | "status" | "payment_type"; label: string; options: Opt[] }[] = [
  { name: "order_type", label: "订单类型", options: ORDER_TYPES },
  { name: "status", label: "订单状态", options: ORDER_STATUSES },
  { name: "payment_type", label: "支付方式", options: PAYMENT_TYPES },
];
const USER_PICK: FieldDef = { name: "filter_user", label: "用户", kind: "lookup", placeholder: "按用户筛选：用户名或 ID", lookup: { path: "/user/list", key: "user", query: "wd", label: "username" } };

/** /admin/order: every order, filtered, with totals; detail drawer with the payment log; close, delete, 系统充值. */
export default function AdminOrderList(p: AdminOrderListProps) {
  const [data, setData] = useState(p.initial);
  const [q, setQ] = useState({ page: 1, f: NONE });
  const [orderNo, setOrderNo] = useState("");
  // Remounts the user picker after each pick, so it is empty again; the chosen user shows as a chip.
  const [pickKey, setPickKey] = useState(0);
  const [userName, setUserName] = useState("");
  const [picked, setPicked] = useState<number[]>([]);
  const [open, setOpen] = useState<OrderRow | null>(null);
  const [closing, setClosing] = useState<OrderRow | null>(null);
  const [deleting, setDeleting] = useState<number[] | null>(null);
  const [recharging, setRecharging] = useState(false);
  const ready = useHydrated();

  const load = useCallback(async () => {
    const { user_id, ...rest } = q.f;
    const r = await api<OrderList>("GET", "/order/list", { query: { page: q.page, size: p.pageSize, ...rest, user_id } });
    if (!r.ok || !r.data) return toast(r.message || "加载失败", "error");
    setData(r.data);
    setPicked([]);
    // The open drawer follows the reloaded row (e.g. closed just now).
    setOpen((o) => (o ? r.data!.order.find((x) => x.id === o.id) ?? o : o));
  }, [q, p.pageSize]);
  useReloadOnChange(load);

  const filter = (patch: Partial<Filters>) => setQ({ page: 1, f: { ...q.f, ...patch } });
  const byUser = (id: number, name: string) => (setUserName(name), filter({ user_id: id }));

  const close = async () => {
    const o = closing!;
    setClosing(null);
    const r = await api("PUT", "/order/system/close", { body: { order_no: o.order_no } });
    if (!r.ok) return toast(r.message || "关闭失败", "error");
    toast("订单已关闭", "success");
    void load();
  };
  const remove = async () => {
    const ids = deleting!;
    setDeleting(null);
    const r = await api("DELETE", "/order", { body: { id: ids } });
    if (!r.ok) return toast(r.message || "删除失败", "error");
    toast("删除成功", "success");
    if (open && ids.includes(open.id)) setOpen(null);
    void load();
  };

  const rows = data.order;
  const deletable = rows.filter((r) => r.status === 3);
  const all = deletable.length > 0 && picked.length === deletable.length;
  const flip = (id: number) => setPicked(picked.includes(id) ? picked.filter((x) => x !== id) : [...picked, id]);
  const t = data.totals;

  return (
    <div className="adm-table-wrap adm-orders">
      <div className="adm-toolbar adm-order-filters" role="search" aria-label="筛选订单">
        {SELECTS.map((s) => (
          <select key={s.name} aria-label={s.label} value={q.f[s.name]} disabled={!ready} onChange={(e) => filter({ [s.name]: e.target.value })}>
            <option value="">全部{s.label}</option>
            {s.options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
          </select>
        ))}
        <form className="adm-row adm-order-search" onSubmit={(e) => (e.preventDefault(), filter({ order_no: orderNo.trim() }))}>
          <input type="search" aria-label="订单号" placeholder="订单号" maxLength={64} value={orderNo} onChange={(e) => setOrderNo(e.target.value)} />
          <button type="submit" className="adm-btn" disabled={!ready}>搜索</button>
        </form>
        <div className="adm-order-user">
          <Lookup key={pickKey} f={USER_PICK} value="" onChange={(id) => (setPickKey((k) => k + 1), byUser(Number(id), ""))} />
        </div>
        <AdminDateRange label="下单时间" disabled={!ready} value={{ start: q.f.start, end: q.f.end }} onChange={(v) => filter(v)} />
        {q.f.user_id ? (
          <button type="button" className="adm-btn adm-btn-sm" title="取消按用户筛选" onClick={() => filter({ user_id: null })}>
            {`用户：${userName || rows.find((r) => r.user_id === q.f.user_id)?.username || `ID ${q.f.user_id}`} ×`}
          </button>
        ) : null}
        <button type="button" className="adm-btn" disabled={!ready} onClick={() => (setOrderNo(""), setQ({ page: 1, f: NONE }))}>重置</button>
      </div>
      <div className="adm-toolbar">
        <p className="adm-order-totals" role="status">
          <span>共 <b>{t.count.toLocaleString("zh-CN")}</b> 笔</span>
          <span>已支付 <b>{t.paid_count.toLocaleString("zh-CN")}</b> 笔</span>
          <span>实收金额 <b>{yuan(t.paid_amount)}</b></span>
          <span>{p.creditName} <b>{t.credits.toLocaleString("zh-CN")}</b></span>
        </p>
        <span className="adm-spacer" />
        <button type="button" className="adm-btn adm-btn-danger" disabled={!ready || !picked.length} onClick={() => setDeleting(picked)}>批量删除</button>
        <button type="button" className="adm-btn adm-btn-primary" disabled={!ready} onClick={() => setRecharging(true)}>系统充值</button>
      </div>
      <div className="adm-scroll">
        <table className="adm-table">
          <thead>
            <tr>
              <th className="adm-check"><input type="checkbox" aria-label="全选已关闭的订单" checked={all} disabled={!deletable.length} onChange={() => setPicked(all ? [] : deletable.map((r) => r.id))} /></th>
              <th>订单号</th><th>用户</th><th>商品</th><th>金额</th><th>{p.creditName}</th><th>支付方式</th><th>状态</th><th>下单 / 支付时间</th>
              <th className="adm-actions-col">操作</th>
            </tr>
          </thead>
          <tbody>
            {rows.length ? rows.map((r) => (
              <tr key={r.id}>
                <td className="adm-check">
                  <input type="checkbox" aria-label={`选择订单 ${r.order_no}`} disabled={r.status !== 3} title={r.status === 3 ? undefined : "只能删除已关闭的订单"} checked={picked.includes(r.id)} onChange={() => flip(r.id)} />
                </td>
                <td><button type="button" className="adm-link adm-order-no" title="查看详情" disabled={!ready} onClick={() => setOpen(r)}>{r.order_no}</button></td>
                <td><button type="button" className="adm-link adm-ellipsis" style={{ maxWidth: 120 }} title="只看此用户的订单" disabled={!ready} onClick={() => byUser(r.user_id, r.username)}>{r.username || `#${r.user_id}`}</button></td>
                <td>
                  <span className="adm-ellipsis" style={{ maxWidth: 160 }} title={r.product_title}>{r.product_title || "—"}</span>
                  <br /><span className="adm-muted adm-small">{typeLabel(r.order_type)}</span>
                </td>
                <td className="adm-nowrap adm-num">{yuan(r.amount)}</td>
                <td className="adm-num">{r.credits ? r.credits.toLocaleString("zh-CN") : <span className="adm-muted">—</span>}</td>
                <td className="adm-nowrap">{payLabel(r.payment_type)}</td>
                <td><OrderStatus status={r.status} /></td>
                <td className="adm-nowrap adm-small">
                  <span title={`下单 ${formatDateTime(r.created_at)}`}>{shortTime(r.created_at)}</span>
                  <br />{r.paid_at ? <span className="adm-ok-text" title={`支付 ${formatDateTime(r.paid_at)}`}>{shortTime(r.paid_at)}</span> : <span className="adm-muted">未支付</span>}
                </td>
                <td className="adm-actions-col">
                  <button type="button" className="adm-link" disabled={!ready} onClick={() => setOpen(r)}>详情</button>
                  {r.status === 1 ? <button type="button" className="adm-link adm-danger" disabled={!ready} onClick={() => setClosing(r)}>关闭</button> : null}
                  {r.status === 3 ? <button type="button" className="adm-link adm-danger" disabled={!ready} onClick={() => setDeleting([r.id])}>删除</button> : null}
                </td>
              </tr>
            )) : <tr><td colSpan={10} className="adm-empty">暂无订单</td></tr>}
          </tbody>
        </table>
      </div>
      <Pager page={q.page} size={p.pageSize} total={data.total} onPage={(page) => setQ({ ...q, page })} />
      <Drawer open={!!open} title="订单详情" onClose={() => setOpen(null)}>
        {open ? (
          <>
            <OrderDetail key={`${open.id}-${open.status}`} o={open} creditName={p.creditName} />
            <div className="adm-form-actions">
              {open.status === 1 ? <button type="button" className="adm-btn adm-btn-danger" onClick={() => setClosing(open)}>关闭订单</button> : null}
              {open.status === 3 ? <button type="button" className="adm-btn adm-btn-danger" onClick={() => setDeleting([open.id])}>删除订单</button> : null}
              <button type="button" className="adm-btn" onClick={() => setOpen(null)}>返回</button>
            </div>
          </>
        ) : null}
      </Drawer>
      <Modal open={recharging} title="系统充值" width={560} onClose={() => setRecharging(false)}>
        {recharging ? <SystemRechargeForm creditName={p.creditName} onCancel={() => setRecharging(false)} onDone={() => (setRecharging(false), setOrderNo(""), setQ({ page: 1, f: NONE }))} /> : null}
      </Modal>
      <Modal open={!!closing} title="关闭订单" width={420} onClose={() => setClosing(null)}>
        <p>{`确定关闭订单 ${closing?.order_no ?? ""} 吗？`}关闭后用户无法再支付这笔订单，已发起的支付也会在支付平台关闭。</p>
        <div className="adm-form-actions"><button type="button" className="adm-btn" onClick={() => setClosing(null)}>取消</button><button type="button" className="adm-btn adm-btn-danger" onClick={() => void close()}>确定关闭</button></div>
      </Modal>
      <Modal open={!!deleting} title="确认删除" width={420} onClose={() => setDeleting(null)}>
        <p>{deleting?.length === 1 ? "确定删除这笔已关闭的订单吗？" : `确定删除选中的 ${deleting?.length} 笔已关闭订单吗？`}删除后不可恢复。</p>
        <div className="adm-form-actions"><button type="button" className="adm-btn" onClick={() => setDeleting(null)}>取消</button><button type="button" className="adm-btn adm-btn-danger" onClick={() => void remove()}>确定删除</button></div>
      </Modal>
    </div>
  );
}
