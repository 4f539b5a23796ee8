import { useEffect, useState } from "react";
import type { NavCategory } from "./HeaderNav.tsx";
import { Avatar } from "./UserMenu.tsx";
import { SignButton } from "./SignButton.tsx";
import { logout } from "./logout.ts";

export interface MobileNavProps {
  user: { id: number; username: string; avatar: string } | null;
  showAdmin: boolean;
  creditName: string;
  articles: boolean;
  docCategories: NavCategory[];
  articleCategories: NavCategory[];
  navigation: { id: number; title: string; href: string; target: string; color: string }[];
  loginHref: string;
}

function Collapsible({ title, base, cats }: { title: string; base: string; cats: NavCategory[] }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="drawer-group">
      <button type="button" className="drawer-group-title" aria-expanded={open} onClick={() => setOpen(!open)}>{title}<span aria-hidden="true">{open ? "−" : "+"}</span></button>
      {open ? <ul>{cats.map((c) => <li key={c.id}><a href={base + c.id}>{c.title}</a></li>)}</ul> : null}
    </div>
  );
}

/** Mobile header (< 768 px): avatar 42 in the bar, a 60%-wide drawer with everything else. */
export default function MobileNav(p: MobileNavProps) {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    document.body.style.overflow = open ? "hidden" : "";
  }, [open]);
  return (
    <div className="mobile-nav">
      <button type="button" className="hamburger" aria-label="打开菜单" aria-expanded={open} onClick={() => setOpen(true)}>
        <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true"><path fill="currentColor" d="M3 6h18v2H3zm0 5h18v2H3zm0 5h18v2H3z" /></svg>
      </button>
      {p.user ? <a href="/me" className="mobile-avatar"><Avatar src={p.user.avatar} name={p.user.username} size={42} /></a> : <a className="mobile-login" href={p.loginHref}>登录</a>}
      <div className={open ? "drawer-mask open" : "drawer-mask"} onClick={() => setOpen(false)} />
      <aside className={open ? "drawer open" : "drawer"} style={{ width: "60%" }} aria-hidden={!open} aria-label="菜单">
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
          <input name="wd" maxLength={64} placeholder={p.articles ? "搜索文章" : "搜索文档"} aria-label="搜索" />
        </form>
        <ul className="drawer-links">
          <li><a href="/">首页</a></li>
          <li><a href="/upload">上传文档</a></li>
          <li><a href="/post">发布文章</a></li>
          {p.user ? <li><a href="/me">个人中心</a></li> : null}
          {p.showAdmin ? <li><a href="/admin">管理后台</a></li> : null}
        </ul>
        <Collapsible title="文档分类" base="/category/" cats={p.docCategories} />
        <Collapsible title="文章分类" base="/article?category_id=" cats={p.articleCategories} />
        {p.navigation.length ? (
          <ul className="drawer-links">
            {p.navigation.map((n) => {
              const ext = /^https?:\/\//i.test(n.href);
              return <li key={n.id}><a href={n.href} style={n.color ? { color: n.color } : undefined} target={n.target || (ext ? "_blank" : undefined)} rel={ext ? "noopener noreferrer" : undefined}>{n.title}</a></li>;
            })}
          </ul>
        ) : null}
        {p.user ? <button type="button" className="btn btn-block" onClick={() => void logout()}>退出登录</button> : null}
      </aside>
    </div>
  );
}
