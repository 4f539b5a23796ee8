import { Hono } from "hono";
import { GROUP_BY_NAME } from "#src/features/settings/definitions.ts";
import { listConfig } from "#src/features/settings/service.ts";
import { adminPage } from "#src/http/adminOnly.ts";
import type { AppEnv } from "#src/http/context.ts";
import { Island } from "#src/views/Island.tsx";
import AdminConfigForm from "#islands/AdminConfigForm.tsx";
import { renderAdmin } from "../page.tsx";

export const configRoutes = new Hono<AppEnv>();

// Groups this screen edits; later issues add theirs (llm, sms, pay…) with their own screens.
const SCREENS: Record<string, string> = { system: "系统配置", footer: "底链配置", security: "安全配置", display: "显示配置" };

configRoutes.get("/admin/config/:group{system|footer|security|display}", adminPage, (c) => {
  const group = c.req.param("group");
  const def = GROUP_BY_NAME.get(group)!;
  return renderAdmin(c, {
    title: SCREENS[group]!,
    active: `config/${group}`,
    children: (
      <section className="adm-card">
        <h2 className="adm-card-title">{def.label}</h2>
        <Island name="AdminConfigForm" component={AdminConfigForm} props={{ category: group, items: listConfig([group]) }} />
      </section>
    ),
  });
});

configRoutes.get("/admin/config", adminPage, (c) => c.redirect("/admin/config/system", 302));
