import { creditName, getSettings } from "#src/features/settings/service.ts";
import { layoutData, type CategoryNode, type NavItem } from "#src/features/site/layoutData.ts";
import { isBuilt, SECTIONS } from "#src/features/site/sections.ts";
import HeaderNav from "#islands/site/HeaderNav.tsx";
import HeaderSearch from "#islands/site/HeaderSearch.tsx";
import MobileNav, { type MobileNavProps } from "#islands/site/MobileNav.tsx";
import ProgressBar from "#islands/site/ProgressBar.tsx";
import UserMenu from "#islands/site/UserMenu.tsx";
import { getManifest } from "../assets.tsx";
import { hasAdminPages } from "#src/http/adminOnly.ts";
import { Island } from "../Island.tsx";
import { useRequest } from "../request.tsx";
import { AdSlot } from "./AdSlot.tsx";
import { VipIcon } from "#islands/commerce/VipIcon.tsx";
import type { SessionUser } from "#src/features/auth/sessions.ts";
import { Personal } from "../personal.tsx";

const navCats = (cats: CategoryNode[]) => cats.map((c) => ({ id: c.id, title: c.title, children: c.children.map((s) => ({ id: s.id, title: s.title })) }));

/**
 * Stored entries minus links into sections not built yet (sections.ts): the fixed "article" entry
 * while there are no article pages, and any entry whose href points at one. A group left without
 * its own link and without children goes too. The stored rows are untouched.
 */
export function builtNavigation(nav: NavItem[]): NavItem[] {
  return nav.flatMap((n) => {
    if ((n.fixed === "article" && !SECTIONS.articles) || !isBuilt(n.href)) return [];
    const children = n.children.filter((c) => isBuilt(c.href));
    if (!n.href && n.children.length && !children.length) return [];
    return [{ ...n, children }];
  });
}


/**
 * What the header's user parts depend on: kept per page and this key (views/personal.tsx). Both
 * parts ask: worked out once per request (the session user is a new object each request).
 */
const headerKeys = new WeakMap<SessionUser, string>();
const headerVary = (user: SessionUser | null) => {
  if (!user) return "";
  let k = headerKeys.get(user);
  if (k === undefined) headerKeys.set(user, (k = JSON.stringify([user.id, user.username, user.avatar, !!user.is_vip, hasAdminPages(user)])));
  return k;
};

function loginHrefOf(path: string, search: string) {
  return path === "/login" ? "/login" : `/login?redirect=${encodeURIComponent(path + search)}`;
}

/** The user menu and the VIP mark (desktop): the one per-user part of the header row. */
function HeaderUser() {
  const { path, search, user } = useRequest();
  const settings = getSettings();
  const menuUser = user ? { id: user.id, username: user.username, avatar: user.avatar } : null;
  // The VIP mark beside the name is drawn here, outside the menu island, so it costs no script.
  const vipIcon = user?.is_vip && settings.vip.enable ? String(settings.vip.icon || "") : null;
  const enableRecharge = !!settings.recharge.enable;
  return (
    <>
      <Island name="UserMenu" component={UserMenu} props={{ user: menuUser, showAdmin: hasAdminPages(user), enableRecharge, creditName: creditName(), loginHref: loginHrefOf(path, search), ...(user && enableRecharge ? { rechargeUrl: getManifest().islands.RechargeDialog ?? "" } : {}) }} />
      {vipIcon !== null ? <a className="header-vip" href="/me/vip" title="VIP 会员"><VipIcon icon={vipIcon} size={18} /></a> : null}
    </>
  );
}

/** The mobile bar and drawer: navigation plus the user's avatar, name and entries. */
function MobileUser({ docCategories, articleCategories, navigation }: { docCategories: NavCats; articleCategories: NavCats; navigation: MobileNavProps["navigation"] }) {
  const { path, search, user } = useRequest();
  const settings = getSettings();
  const menuUser = user ? { id: user.id, username: user.username, avatar: user.avatar } : null;
  const vipIcon = user?.is_vip && settings.vip.enable ? String(settings.vip.icon || "") : null;
  return (
    <>
      <Island name="MobileNav" component={MobileNav} props={{
        user: menuUser, showAdmin: hasAdminPages(user), creditName: creditName(), articles: path.startsWith("/article"),
        docCategories, articleCategories, loginHref: loginHrefOf(path, search), navigation, enableRecharge: !!settings.recharge.enable,
      }} />
      {/* A mark on the avatar, not a link: a target that small beside the avatar's would be hard to tap. */}
      {vipIcon !== null ? <span className="mobile-vip"><VipIcon icon={vipIcon} size={16} /></span> : null}
    </>
  );
}

type NavCats = ReturnType<typeof navCats>;

export function SiteHeader() {
  // The user is read only inside the Personal parts: the rest of the header is shared by everyone.
  const { path, search } = useRequest();
  const settings = getSettings();
  const data = layoutData();
  const logo = String(settings.system.logo || "") || getManifest().files["logo.svg"]!;
  const sitename = String(settings.system.sitename);
  const q = new URLSearchParams(search);
  // Two levels are what the menus show; deeper navigation children are dropped.
  const navigation = builtNavigation(data.navigation).map((n) => ({ ...n, children: n.children.map(({ children: _c, fixed: _f, ...s }) => s) }));
  const docCategories = navCats(data.docCategories);
  const articleCategories = SECTIONS.articles ? navCats(data.articleCategories) : [];
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
            <Personal vary={headerVary}><HeaderUser /></Personal>
          </div>
          <div className="mobile-only">
            <Personal vary={headerVary}><MobileUser docCategories={docCategories} articleCategories={articleCategories} navigation={navigation} /></Personal>
          </div>
        </div>
      </header>
    </>
  );
}
