import { useEffect, useState } from "react";
import { formatYuan } from "#src/features/orders/pricing.ts";
import { monthsLabel } from "#src/features/orders/views/labels.ts";
import { api } from "../api.ts";
import { toast } from "../toast.ts";

export interface JoinVipPlan { id: number; title: string; months: number; price: number; original_price: number; benefits: string[] }

export interface JoinVipProps {
  plans: JoinVipPlan[];
  /** null for visitors: each plan offers the login link instead */
  loginHref: string | null;
  isVip: boolean;
}

/**
 * /joinvip's plans side by side. Buying creates a VIP order for one period of the plan and opens
 * its order page; the server alone decides the price. Visitors get a login link that comes back.
 */
export default function JoinVip({ plans, loginHref, isVip }: JoinVipProps) {
  const [ready, setReady] = useState(false);
  const [busy, setBusy] = useState(0);
  useEffect(() => setReady(true), []);

  const buy = async (plan: JoinVipPlan) => {
    setBusy(plan.id);
    const r = await api<{ order_no: string }>("POST", "/order", { body: { order_type: 2, product_id: plan.id, quantity: 1 } });
    if (!r.ok || !r.data?.order_no) {
      setBusy(0);
      return toast(r.message || "订单创建失败", "error");
    }
    location.href = `/order?order_no=${encodeURIComponent(r.data.order_no)}`;
  };

  return (
    <ul className="vip-plans">
      {plans.map((p) => {
        const perMonth = p.months > 1 ? Math.round(p.price / p.months) : 0;
        return (
          <li key={p.id} className="vip-plan">
            <h2 className="vip-plan-title" id={`vip-plan-${p.id}`}>{p.title}</h2>
            <p className="vip-plan-price">
              <span className="vip-plan-now">{`¥${formatYuan(p.price)}`}</span>
              {p.original_price > p.price ? <del className="vip-plan-was" aria-label={`原价 ¥${formatYuan(p.original_price)}`}>{`¥${formatYuan(p.original_price)}`}</del> : null}
            </p>
            <p className="vip-plan-months">
              {`会员时长 ${monthsLabel(p.months)}`}
              {perMonth ? <span className="muted">{` · 约 ¥${formatYuan(perMonth)}/月`}</span> : null}
            </p>
            {p.benefits.length ? (
              <ul className="vip-plan-benefits" aria-label={`${p.title}权益`}>
                {p.benefits.map((b) => <li key={b}>{b}</li>)}
              </ul>
            ) : null}
            {loginHref ? (
              <a className="btn btn-primary btn-block" href={loginHref} aria-describedby={`vip-plan-${p.id}`}>登录后开通</a>
            ) : (
              <button type="button" className="btn btn-primary btn-block" aria-describedby={`vip-plan-${p.id}`} disabled={!ready || busy > 0} onClick={() => void buy(p)}>
                {busy === p.id ? "正在创建订单…" : isVip ? "立即续费" : "立即开通"}
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}
