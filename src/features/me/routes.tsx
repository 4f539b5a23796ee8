import { Hono } from "hono";
import PasswordForm from "#islands/account/PasswordForm.tsx";
import ProfileForm from "#islands/account/ProfileForm.tsx";
import { findUserById } from "#src/features/auth/users.ts";
import { creditName } from "#src/features/settings/service.ts";
import type { AppContext, AppEnv } from "#src/http/context.ts";
import { unauthorized } from "#src/lib/errors.ts";
import { Island } from "#src/views/Island.tsx";
import { renderPage } from "#src/views/render.tsx";
import { MyDocuments } from "#src/features/documents/views/MyDocuments.tsx";
import { MyArticles } from "#src/features/articles/views/MyArticles.tsx";
import { MyDownloads } from "#src/features/downloads/views/MyDownloads.tsx";
import { meApi } from "./api.ts";
import { homepageRoutes } from "./homepage.tsx";
import { overviewOf } from "./service.ts";
import { MeIndexView } from "./views/MeIndexView.tsx";
import { MeLayout } from "./views/MeLayout.tsx";
import { MeFavorites } from "#src/features/reader/views/MeFavorites.tsx";
import { myOrdersBody, myVipBody } from "#src/features/vip/pages.tsx";

/** The personal centre (/me and its children), the public homepage (/user/{id}) and their APIs. */
export const meRoutes = new Hono<AppEnv>();
meRoutes.route("/", meApi);
meRoutes.route("/", homepageRoutes);

// siteGuards already sends anonymous visitors of /me* to /login; this is the type-level guarantee.
const self = (c: AppContext) => {
  const u = c.get("user");
  if (!u) throw unauthorized();
  return u;
};

const page = (c: AppContext, title: string, body: React.ReactNode) =>
  renderPage(c, <MeLayout>{body}</MeLayout>, { meta: { title, noindex: true } });

const card = (title: string, body: React.ReactNode) => (
  <section className="card me-card">
    <h1 className="card-title">{title}</h1>
    {body}
  </section>
);

meRoutes.get("/me", (c) => page(c, "个人中心", <MeIndexView data={overviewOf(self(c).id)} creditName={creditName()} />));

meRoutes.get("/me/profile", (c) => {
  const u = findUserById(self(c).id)!;
  const user = { username: u.username, realname: u.realname, identity: u.identity, email: u.email ?? "", mobile: u.mobile ?? "", address: u.address, signature: u.signature };
  return page(c, "个人资料", card("个人资料", <Island name="ProfileForm" component={ProfileForm} props={{ user }} />));
});

meRoutes.get("/me/password", (c) => {
  const u = self(c);
  return page(c, "修改密码", card("修改密码", <Island name="PasswordForm" component={PasswordForm} props={{ id: u.id, username: u.username }} />));
});

// Children whose content arrives with later features (articles, orders, VIP): each says what
// will appear here and links to the action that fills it once that section exists (sections.ts).
meRoutes.get("/me/document", (c) => page(c, "我的文档", card("我的文档", <MyDocuments userId={self(c).id} />)));

meRoutes.get("/me/article", (c) => page(c, "我的文章", card("我的文章", <MyArticles userId={self(c).id} />)));

meRoutes.get("/me/download", (c) => {
  const n = Math.max(1, Math.min(10_000, Math.floor(Number(c.req.query("page"))) || 1));
  return page(c, "我的下载", card("我的下载", <MyDownloads userId={self(c).id} page={n} creditName={creditName()} />));
});

meRoutes.get("/me/favorite", (c) =>
  page(c, "我的收藏", card("我的收藏", <MeFavorites userId={self(c).id} page={c.req.query("page")} type={c.req.query("type")} />)));

// Orders and VIP belong to the commerce features (vip/pages.tsx); they render inside this layout.
meRoutes.get("/me/order", (c) => page(c, "我的订单", card("我的订单", myOrdersBody(self(c).id, (k) => c.req.query(k)))));

meRoutes.get("/me/vip", (c) => page(c, "VIP 会员", card("VIP 会员", myVipBody(self(c).id, (k) => c.req.query(k)))));
