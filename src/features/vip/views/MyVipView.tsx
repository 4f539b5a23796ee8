import { VipIcon } from "#islands/commerce/VipIcon.tsx";
import { EmptyState } from "#src/features/me/views/parts.tsx";
import { OrderTable, Pager, type OrderRowView } from "#src/features/orders/views/MyOrders.tsx";
import { formatDateTime } from "#src/lib/format.ts";

export interface MyVipProps {
  state: { enable: boolean; is_vip: boolean; vip_until: number | null; plan: { title: string } | null };
  icon: string;
  perks: string[];
  orders: { total: number; rows: OrderRowView[]; page: number; size: number };
  creditName: string;
}

/** /me/vip: membership state and expiry, what it grants, and the member's VIP purchases. */
export function MyVipView({ state, icon, perks, orders, creditName }: MyVipProps) {
  if (!state.enable && !state.is_vip && !orders.total) {
    return <EmptyState icon="vip" title="本站暂未开放 VIP 会员" text="网站开放 VIP 后，你可以在这里开通与查看会员信息。" />;
  }
  const lapsed = !state.is_vip && !!state.vip_until;
  return (
    <>
      <div className={state.is_vip ? "my-vip my-vip-on" : "my-vip"}>
        <div className="my-vip-mark">{state.is_vip ? <VipIcon icon={icon} size={44} /> : <svg viewBox="0 0 24 24" width="44" height="44" aria-hidden="true"><rect width="24" height="24" rx="6" fill="#e5e6eb" /><path d="M5 9l3.6 3L12 6.5l3.4 5.5L19 9l-1.5 8.5h-11z" fill="#fff" /></svg>}</div>
        <div className="my-vip-info">
          <p className="my-vip-title">{state.is_vip ? `VIP 会员${state.plan ? ` · ${state.plan.title}` : ""}` : lapsed ? "VIP 会员已到期" : "你还不是 VIP 会员"}</p>
          <p className="muted">{state.is_vip ? `有效期至 ${formatDateTime(state.vip_until)}` : lapsed ? `已于 ${formatDateTime(state.vip_until)} 到期` : "开通后即可享受下方会员权益"}</p>
        </div>
        {state.enable ? <a className="btn btn-primary" href="/joinvip">{state.is_vip || lapsed ? "续费会员" : "开通 VIP"}</a> : null}
      </div>
      {state.enable ? (
        <>
          <h2 className="my-vip-sub">会员权益</h2>
          <ul className="my-vip-perks">{perks.map((p) => <li key={p}>{p}</li>)}</ul>
        </>
      ) : null}
      <h2 className="my-vip-sub">购买记录</h2>
      {orders.rows.length ? (
        <>
          <OrderTable rows={orders.rows} creditName={creditName} now={Date.now()} />
          <Pager base="/me/vip" filter={{ page: orders.page, order_type: 0, status: 0 }} total={orders.total} size={orders.size} />
        </>
      ) : <p className="muted my-vip-none">还没有 VIP 购买记录。</p>}
    </>
  );
}
