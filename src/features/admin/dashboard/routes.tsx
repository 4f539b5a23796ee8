import { Hono } from "hono";
import { adminApi, adminPage } from "#src/http/adminOnly.ts";
import { grantsOf } from "#src/features/permissions/service.ts";
import { untrustedProxySeen, type AppContext, type AppEnv } from "#src/http/context.ts";
import { Island } from "#src/views/Island.tsx";
import AdminSysInfo from "#islands/admin/AdminSysInfo.tsx";
import { searchStats } from "#src/features/search/records.ts";
import { SearchStatsPanel } from "#src/features/search/recordsPanel.tsx";
import { renderAdmin } from "../page.tsx";
import { ActivityChart } from "./ActivityChart.tsx";
import { AiUsagePanel } from "./AiUsagePanel.tsx";
import { RevenuePanel } from "./RevenuePanel.tsx";
import { revenue } from "./revenue.ts";
import { chatStats } from "#src/features/ai/admin/chatAdmin.ts";
import { envs } from "./envs.ts";
import { maintenanceCard, releaseCard } from "#src/features/ops/views.tsx";
import { activity, device, stats, type Stats } from "./service.ts";

export const dashboardRoutes = new Hono<AppEnv>();

dashboardRoutes.get("/api/v1/stats", adminApi, (c) => c.json({ ...stats(), search: searchStats() }));
dashboardRoutes.get("/api/v1/envs", adminApi, async (c) => c.json({ envs: await envs() }));
dashboardRoutes.get("/api/v1/device", adminApi, (c) => c.json(device()));

const CARDS: { key: keyof Stats; label: string; href?: string }[] = [
  { key: "user_count", label: "用户" },
  { key: "document_count", label: "文档" },
  { key: "article_count", label: "文章" },
  { key: "category_count", label: "分类" },
  { key: "attachment_count", label: "附件", href: "/admin/attachment" },
  { key: "navigation_count", label: "导航", href: "/admin/navigation" },
  { key: "friendlink_count", label: "友情链接", href: "/admin/friendlink" },
  { key: "banner_count", label: "横幅", href: "/admin/banner" },
  { key: "advertisement_count", label: "广告", href: "/admin/advertisement" },
];

const mayCall = (c: AppContext, route: string) => {
  const user = c.get("user");
  return !!user && (user.is_root || grantsOf(user.id).keys.has(route));
};

function dashboard(c: AppContext) {
  const s = stats();
  const days = activity(14);
  return renderAdmin(c, {
    title: "控制面板",
    active: "dashboard",
    children: (
      <>
        {untrustedProxySeen() ? <p className="adm-card adm-error" role="alert">检测到请求带有 X-Forwarded-For 头，但未设置 TRUST_PROXY=1：若网站位于反向代理之后，所有访客会共用代理的地址，按 IP 的登录、验证码和下载限制将误伤所有人。请在代理之后设置 TRUST_PROXY=1（仅当代理会覆盖该头时），详见 README「Configuration」。</p> : null}
        <ul className="adm-stats">
          {CARDS.map((k) => {
            const body = <><span className="adm-stat-label">{k.label}</span><strong className="adm-stat-value">{s[k.key].toLocaleString("zh-CN")}</strong></>;
            return <li key={k.key}>{k.href ? <a href={k.href}>{body}</a> : <div>{body}</div>}</li>;
          })}
        </ul>
        <section className="adm-card">
          <h2 className="adm-card-title">最近 14 天动态</h2>
          <ActivityChart days={days} />
        </section>
        {/* Money is shown to those who may list orders. */}
        {mayCall(c, "GET /api/v1/order/list") ? <RevenuePanel revenue={revenue(30)} /> : null}
        {mayCall(c, "GET /api/v1/stats") ? <SearchStatsPanel {...searchStats()} /> : null}
        {mayCall(c, "GET /api/v1/chat/stats") ? <AiUsagePanel days={chatStats(14)} /> : null}
        {/* It calls /device and /envs; a user granted other pages only would meet two 403s. */}
        {mayCall(c, "GET /api/v1/device") && mayCall(c, "GET /api/v1/envs") ? <Island name="AdminSysInfo" component={AdminSysInfo} props={{ device: device() }} /> : null}
        {mayCall(c, "GET /api/v1/release") ? releaseCard() : null}
        {mayCall(c, "PUT /api/v1/sqlmode") ? maintenanceCard() : null}
      </>
    ),
  });
}

dashboardRoutes.get("/admin", adminPage, dashboard);
dashboardRoutes.get("/admin/index", adminPage, dashboard);
dashboardRoutes.get("/admin/dashboard", adminPage, dashboard);
