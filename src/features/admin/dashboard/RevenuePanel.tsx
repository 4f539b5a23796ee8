import { formatPrice } from "#src/lib/format.ts";
import { ActivityChart, type ChartSeries } from "./ActivityChart.tsx";
import type { Revenue } from "./revenue.ts";

// The dashboard's "收入统计（近 30 天）": money received per day in 元 and orders per day.

const yuan = (v: number) => `¥${v.toFixed(2)}`;
const MONEY: readonly ChartSeries<"yuan">[] = [{ key: "yuan", label: "收入（元）", color: "#f5222d", format: yuan }];
const ORDERS: readonly ChartSeries<"created" | "paid">[] = [
  { key: "created", label: "新建订单", color: "#1677ff" },
  { key: "paid", label: "成交订单", color: "#52c41a" },
];

export function RevenuePanel({ revenue }: { revenue: Revenue }) {
  const today = revenue.days.at(-1) ?? { amount: 0, paid: 0, created: 0 };
  const days = revenue.days.map((d) => ({ ...d, yuan: d.amount / 100 }));
  const tiles = [
    ["今日收入", `¥${formatPrice(today.amount)}`],
    ["今日成交", today.paid.toLocaleString("zh-CN")],
    [`${revenue.days.length} 天收入`, `¥${formatPrice(revenue.amount)}`],
    [`${revenue.days.length} 天成交`, revenue.paid.toLocaleString("zh-CN")],
    ["待支付", revenue.pending.toLocaleString("zh-CN")],
  ] as const;
  return (
    <section className="adm-card" aria-labelledby="revenue-title">
      <h2 className="adm-card-title" id="revenue-title">
        {`收入统计（近 ${revenue.days.length} 天）`}
        <a className="adm-card-more" href="/admin/order">订单管理</a>
      </h2>
      <ul className="adm-stats">
        {tiles.map(([label, v]) => <li key={label}><a href="/admin/order"><span className="adm-stat-label">{label}</span><strong className="adm-stat-value">{v}</strong></a></li>)}
      </ul>
      <p className="adm-help">收入为已支付订单的实付金额，成交为已支付的订单数，均按支付时间、北京时间按天统计；积分支付与系统充值不计入收入。</p>
      <div className="adm-grid-2" style={{ marginTop: 12 }}>
        <ActivityChart days={days} series={MONEY} title="收入" compact />
        <ActivityChart days={days} series={ORDERS} title="订单" compact />
      </div>
    </section>
  );
}
