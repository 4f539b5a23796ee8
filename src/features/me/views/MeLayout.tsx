import type { ReactNode } from "react";
import { Avatar } from "#islands/site/UserMenu.tsx";
import { SECTIONS } from "#src/features/site/sections.ts";
import { DefaultLayout } from "#src/views/layouts/DefaultLayout.tsx";
import { useRequest } from "#src/views/request.tsx";

// 24×24 outline icons for the side navigation.
const ICONS = {
  home: "M3 11l9-7 9 7v9a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1z",
  document: "M6 3h8l5 5v13H6zM14 3v5h5M9 13h7M9 17h7",
  article: "M4 5h16M4 10h16M4 15h10M4 20h7",
  download: "M12 4v11m0 0l-4-4m4 4l4-4M5 20h14",
  favorite: "M12 4l2.5 5.2 5.5.8-4 3.9.9 5.6-4.9-2.6-4.9 2.6.9-5.6-4-3.9 5.5-.8z",
  order: "M5 4h14v16l-3-2-2 2-2-2-2 2-2-2-3 2zM9 9h6M9 13h6",
  vip: "M3 8l4.5 4L12 5l4.5 7L21 8l-2 11H5z",
  profile: "M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 21c0-4 3.6-6.5 8-6.5s8 2.5 8 6.5",
  password: "M6 11h12v10H6zM8.5 11V8a3.5 3.5 0 0 1 7 0v3M12 15v2",
};

// 我的文章 waits for the articles section (sections.ts); its page still answers.
export const ME_NAV: { href: string; label: string; icon: keyof typeof ICONS }[] = [
  { href: "/me", label: "个人中心", icon: "home" },
  { href: "/me/document", label: "我的文档", icon: "document" },
  ...(SECTIONS.articles ? [{ href: "/me/article", label: "我的文章", icon: "article" as const }] : []),
  { href: "/me/download", label: "我的下载", icon: "download" },
  { href: "/me/favorite", label: "我的收藏", icon: "favorite" },
  { href: "/me/order", label: "我的订单", icon: "order" },
  { href: "/me/vip", label: "VIP 会员", icon: "vip" },
  { href: "/me/profile", label: "个人资料", icon: "profile" },
  { href: "/me/password", label: "修改密码", icon: "password" },
];

function MeNav() {
  const { path, user } = useRequest();
  const current = path.replace(/\/$/, "") || "/me";
  return (
    <aside className="me-side">
      {user ? (
        <a className="me-side-user" href={`/user/${user.id}`} title="查看个人主页">
          <Avatar src={user.avatar} name={user.username} size={40} />
          <span>{user.username}</span>
        </a>
      ) : null}
      <nav className="me-nav" aria-label="个人中心">
        {ME_NAV.map((n) => (
          <a key={n.href} href={n.href} className={current === n.href ? "active" : undefined} aria-current={current === n.href ? "page" : undefined}>
            <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path d={ICONS[n.icon]} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" /></svg>
            <span>{n.label}</span>
          </a>
        ))}
      </nav>
    </aside>
  );
}

/** Every /me page: the shared side navigation beside the page's own cards. */
export function MeLayout({ children }: { children: ReactNode }) {
  return (
    <DefaultLayout>
      <div className="container me-page">
        <MeNav />
        <div className="me-main">
          {children}
        </div>
      </div>
    </DefaultLayout>
  );
}
