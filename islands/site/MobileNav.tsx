import { useEffect, useState } from "react";
import { NavLink, type NavCategory, type NavEntry, type NavTop } from "./HeaderNav.tsx";
import { Avatar } from "./UserMenu.tsx";
import { SignButton } from "../account/SignButton.tsx";
import { SECTIONS } from "#src/features/site/sections.ts";
import { logout } from "../account/logout.ts";
import { SuggestInput } from "./SearchSuggest.tsx";

export interface MobileNavProps {
  user: { id: number; username: string; avatar: string } | null;
  showAdmin: boolean;
  creditName: string;
  articles: boolean;
  docCategories: NavCategory[];
  articleCategories: NavCategory[];
  /** the enabled entries in the admin's order, fixed ones included */
  navigation: NavTop[];
  loginHref: string;
  /** recharge.enable: the drawer offers the recharge dialog (UserMenu opens it) */
  enableRecharge?: boolean;
}

const catEntries = (base: string, cats: NavCategory[]): NavEntry[] => cats.map((c) => ({ id: c.id, title: c.title, href: base + c.id, target: "", color: "" }));

function Collapsible({ title, items }: { title: string; items: NavEntry[] }) {
  const [open, setOpen] = useState(false);
  if (!items.length) return null;
  return (
    <div className="drawer-group">
      <button type="button" className="drawer-group-title" aria-expanded={open} onClick={() => setOpen(!open)}>{title}<span aria-hidden="true">{open ? "−" : "+"}</span></button>
      {open ? <ul>{items.map((n) => <li key={n.id}><NavLink item={n} /></li>)}</ul> : null}
    </div>
  );
}

/** Mobile header (< 768 px): avatar 42 in the bar, a 60%-wide drawer with everything else. */
export default function MobileNav(p: MobileNavProps) {
  const [open, setOpen] = useState(false);
  // The hamburger stays disabled until hydration so it is never a dead button.
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  useEffect(() => {
    document.body.style.overflow = open ? "hidden" : "";
    if (!open) return;
    const esc = (e: KeyboardEvent) => e.key === "Escape" && setOpen(false);
    document.addEventListener("keydown", esc);
    return () => document.removeEventListener("keydown", esc);
  }, [open]);
  return (
    <div className="mobile-nav">
      <button type="button" className="hamburger" aria-label="打开菜单" aria-expanded={open} disabled={!ready} onClick={() => setOpen(true)}>
        <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true"><path fill="currentColor" d="M3 6h18v2H3zm0 5h18v2H3zm0 5h18v2H3z" /></svg>
      </button>
      {p.user ? <a href="/me" className="mobile-avatar" aria-label="个人中心"><Avatar src={p.user.avatar} name={p.user.username} size={42} /></a> : <a className="mobile-login" href={p.loginHref}>登录</a>}
      <div className={open ? "drawer-mask open" : "drawer-mask"} onClick={() => setOpen(false)} />
      <aside className={open ? "drawer open" : "drawer"} style={{ width: "60%" }} aria-hidden={!open} aria-label="菜单">
        <button type="button" className="drawer-close" aria-label="关闭菜单" onClick={() => setOpen(false)}>×</button>
        <div className="drawer-user">
          {p.user ? (
            <a href={`/user/${p.user.id}`}><Avatar src={p.user.avatar} name={p.user.username} size={38} /><span>{p.user.username}</span></a>
          ) : (
            <a className="btn btn-primary btn-block" href={p.loginHref}>登录 / 注册</a>
          )}
        </div>
        {p.user ? <SignButton creditName={p.creditName} /> : null}
        <form className="drawer-search" action="/search" method="get" role="search">
          <input type="hidden" name="type" value={p.articles ? 1 : 0} />
          <SuggestInput id="drawer-suggest" type={p.articles ? 1 : 0} initial="" placeholder={p.articles ? "搜索文章" : "搜索文档"} />
        </form>
        {p.navigation.map((n) => {
          // Fixed category entries become collapsible category lists under the admin's title (a plain
          // link while there are no categories).
          if (n.fixed === "category" && p.docCategories.length) return <Collapsible key={n.id} title={n.title} items={catEntries("/category/", p.docCategories)} />;
          if (n.fixed === "article" && p.articleCategories.length) return <Collapsible key={n.id} title={n.title} items={catEntries("/article?category_id=", p.articleCategories)} />;
          if (n.children.length) return <Collapsible key={n.id} title={n.title} items={n.children} />;
          return <ul key={n.id} className="drawer-links drawer-nav" data-fixed={n.fixed || undefined}><li><NavLink item={n} /></li></ul>;
        })}
        <ul className="drawer-links">
          <li><a href="/upload">上传文档</a></li>
          {SECTIONS.articles ? <li><a href="/post">发布文章</a></li> : null}
          {p.user ? <li><a href="/me">个人中心</a></li> : null}
          {p.user && p.enableRecharge ? <li><a href="/me?recharge=1" data-recharge="" onClick={() => setOpen(false)}>{p.creditName}充值</a></li> : null}
          {p.showAdmin ? <li><a href="/admin">管理后台</a></li> : null}
        </ul>
        {p.user ? <button type="button" className="btn btn-block" onClick={() => void logout()}>退出登录</button> : null}
      </aside>
    </div>
  );
}
