import { creditName, getSettings } from "#src/features/settings/service.ts";
import { layoutData, type CategoryNode } from "#src/features/site/layoutData.ts";
import HeaderNav from "#islands/HeaderNav.tsx";
import HeaderSearch from "#islands/HeaderSearch.tsx";
import MobileNav from "#islands/MobileNav.tsx";
import ProgressBar from "#islands/ProgressBar.tsx";
import UserMenu from "#islands/UserMenu.tsx";
import { getManifest } from "../assets.tsx";
import { hasAdminPages } from "#src/http/adminOnly.ts";
import { Island } from "../Island.tsx";
import { useRequest } from "../request.tsx";
import { AdSlot } from "./AdSlot.tsx";

const navCats = (cats: CategoryNode[]) => cats.map((c) => ({ id: c.id, title: c.title, children: c.children.map((s) => ({ id: s.id, title: s.title })) }));


export function SiteHeader() {
  const { path, search, user } = useRequest();
  const settings = getSettings();
  const data = layoutData();
  const logo = String(settings.system.logo || "") || getManifest().files["logo.svg"]!;
  const sitename = String(settings.system.sitename);
  const q = new URLSearchParams(search);
  const loginHref = path === "/login" ? "/login" : `/login?redirect=${encodeURIComponent(path + search)}`;
  const menuUser = user ? { id: user.id, username: user.username, avatar: user.avatar } : null;
  // Two levels are what the menus show; deeper navigation children are dropped.
  const navigation = data.navigation.map((n) => ({ ...n, children: n.children.map(({ children: _c, fixed: _f, ...s }) => s) }));
  const docCategories = navCats(data.docCategories);
  const articleCategories = navCats(data.articleCategories);
  return (
    <>
      <Island name="ProgressBar" component={ProgressBar} props={{}} />
      <AdSlot position="global_top" />
      <header className="site-header">
        <div className="container header-row">
          <a className="logo" href="/" title={sitename}>
            <img src={logo} alt={sitename} height={36} />
          </a>
          <div className="desktop-only header-nav">
            <Island name="HeaderNav" component={HeaderNav} props={{ path, docCategories, articleCategories, navigation }} />
          </div>
          <div className="desktop-only header-tools">
            <Island name="HeaderSearch" component={HeaderSearch} props={{ path, wd: path === "/search" ? (q.get("wd") ?? "").slice(0, 64) : "", type: Number(q.get("type")) === 1 ? 1 : 0 }} />
            <Island name="UserMenu" component={UserMenu} props={{ user: menuUser, showAdmin: hasAdminPages(user), enableRecharge: !!settings.recharge.enable, creditName: creditName(), loginHref }} />
          </div>
          <div className="mobile-only">
            <Island name="MobileNav" component={MobileNav} props={{
              user: menuUser, showAdmin: hasAdminPages(user), creditName: creditName(), articles: path.startsWith("/article"),
              docCategories, articleCategories, loginHref, navigation,
            }} />
          </div>
        </div>
      </header>
    </>
  );
}
