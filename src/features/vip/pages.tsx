import { Hono } from "hono";
import { creditName, getSettings } from "#src/features/settings/service.ts";
import { EmptyState } from "#src/features/me/views/parts.tsx";
import { listUserOrders, vipStateOf } from "#src/features/orders/service.ts";
import { MyOrders, orderFilterOf } from "#src/features/orders/views/MyOrders.tsx";
import type { AppEnv } from "#src/http/context.ts";
import { DefaultLayout } from "#src/views/layouts/DefaultLayout.tsx";
import { renderPage } from "#src/views/render.tsx";
import { listPlans } from "./plans.ts";
import { JoinVipView } from "./views/JoinVipView.tsx";
import { MyVipView } from "./views/MyVipView.tsx";
import { vipPerks } from "./views/perks.ts";

/**
 * /joinvip (spec §2: buy VIP) and the bodies of the personal centre's /me/order and /me/vip, which
 * me/routes.tsx renders inside its layout. Per user (state, login link), so never page-cached.
 */
export const joinVipRoutes = new Hono<AppEnv>();

const ORDERS_SIZE = 10;
const vipIcon = () => String(getSettings().vip.icon || "");

joinVipRoutes.get("/joinvip", (c) => {
  const u = c.get("user");
  const enable = !!getSettings().vip.enable;
  const url = new URL(c.req.url);
  const loginHref = u ? null : `/login?redirect=${encodeURIComponent(url.pathname + url.search)}`;
  const plans = enable ? listPlans({ enabledOnly: true }) : [];
  const st = u && enable ? vipStateOf(u.id) : null;
  const state = {
    enable, icon: vipIcon(), perks: vipPerks(),
    member: u && st ? { username: u.username, vip_until: st.vip_until, is_vip: st.is_vip, plan: st.plan?.title ?? "" } : null,
  };
  const props = {
    plans: plans.map((p) => ({ id: p.id, title: p.title, months: p.months, price: p.price, original_price: p.original_price, benefits: p.benefits.split(/\r?\n/).map((b) => b.trim()).filter(Boolean) })),
    loginHref, isVip: !!st?.is_vip,
  };
  return renderPage(c, <DefaultLayout><JoinVipView state={state} plans={props} /></DefaultLayout>, {
    meta: { title: "开通 VIP 会员", description: "开通 VIP 会员：免广告浏览、付费文档下载优惠等会员专属权益。", canonical: "/joinvip" },
  });
});

/** /me/order's body: the member's own orders with filters and pages. */
export function myOrdersBody(userId: number, query: (k: string) => string | undefined) {
  const filter = orderFilterOf(query);
  const name = creditName();
  const r = listUserOrders(userId, { page: filter.page, size: ORDERS_SIZE, order_type: filter.order_type || undefined, status: filter.status || undefined });
  const vipOn = !!getSettings().vip.enable;
  const empty = <EmptyState icon="order" title="还没有订单" text={`购买文档、开通 VIP 或${name}充值后，订单会出现在这里。`} action={vipOn ? { href: "/joinvip", label: "开通 VIP" } : { href: "/", label: "去发现文档" }} />;
  return <MyOrders filter={filter} total={r.total} rows={r.order} size={ORDERS_SIZE} creditName={name} empty={empty} />;
}

/** /me/vip's body: state, expiry, perks and VIP purchases. */
export function myVipBody(userId: number, query: (k: string) => string | undefined) {
  const page = orderFilterOf(query).page;
  const st = vipStateOf(userId);
  const r = listUserOrders(userId, { page, size: ORDERS_SIZE, order_type: 2 });
  return <MyVipView state={st} icon={vipIcon()} perks={vipPerks()} orders={{ total: r.total, rows: r.order, page, size: ORDERS_SIZE }} creditName={creditName()} />;
}
