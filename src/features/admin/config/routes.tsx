import { Hono } from "hono";
import type { ReactNode } from "react";
import { GROUP_BY_NAME } from "#src/features/settings/definitions.ts";
import { listConfig } from "#src/features/settings/service.ts";
import { adminPage } from "#src/http/adminOnly.ts";
import type { AppContext, AppEnv } from "#src/http/context.ts";
import { emailTestCard } from "#src/features/email/adminTest.tsx";
import { searchIndexCard } from "#src/features/search/adminPanel.tsx";
import { llmSettingsPanel } from "#src/features/ai/admin/views.tsx";
import { Island } from "#src/views/Island.tsx";
import AdminConfigForm from "#islands/admin/AdminConfigForm.tsx";
import { renderAdmin } from "../page.tsx";
import { payScreen } from "./pay.tsx";
import { miniprogramCard, pageCacheCard } from "#src/features/ops/views.tsx";

export const configRoutes = new Hono<AppEnv>();

// Panels a feature shows below its group's form (e.g. the e-mail test), keyed by group name.
const EXTRAS: Record<string, (c: AppContext) => ReactNode> = {
  email: emailTestCard,
  search: searchIndexCard,
  ssr: pageCacheCard,
  miniprogram: miniprogramCard,
  vip: () => <p className="adm-card adm-muted">VIP 套餐（名称、时长、价格、权益说明）在 <a href="/admin/user/vip">用户管理 → VIP 管理</a> 中设置。</p>,
};
// Groups whose form is their own island (llm: provider presets fill base_url, plus 测试连接).
const FORMS: Record<string, (c: AppContext) => ReactNode> = { llm: llmSettingsPanel };

// Payment and recharge settings share one screen with the WeChat Pay certificate panel (issue 10);
// their old per-group addresses lead there. Registered before the generic route, which would 404 "pay".
configRoutes.get("/admin/config/pay", adminPage, (c) => renderAdmin(c, { title: "支付设置", active: "config/pay", children: payScreen(c) }));
configRoutes.get("/admin/config/payment", adminPage, (c) => c.redirect("/admin/config/pay", 302));
configRoutes.get("/admin/config/recharge", adminPage, (c) => c.redirect("/admin/config/pay", 302));
// The backup settings sit on the backup screen beside the archives they govern.
configRoutes.get("/admin/config/backup", adminPage, (c) => c.redirect("/admin/system/backup", 302));

// Every other settings group has its screen at /admin/config/<group>; the menu lists the same screens.
configRoutes.get("/admin/config/:group{[a-z_]+}", adminPage, (c) => {
  const group = c.req.param("group");
  const def = GROUP_BY_NAME.get(group);
  if (!def) return c.notFound();
  return renderAdmin(c, {
    title: def.label,
    active: `config/${group}`,
    children: FORMS[group]?.(c) ?? (
      <>
        <section className="adm-card">
          <h2 className="adm-card-title">{def.label}</h2>
          <Island name="AdminConfigForm" component={AdminConfigForm} props={{ category: group, items: listConfig([group]) }} />
        </section>
        {EXTRAS[group]?.(c)}
      </>
    ),
  });
});

configRoutes.get("/admin/config", adminPage, (c) => c.redirect("/admin/config/system", 302));
