import JoinVip, { type JoinVipProps } from "#islands/commerce/JoinVip.tsx";
import { VipIcon } from "#islands/commerce/VipIcon.tsx";
import { EmptyState } from "#src/features/me/views/parts.tsx";
import { formatDateTime } from "#src/lib/format.ts";
import { Island } from "#src/views/Island.tsx";

export interface JoinVipState {
  /** vip.enable */
  enable: boolean;
  icon: string;
  /** null for visitors */
  member: { username: string; vip_until: number | null; is_vip: boolean; plan: string } | null;
  perks: string[];
}

function Status({ s, loginHref }: { s: JoinVipState; loginHref: string | null }) {
  const m = s.member;
  if (!m) return <p className="joinvip-state">已有账号？<a href={loginHref ?? "/login"}>登录</a>后开通，会员权益立即生效。</p>;
  if (m.is_vip) {
    return (
      <p className="joinvip-state joinvip-state-on">
        <VipIcon icon={s.icon} size={18} />
        <span>{`${m.username}，你是尊贵的 VIP 会员${m.plan ? `（${m.plan}）` : ""}，有效期至 ${formatDateTime(m.vip_until)}；续费将从到期时间起顺延。`}</span>
      </p>
    );
  }
  return <p className="joinvip-state">{m.vip_until ? `${m.username}，你的 VIP 会员已于 ${formatDateTime(m.vip_until)} 到期，续费即可恢复会员权益。` : `${m.username}，你还不是 VIP 会员，开通后权益立即生效。`}</p>;
}

/** /joinvip: the member's VIP state, the plans side by side, and what VIP grants. */
export function JoinVipView({ state, plans }: { state: JoinVipState; plans: JoinVipProps }) {
  return (
    <div className="container joinvip">
      <section className="joinvip-hero">
        <h1><VipIcon icon={state.icon} size={30} /><span>开通 VIP 会员</span></h1>
        <p className="joinvip-lead">免广告浏览、付费文档下载优惠，更多会员专属权益。</p>
        {state.enable ? <Status s={state} loginHref={plans.loginHref} /> : null}
      </section>
      {!state.enable ? (
        <section className="card"><EmptyState icon="vip" title="本站暂未开放 VIP 会员" text="网站开放 VIP 后，你可以在这里选择套餐开通会员。" action={{ href: "/", label: "返回首页" }} /></section>
      ) : plans.plans.length ? (
        <>
          <Island name="JoinVip" component={JoinVip} props={plans} />
          <section className="card joinvip-perks" aria-labelledby="joinvip-perks-title">
            <h2 id="joinvip-perks-title" className="card-title">会员权益</h2>
            <ul>{state.perks.map((p) => <li key={p}>{p}</li>)}</ul>
          </section>
        </>
      ) : (
        <section className="card"><EmptyState icon="vip" title="暂无可开通的套餐" text="管理员上架会员套餐后，你可以在这里开通。" action={{ href: "/", label: "返回首页" }} /></section>
      )}
    </div>
  );
}
