// Pieces of the 订单管理 screen (no default export: not an island itself): labels, the detail drawer's
// body with the order's payment log, and the 系统充值 form.
import { useEffect, useState } from "react";
import { ORDER_TYPE_TITLE, PAY_TYPE_TITLE } from "#src/features/orders/types.ts";
import { formatDateTime, formatPrice } from "#src/lib/format.ts";
import { api } from "../api.ts";
import { toast } from "../toast.ts";
import { FieldInput, FormRow, missingRequired, type FieldDef, type Opt } from "./AdminKit.tsx";

export interface OrderRow {
  id: number; order_no: string; user_id: number; username: string; order_type: number; product_id: number; product_title: string;
  quantity: number; amount: number; discount: number; credits: number; credit_price: number; vip_months: number; payment_type: number;
  status: number; transaction_id: string; paid_at: number | null; closed_at: number | null; expire_at: number; remark: string;
  created_at: number; updated_at: number;
}
export interface OrderTotals { count: number; paid_amount: number; paid_count: number; credits: number }
export interface OrderList { total: number; order: OrderRow[]; totals: OrderTotals }

// Spec §3 codes, titled where the order code titles them.
const optionsOf = (titles: Record<number, string>): Opt[] => Object.entries(titles).filter(([v]) => v !== "0").map(([v, label]) => ({ value: Number(v), label }));
export const ORDER_TYPES = optionsOf(ORDER_TYPE_TITLE);
export const ORDER_STATUSES = optionsOf({ 1: "待支付", 2: "已支付", 3: "已关闭" });
export const PAYMENT_TYPES = optionsOf(PAY_TYPE_TITLE);
const labelOf = (opts: Opt[], v: number, none = "—") => opts.find((o) => o.value === v)?.label ?? (v ? String(v) : none);
export const typeLabel = (v: number) => labelOf(ORDER_TYPES, v);
export const payLabel = (v: number) => labelOf(PAYMENT_TYPES, v, "未选择");

const STATUS_TONE: Record<number, string> = { 1: "adm-tag adm-tag-warn", 2: "adm-tag adm-tag-ok", 3: "adm-tag" };
export function OrderStatus({ status }: { status: number }) {
  return <span className={STATUS_TONE[status] ?? "adm-tag"}>{labelOf(ORDER_STATUSES, status)}</span>;
}

export const yuan = (fen: number) => `¥${formatPrice(fen)}`;
export const time = (ms: number | null | undefined) => (ms ? formatDateTime(ms) : "—");

interface LogRow { id: number; order_no: string; payment_type: number; event: string; ok: boolean; message: string; detail: string; ip: string; created_at: number }

// Event names of orders/paymentLog.ts PAY_EVENT; an unknown one shows as written.
const EVENTS: Record<string, string> = {
  created: "创建订单", pay_start: "发起支付", notify: "支付通知", query: "查询支付状态", close: "关闭订单", paid: "支付成功",
  late_paid: "关闭后到账", duplicate_payment: "重复支付", system_recharge: "系统充值", expire: "超时关闭",
};

const pretty = (s: string) => {
  try {
    return JSON.stringify(JSON.parse(s), null, 2);
  } catch {
    return s;
  }
};

/** GET /payment/log?order_no=…: every event of this order, oldest first. */
function PaymentLog({ orderNo }: { orderNo: string }) {
  const [rows, setRows] = useState<LogRow[] | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    let live = true;
    void api<{ total: number; log: LogRow[] }>("GET", "/payment/log", { query: { order_no: orderNo, size: 200 } }).then((r) => {
      if (!live) return;
      if (!r.ok || !r.data) return setError(r.message || "支付日志加载失败");
      setRows([...r.data.log].sort((a, b) => a.created_at - b.created_at || a.id - b.id));
    });
    return () => void (live = false);
  }, [orderNo]);
  if (error) return <p className="adm-error" role="alert">{error}</p>;
  if (!rows) return <p className="adm-muted">加载中…</p>;
  if (!rows.length) return <p className="adm-muted">暂无支付日志</p>;
  return (
    <ol className="adm-paylog">
      {rows.map((l) => (
        <li key={l.id}>
          <div className="adm-paylog-head">
            <span className={l.ok ? "adm-tag adm-tag-ok" : "adm-tag adm-tag-bad"}>{l.ok ? "成功" : "失败"}</span>
            <strong>{EVENTS[l.event] ?? l.event}</strong>
            {l.payment_type ? <span className="adm-muted">{payLabel(l.payment_type)}</span> : null}
            <span className="adm-spacer" />
            <span className="adm-muted adm-nowrap">{formatDateTime(l.created_at)}</span>
          </div>
          {l.message ? <p className="adm-paylog-msg">{l.message}</p> : null}
          {l.ip ? <p className="adm-help">IP：{l.ip}</p> : null}
          {l.detail ? <details><summary>详细数据</summary><pre className="adm-pre">{pretty(l.detail)}</pre></details> : null}
        </li>
      ))}
    </ol>
  );
}

/** Every field of one order, then its payment log. */
export function OrderDetail({ o, creditName }: { o: OrderRow; creditName: string }) {
  const rows: [string, React.ReactNode][] = [
    ["订单号", <code key="no">{o.order_no}</code>],
    ["订单 ID", o.id],
    ["状态", <OrderStatus key="st" status={o.status} />],
    ["用户", `${o.username || "（已删除）"}（ID ${o.user_id}）`],
    ["订单类型", typeLabel(o.order_type)],
    ["商品", o.product_title ? `${o.product_title}${o.product_id ? `（ID ${o.product_id}）` : ""}` : "—"],
    ["数量", o.quantity],
    ["实付金额", yuan(o.amount)],
    ["优惠金额", yuan(o.discount)],
    [`获得${creditName}`, o.credits],
    [`${creditName}价格`, o.credit_price || "—"],
    ["VIP 月数", o.vip_months || "—"],
    ["支付方式", payLabel(o.payment_type)],
    ["支付平台交易号", o.transaction_id ? <code key="tx">{o.transaction_id}</code> : "—"],
    ["下单时间", time(o.created_at)],
    ["支付时间", time(o.paid_at)],
    ["关闭时间", time(o.closed_at)],
    ["过期时间", time(o.expire_at)],
    ["更新时间", time(o.updated_at)],
    ["备注", o.remark || "—"],
  ];
  return (
    <>
      <dl className="adm-kv">{rows.map(([k, v]) => <div key={k}><dt>{k}</dt><dd>{v}</dd></div>)}</dl>
      <h3 className="adm-subtitle">支付日志</h3>
      <PaymentLog orderNo={o.order_no} />
    </>
  );
}

const RECHARGE_FIELDS = (creditName: string): FieldDef[] => [
  { name: "user_id", label: "用户", kind: "lookup", required: true, placeholder: "用户名或用户 ID", lookup: { path: "/user/list", key: "user", query: "wd", label: "username" }, help: "输入用户名或用户 ID 搜索" },
  { name: "amount", label: `充值${creditName}`, kind: "number", required: true, placeholder: "正整数", help: `直接加到用户的${creditName}余额，记为一笔已支付的系统充值订单` },
  { name: "remark", label: "备注", kind: "textarea", maxLength: 255, help: "如充值原因，仅管理员可见" },
];

/** POST /order/system/recharge; tells the caller the new order number. */
export function SystemRechargeForm({ creditName, onDone, onCancel }: { creditName: string; onDone: (orderNo: string) => void; onCancel: () => void }) {
  const fields = RECHARGE_FIELDS(creditName);
  const [v, setV] = useState<Record<string, unknown>>({ user_id: "", amount: "", remark: "" });
  const [busy, setBusy] = useState(false);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const missing = missingRequired(fields, v);
    if (missing) return toast(missing, "error");
    const amount = Number(v.amount);
    if (!Number.isInteger(amount) || amount <= 0) return toast(`充值${creditName}必须是正整数`, "error");
    setBusy(true);
    const r = await api<{ order_no: string; balance: number }>("POST", "/order/system/recharge", { body: { user_id: Number(v.user_id), amount, remark: String(v.remark ?? "").trim() } });
    setBusy(false);
    if (!r.ok || !r.data) return toast(r.message || "充值失败", "error");
    toast(`充值成功，用户当前${creditName}余额 ${r.data.balance}`, "success");
    onDone(r.data.order_no);
  };
  return (
    <form className="adm-form" onSubmit={submit} noValidate>
      {fields.map((f) => <FormRow key={f.name} f={f}><FieldInput f={f} value={v[f.name]} onChange={(x) => setV((s) => ({ ...s, [f.name]: x }))} /></FormRow>)}
      <div className="adm-form-actions">
        <button type="button" className="adm-btn" onClick={onCancel}>取消</button>
        <button type="submit" className="adm-btn adm-btn-primary" disabled={busy}>{busy ? "充值中…" : "确定充值"}</button>
      </div>
    </form>
  );
}
