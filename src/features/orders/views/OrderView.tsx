import OrderPay, { type OrderPayProps } from "#islands/commerce/OrderPay.tsx";
import { formatDateTime } from "#src/lib/format.ts";
import { Island } from "#src/views/Island.tsx";
import { formatYuan } from "../pricing.ts";
import { monthsLabel, orderTypeLabel } from "./labels.ts";

export interface OrderSummary {
  order_no: string;
  order_type: number;
  product_title: string;
  quantity: number;
  amount: number;
  discount: number;
  credits: number;
  vip_months: number;
  created_at: number;
}

/** /order: what is being bought (left) and how to pay it (the OrderPay island, right). */
export function OrderView({ order: o, productHref, pay, creditName }: { order: OrderSummary; productHref: string; pay: OrderPayProps; creditName: string }) {
  const rows: [string, React.ReactNode][] = [
    ["商品", productHref ? <a href={productHref}>{o.product_title}</a> : o.product_title],
    ["类型", orderTypeLabel(o.order_type, creditName)],
  ];
  if (o.order_type === 3 && o.product_title !== `${o.credits} ${creditName}`) rows.push([`到账${creditName}`, `${o.credits} ${creditName}`]);
  if (o.order_type === 2) rows.push(["会员时长", monthsLabel(o.vip_months)]);
  rows.push(["订单号", <span className="order-no">{o.order_no}</span>], ["下单时间", formatDateTime(o.created_at)]);
  if (o.discount > 0) rows.push(["优惠", `-¥${formatYuan(o.discount)}`]);
  return (
    <div className="container order-page">
      <h1 className="order-title">订单支付</h1>
      <div className="order-layout">
        <section className="card order-summary" aria-labelledby="order-summary-title">
          <h2 id="order-summary-title" className="card-title">订单信息</h2>
          <dl className="order-info">
            {rows.map(([k, v]) => (
              <div key={k}><dt>{k}</dt><dd>{v}</dd></div>
            ))}
          </dl>
          <p className="order-total">应付金额<strong>{`¥${formatYuan(o.amount)}`}</strong></p>
        </section>
        <section className="card order-pay-card" aria-label="支付">
          <Island name="OrderPay" component={OrderPay} props={pay} />
        </section>
      </div>
    </div>
  );
}
