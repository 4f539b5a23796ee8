import AvatarUpload from "#islands/account/AvatarUpload.tsx";
import SignButton from "#islands/account/SignButton.tsx";
import RechargeButton from "#islands/commerce/RechargeButton.tsx";
import { setting } from "#src/features/settings/service.ts";
import { VipBadge } from "#src/features/vip/views/VipBadge.tsx";
import { formatDate } from "#src/lib/format.ts";
import { Island } from "#src/views/Island.tsx";
import { getManifest } from "#src/views/assets.tsx";
import type { overviewOf } from "../service.ts";
import { countsOf } from "../service.ts";
import { Counts, CreditList, DynamicList, EmptyState, GroupChips } from "./parts.tsx";

export interface MeIndexProps {
  data: ReturnType<typeof overviewOf>;
  creditName: string;
}

/** /me: who I am, my balance and daily sign-in, my counters, my recent credits and activity. */
export function MeIndexView({ data, creditName }: MeIndexProps) {
  const u = data.user;
  return (
    <>
      <section className="card me-hero">
        <Island name="AvatarUpload" component={AvatarUpload} props={{ src: u.avatar, name: u.username }} />
        <div className="me-hero-info">
          <h1 className="me-name">
            <span>{u.username}</span>
            <VipBadge until={u.vip_until} size={20} />
            <GroupChips groups={data.groups} />
          </h1>
          <p className="me-signature">{u.signature || "这个人很懒，什么都没有留下"}</p>
          <p className="muted me-meta">
            <span>{`加入于 ${formatDate(u.created_at)}`}</span>
            <a href={`/user/${u.id}`}>查看个人主页 ›</a>
          </p>
        </div>
        <div className="me-wallet">
          <div className="me-balance">
            <strong>{u.credit_count}</strong>
            <span className="muted">{creditName}</span>
          </div>
          <Island name="SignButton" component={SignButton} props={{ creditName, signed: data.signed }} />
          {setting("recharge", "enable") ? <Island name="RechargeButton" component={RechargeButton} props={{ label: `${creditName}充值`, url: getManifest().islands.RechargeDialog ?? "" }} /> : null}
        </div>
      </section>
      <section className="card">
        <Counts items={countsOf(u)} />
      </section>
      <div className="me-grid">
        <section className="card">
          <h2 className="card-title">{`${creditName}明细`}</h2>
          {data.credits.length ? <CreditList rows={data.credits} creditName={creditName} /> : <EmptyState icon="coin" title={`还没有${creditName}记录`} text={`每日签到、上传文档都可以获得${creditName}`} />}
        </section>
        <section className="card">
          <div className="card-head">
            <h2 className="card-title">最近动态</h2>
            <a className="more" href={`/user/${u.id}`}>全部动态 ›</a>
          </div>
          {data.dynamic.length ? <DynamicList rows={data.dynamic} /> : <EmptyState icon="feed" title="暂无动态" />}
        </section>
      </div>
    </>
  );
}
