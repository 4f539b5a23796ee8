import { EmptyState } from "#src/features/me/views/parts.tsx";
import { formatDateTime } from "#src/lib/format.ts";
import { formatYuan } from "../pricing.ts";
import { orderStatusLabel, orderTypeLabel, paymentLabel } from "./labels.ts";

export interface OrderRowView {
  id: number;
  order_no: string;
  order_type: number;
  product_title: string;
  amount: number;
  credit_price: number;
  payment_type: number;
  status: number;
  expire_at: number;
  created_at: number;
}

export interface OrderFilter { page: number; order_type: number; status: number }

/** Reads ?page&order_type&status of /me/order; anything unknown means "all". */
export function orderFilterOf(q: (k: string) => string | undefined): OrderFilter {
  const pick = (k: string, allowed: number[]) => {
    const n = Number(q(k));
    return allowed.includes(n) ? n : 0;
  };
  return { page: Math.max(1, Math.min(10_000, Math.floor(Number(q("page"))) || 1)), order_type: pick("order_type", [1, 2, 3]), status: pick("status", [1, 2, 3]) };
}

const hrefOf = (base: string, f: OrderFilter, page: number) => {
  const p = new URLSearchParams();
  if (f.order_type) p.set("order_type", String(f.order_type));
  if (f.status) p.set("status", String(f.status));
  if (page > 1) p.set("page", String(page));
  const s = p.toString();
  return s ? `${base}?${s}` : base;
};

/** What the member paid: money in 元, or credits for a credits payment. */
export function paidText(o: OrderRowView, creditName: string): string {
  return o.payment_type === 5 || (o.amount === 0 && o.credit_price > 0) ? `${o.credit_price} ${creditName}` : `¥${formatYuan(o.amount)}`;
}

/** Rows of orders; pending ones that may still be paid link to their order page. */
export function OrderTable({ rows, creditName, now }: { rows: OrderRowView[]; creditName: string; now: number }) {
  return (
    <div className="order-table-wrap">
      <table className="order-table">
        <thead>
          <tr><th>商品</th><th>类型</th><th className="num">金额</th><th>支付方式</th><th>状态</th><th>下单时间</th><th>操作</th></tr>
        </thead>
        <tbody>
          {rows.map((o) => {
            const payable = o.status === 1 && o.expire_at > now;
            return (
              <tr key={o.id}>
                <td className="order-cell-title"><span className="order-product">{o.product_title || orderTypeLabel(o.order_type, creditName)}</span><span className="muted order-no">{o.order_no}</span></td>
                <td>{orderTypeLabel(o.order_type, creditName)}</td>
                <td className="num">{paidText(o, creditName)}</td>
                <td>{o.payment_type ? paymentLabel(o.payment_type, creditName) : "—"}</td>
                <td><span className={`order-state order-state-${o.status}`}>{o.status === 1 && !payable ? "已超时" : orderStatusLabel(o.status)}</span></td>
                <td className="muted">{formatDateTime(o.created_at)}</td>
                <td>{payable ? <a className="btn btn-primary btn-sm" href={`/order?order_no=${encodeURIComponent(o.order_no)}`}>去支付</a> : <a className="order-detail-link" href={`/order?order_no=${encodeURIComponent(o.order_no)}`}>详情</a>}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export function Pager({ base, filter, total, size }: { base: string; filter: OrderFilter; total: number; size: number }) {
  const pages = Math.max(1, Math.ceil(total / size));
  if (pages <= 1) return null;
  const page = Math.min(filter.page, pages);
  return (
    <nav className="pager" aria-label="分页">
      {page > 1 ? <a className="btn btn-sm" href={hrefOf(base, filter, page - 1)}>上一页</a> : null}
      <span className="muted">{page} / {pages}</span>
      {page < pages ? <a className="btn btn-sm" href={hrefOf(base, filter, page + 1)}>下一页</a> : null}
    </nav>
  );
}

/** /me/order: filters (a plain GET form, so it works without scripts), the table and pages. */
export function MyOrders({ filter, total, rows, size, creditName, empty }: { filter: OrderFilter; total: number; rows: OrderRowView[]; size: number; creditName: string; empty: React.ReactNode }) {
  const filtered = filter.order_type || filter.status;
  return (
    <>
      <form className="order-filters" method="get" action="/me/order" aria-label="筛选订单">
        <label>
          <span>类型</span>
          <select name="order_type" defaultValue={String(filter.order_type)}>
            <option value="0">全部类型</option>
            {[1, 2, 3].map((t) => <option key={t} value={t}>{orderTypeLabel(t, creditName)}</option>)}
          </select>
        </label>
        <label>
          <span>状态</span>
          <select name="status" defaultValue={String(filter.status)}>
            <option value="0">全部状态</option>
            {[1, 2, 3].map((s) => <option key={s} value={s}>{orderStatusLabel(s)}</option>)}
          </select>
        </label>
        <button type="submit" className="btn btn-sm">筛选</button>
        {filtered ? <a className="order-filters-reset" href="/me/order">清除筛选</a> : null}
      </form>
      {rows.length ? (
        <>
          <p className="muted order-count">{`共 ${total} 个订单`}</p>
          <OrderTable rows={rows} creditName={creditName} now={Date.now()} />
          <Pager base="/me/order" filter={filter} total={total} size={size} />
        </>
      ) : filtered ? <EmptyState icon="order" title="没有符合条件的订单" action={{ href: "/me/order", label: "查看全部订单" }} /> : empty}
    </>
  );
}
