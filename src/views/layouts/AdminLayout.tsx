import type { ReactNode } from "react";
import AdminMenuToggle from "#islands/admin/AdminMenuToggle.tsx";
import AdminUserMenu from "#islands/admin/AdminUserMenu.tsx";
import type { Profile } from "#islands/admin/AdminAccount.tsx";
import ProgressBar from "#islands/site/ProgressBar.tsx";
import { Island } from "../Island.tsx";
import { GROUPS } from "#src/features/settings/definitions.ts";
import { pageAllowed } from "#src/features/permissions/catalog.ts";

// 24×24 outline paths for the menu icons; the collapsed menu shows only these.
const ICONS: Record<string, string> = {
  dashboard: "M3 13h8V3H3zm0 8h8v-6H3zm10 0h8V11h-8zm0-18v6h8V3z",
  config: "M19.1 12.9a7.3 7.3 0 0 0 0-1.8l2-1.6-2-3.4-2.4 1a7 7 0 0 0-1.6-.9L14.8 3h-4l-.4 2.6a7 7 0 0 0-1.6.9l-2.4-1-2 3.4 2 1.6a7.3 7.3 0 0 0 0 1.8l-2 1.6 2 3.4 2.4-1a7 7 0 0 0 1.6.9l.4 2.6h4l.4-2.6a7 7 0 0 0 1.6-.9l2.4 1 2-3.4zM12.8 15.5a3.5 3.5 0 1 1 0-7 3.5 3.5 0 0 1 0 7",
  navigation: "M3 4h18v2H3zm0 7h18v2H3zm0 7h18v2H3z",
  friendlink: "M10.6 13.4a1 1 0 0 1 0-1.4l3.5-3.5a1 1 0 1 1 1.4 1.4L12 13.4a1 1 0 0 1-1.4 0M7 17a3 3 0 0 1 0-4.2l2-2 1.4 1.4-2 2a1 1 0 0 0 1.4 1.4l2-2 1.4 1.4-2 2A3 3 0 0 1 7 17m10-10a3 3 0 0 1 0 4.2l-2 2-1.4-1.4 2-2a1 1 0 0 0-1.4-1.4l-2 2-1.4-1.4 2-2A3 3 0 0 1 17 7",
  banner: "M21 19V5a2 2 0 0 0-2-2H5a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2M8.5 13.5l2.5 3 3.5-4.5 4.5 6H5z",
  advertisement: "M18 11v2h4v-2zm-2 6.6 3.2 2.4 1.2-1.6-3.2-2.4zM20.4 5.6 19.2 4 16 6.4l1.2 1.6zM4 9a2 2 0 0 0-2 2v2a2 2 0 0 0 2 2h1v4h2v-4h1l5 3V6L8 9zm11.5 3A4.5 4.5 0 0 0 14 8.7v6.6a4.5 4.5 0 0 0 1.5-3.3",
  document: "M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8zm4 18H6V4h7v5h5zM8 12h8v2H8zm0 4h8v2H8z",
  user: "M16 11c1.66 0 2.99-1.34 2.99-3S17.66 5 16 5s-3 1.34-3 3 1.34 3 3 3m-8 0c1.66 0 2.99-1.34 2.99-3S9.66 5 8 5 5 6.34 5 8s1.34 3 3 3m0 2c-2.33 0-7 1.17-7 3.5V19h14v-2.5c0-2.33-4.67-3.5-7-3.5m8 0c-.29 0-.62.02-.97.05 1.16.84 1.97 1.97 1.97 3.45V19h6v-2.5c0-2.33-4.67-3.5-7-3.5",
  report: "M5 21V4h9.5l.5 2H20v10h-6.5l-.5-2H7v7zm2-9h7.6l.5 2H18V8h-4.6l-.5-2H7z",
  comment: "M20 2H4a2 2 0 0 0-2 2v18l4-4h14a2 2 0 0 0 2-2V4a2 2 0 0 0-2-2m0 14H5.2L4 17.2V4h16zM7 6h10v2H7zm0 3h10v2H7zm0 3h7v2H7z",
  ai: "M12 2l1.6 3.4L17 7l-3.4 1.6L12 12l-1.6-3.4L7 7l3.4-1.6zM5 14h14a2 2 0 0 1 2 2v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4a2 2 0 0 1 2-2m0 2v4h14v-4zm2 1h2v2H7zm8 0h2v2h-2zM19 2l.8 1.7L21.5 4.5l-1.7.8L19 7l-.8-1.7-1.7-.8 1.7-.8z",
  article: "M19 3H5a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2V5a2 2 0 0 0-2-2m0 16H5V5h14zM7 7h10v2H7zm0 4h10v2H7zm0 4h7v2H7z",
  attachment: "M16.5 6v11.5a4 4 0 0 1-8 0V5a2.5 2.5 0 0 1 5 0v10.5a1 1 0 0 1-2 0V6H10v9.5a2.5 2.5 0 0 0 5 0V5a4 4 0 0 0-8 0v12.5a5.5 5.5 0 0 0 11 0V6z",
  system: "M4 4h16v6H4zm2 2v2h2V6zm-2 8h16v6H4zm2 2v2h2v-2zm4-10v2h8V6zm0 10v2h8v-2z",
  spider: "M12 2a4 4 0 0 1 4 4v1h2l2-3 1.7 1-2.3 3.5L20 9h2v2h-2.1a8 8 0 0 1-.2 2H22v2h-2.9l1.6 2.5-1.7 1L17.3 16A6 6 0 0 1 13 19.9V11h-2v8.9A6 6 0 0 1 6.7 16L5 18.5l-1.7-1L4.9 15H2v-2h2.3a8 8 0 0 1-.2-2H2V9h2l.6-.5L2.3 5 4 4l2 3h2V6a4 4 0 0 1 4-4",
  order: "M19.5 3.5 18 2l-1.5 1.5L15 2l-1.5 1.5L12 2l-1.5 1.5L9 2 7.5 3.5 6 2 4.5 3.5 3 2v20l1.5-1.5L6 22l1.5-1.5L9 22l1.5-1.5L12 22l1.5-1.5L15 22l1.5-1.5L18 22l1.5-1.5L21 22V2zM19 19.09H5V4.91h14zM8.3 6.5h2.1l1.6 2.8 1.6-2.8h2.1l-2.3 3.6H15v1.4h-2v1h2v1.4h-2v2.1h-2v-2.1H9v-1.4h2v-1H9v-1.4h1.6z",
};

// The payment and recharge groups share one screen (/admin/config/pay), listed once where payment stood.
const PAY_SCREEN = { key: "config/pay", label: "支付设置", href: "/admin/config/pay" };
// The backup group is edited on 系统管理 → 数据备份, beside the archives.
const configMenu = () => GROUPS.flatMap((g) =>
  g.name === "payment" ? [PAY_SCREEN] : g.name === "recharge" || g.name === "backup" ? [] : [{ key: `config/${g.name}`, label: g.label, href: `/admin/config/${g.name}` }]);

export interface MenuItem { key: string; label: string; href: string; icon: string; children?: { key: string; label: string; href: string }[] }

/** The admin menu; the dashboard entry is always shown (spec §2). */
export const ADMIN_MENU: MenuItem[] = [
  { key: "dashboard", label: "控制面板", href: "/admin/dashboard", icon: "dashboard" },
  {
    key: "config", label: "系统设置", href: "/admin/config/system", icon: "config",
    children: configMenu(),
  },
  {
    key: "document", label: "文档管理", href: "/admin/document/list", icon: "document",
    children: [
      { key: "document/category", label: "分类管理", href: "/admin/document/category" },
      { key: "document/list", label: "文档列表", href: "/admin/document/list" },
      { key: "document/recycle", label: "回收站", href: "/admin/document/recycle" },
      { key: "document/language", label: "语言管理", href: "/admin/document/language" },
      { key: "document/searchrecord", label: "搜索记录", href: "/admin/document/searchrecord" },
      { key: "document/ocr", label: "OCR 识别", href: "/admin/document/ocr" },
    ],
  },
  {
    key: "article", label: "文章管理", href: "/admin/article/list", icon: "article",
    children: [
      { key: "article/category", label: "分类管理", href: "/admin/article/category" },
      { key: "article/list", label: "文章列表", href: "/admin/article/list" },
      { key: "article/recycle", label: "回收站", href: "/admin/article/recycle" },
      { key: "article/set", label: "文章设置", href: "/admin/article/set" },
    ],
  },
  {
    key: "ai", label: "AI 管理", href: "/admin/ai/llm", icon: "ai",
    children: [
      { key: "ai/llm", label: "大模型设置", href: "/admin/ai/llm" },
      { key: "ai/embedding", label: "向量模型", href: "/admin/ai/embedding" },
      { key: "ai/chat", label: "对话记录", href: "/admin/ai/chat" },
    ],
  },
  {
    key: "user", label: "用户管理", href: "/admin/user/list", icon: "user",
    children: [
      { key: "user/list", label: "用户列表", href: "/admin/user/list" },
      { key: "user/group", label: "用户组", href: "/admin/user/group" },
      { key: "user/permission", label: "权限管理", href: "/admin/user/permission" },
      { key: "user/punishment", label: "惩罚管理", href: "/admin/user/punishment" },
      { key: "user/vip", label: "VIP 管理", href: "/admin/user/vip" },
      { key: "user/sms", label: "短信记录", href: "/admin/user/sms" },
    ],
  },
  {
    key: "spider", label: "蜘蛛采集", href: "/admin/spider/url", icon: "spider",
    children: [
      { key: "spider/url", label: "采集网址", href: "/admin/spider/url" },
      { key: "spider/document", label: "采集文档", href: "/admin/spider/document" },
    ],
  },
  { key: "order", label: "订单管理", href: "/admin/order", icon: "order" },
  { key: "navigation", label: "导航管理", href: "/admin/navigation", icon: "navigation" },
  { key: "friendlink", label: "友情链接", href: "/admin/friendlink", icon: "friendlink" },
  { key: "banner", label: "横幅管理", href: "/admin/banner", icon: "banner" },
  { key: "advertisement", label: "广告管理", href: "/admin/advertisement", icon: "advertisement" },
  { key: "attachment", label: "附件管理", href: "/admin/attachment", icon: "attachment" },
  { key: "comment", label: "评论管理", href: "/admin/comment", icon: "comment" },
  { key: "report", label: "举报管理", href: "/admin/report", icon: "report" },
  {
    key: "system", label: "系统管理", href: "/admin/system/backup", icon: "system",
    children: [
      { key: "system/backup", label: "数据备份", href: "/admin/system/backup" },
      { key: "system/release", label: "版本与授权", href: "/admin/system/release" },
    ],
  },
];

const Icon = ({ name }: { name: string }) => (
  <svg className="adm-menu-icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><path fill="currentColor" d={ICONS[name]} /></svg>
);

export interface AdminLayoutProps {
  title: string;
  /** menu key of this page, e.g. "navigation" or "config/system" */
  active: string;
  sitename: string;
  user: { username: string; avatar: string };
  profile: Profile;
  /** the user's allowed admin pages (spec §6); "all" for the root administrator */
  allowPages: string[] | "all";
  children: ReactNode;
}

/** The dashboard always; other entries when allowed or public (spec §2/§6). */
export function visibleMenu(allowPages: string[] | "all"): MenuItem[] {
  if (allowPages === "all") return ADMIN_MENU;
  const ok = (href: string) => pageAllowed(allowPages, href);
  return ADMIN_MENU.flatMap((m) => {
    if (m.key === "dashboard") return [m];
    const children = m.children?.filter((c) => ok(c.href));
    if (children?.length) return [{ ...m, href: children[0]!.href, children }];
    return !m.children && ok(m.href) ? [m] : [];
  });
}

export function AdminLayout({ title, active, sitename, user, profile, allowPages, children }: AdminLayoutProps) {
  const group = active.split("/")[0];
  return (
    <div className="adm-app">
      <Island name="ProgressBar" component={ProgressBar} props={{}} />
      <aside className="adm-side" aria-label="管理菜单">
        <a className="adm-brand" href="/admin/dashboard" title={`${sitename} 管理后台`}>
          <svg viewBox="0 0 28 36" width="24" height="30" aria-hidden="true"><rect x="2" y="4" width="24" height="28" rx="4" fill="#1677ff" /><path d="M8 12h12M8 18h12M8 24h8" stroke="#fff" strokeWidth="2.5" strokeLinecap="round" /></svg>
          <span className="adm-label adm-brand-name">{sitename}<small>管理后台</small></span>
        </a>
        <nav>
          <ul className="adm-menu">
            {visibleMenu(allowPages).map((m) => (
              <li key={m.key} className={m.key === group ? "active" : undefined}>
                <a href={m.href} title={m.label} aria-current={m.key === active ? "page" : undefined}><Icon name={m.icon} /><span className="adm-label">{m.label}</span></a>
                {m.children ? (
                  <ul className="adm-submenu">
                    {m.children.map((s) => <li key={s.key} className={s.key === active ? "active" : undefined}><a href={s.href} aria-current={s.key === active ? "page" : undefined}>{s.label}</a></li>)}
                  </ul>
                ) : null}
              </li>
            ))}
          </ul>
        </nav>
      </aside>
      <div className="adm-backdrop" aria-hidden="true" />
      <div className="adm-main">
        <header className="adm-top">
          <Island name="AdminMenuToggle" component={AdminMenuToggle} props={{}} />
          <h1 className="adm-title">{title}</h1>
          <span className="adm-spacer" />
          <a className="adm-site-link" href="/" target="_blank" rel="noopener">访问网站</a>
          <Island name="AdminUserMenu" component={AdminUserMenu} props={{ username: user.username, avatar: user.avatar, profile }} />
        </header>
        <main className="adm-content">{children}</main>
      </div>
    </div>
  );
}
