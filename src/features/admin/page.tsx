import type { ReactNode } from "react";
import { findUserById } from "#src/features/auth/users.ts";
import { getSettings } from "#src/features/settings/service.ts";
import type { AppContext } from "#src/http/context.ts";
import { unauthorized } from "#src/lib/errors.ts";
import { allowPagesOf } from "#src/http/adminOnly.ts";
import { Island } from "#src/views/Island.tsx";
import { AdminLayout } from "#src/views/layouts/AdminLayout.tsx";
import { renderPage } from "#src/views/render.tsx";
import AdminTable, { type AdminTableProps } from "#islands/admin/AdminTable.tsx";

/** Renders an admin screen inside the admin layout; never cached anywhere (per-user, private). */
export async function renderAdmin(c: AppContext, opts: { title: string; active: string; children: ReactNode }): Promise<Response> {
  const me = c.get("user");
  const u = me ? findUserById(me.id) : undefined;
  if (!u) throw unauthorized();
  const sys = getSettings().system;
  const profile = {
    username: u.username, realname: u.realname, identity: u.identity, email: u.email ?? "", mobile: u.mobile ?? "", address: u.address, signature: u.signature,
  };
  const res = await renderPage(
    c,
    <AdminLayout title={opts.title} active={opts.active} sitename={String(sys.sitename)} user={{ username: u.username, avatar: u.avatar }} profile={profile} allowPages={allowPagesOf(me)}>
      {opts.children}
    </AdminLayout>,
    { styles: "admin", bodyClass: "adm-body", meta: { title: `${opts.title} - 管理后台`, noindex: true } },
  );
  res.headers.set("Cache-Control", "no-store, private");
  return res;
}

/** A screen that is one generic CRUD table (navigation, friend links, banners, ads, attachments). */
export function renderTablePage(c: AppContext, opts: { title: string; active: string; intro?: ReactNode; table: AdminTableProps }) {
  return renderAdmin(c, {
    title: opts.title,
    active: opts.active,
    children: (
      <section className="adm-card">
        {opts.intro ? <div className="adm-intro">{opts.intro}</div> : null}
        <Island name="AdminTable" component={AdminTable} props={opts.table} />
      </section>
    ),
  });
}
