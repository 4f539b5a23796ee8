import type { ReactNode } from "react";
import ProgressBar from "#islands/site/ProgressBar.tsx";
import { Island } from "../Island.tsx";
import { useRequest } from "../request.tsx";

type Section = "home" | "dialog" | "search" | "history" | "me";

const ICONS: Record<Section, string> = {
  home: "M12 3 2 11.5h3V21h5.5v-6h3v6H19v-9.5h3z",
  dialog: "M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H8.5L4 22V5a2 2 0 0 1 0-2m3 6v2h2V9zm4 0v2h2V9zm4 0v2h2V9z",
  search: "M10 2a8 8 0 0 1 6.32 12.9l5.39 5.4-1.41 1.4-5.4-5.39A8 8 0 1 1 10 2m0 2a6 6 0 1 0 0 12 6 6 0 0 0 0-12m.9 2.2.7 2.1 2.1.7-2.1.7-.7 2.1-.7-2.1-2.1-.7 2.1-.7z",
  history: "M13 3a9 9 0 1 1-8.95 10h2.02A7 7 0 1 0 8.4 6.4L11 9H4V2l2.98 2.98A8.96 8.96 0 0 1 13 3m-1 5h1.5v4.25l3.5 2.08-.75 1.23L12 13z",
  me: "M12 12a5 5 0 1 0 0-10 5 5 0 0 0 0 10m0 2c-4.42 0-8 2.24-8 5v2h16v-2c0-2.76-3.58-5-8-5",
};

export const CHAT_NAV: { key: Section; title: string; href: string }[] = [
  { key: "home", title: "首页", href: "/" },
  { key: "dialog", title: "AI 对话", href: "/chat/dialog" },
  { key: "search", title: "AI 搜索", href: "/chat/search" },
  { key: "history", title: "历史会话", href: "/chat/history" },
  { key: "me", title: "个人中心", href: "/me" },
];

/** Which sidebar entry a path belongs to; /chat and /chat/{id} are dialog sessions. */
export function chatSection(path: string): Section | null {
  if (path === "/") return "home";
  if (path === "/me" || path.startsWith("/me/")) return "me";
  if (path === "/chat/search" || path.startsWith("/chat/search/")) return "search";
  if (path === "/chat/history" || path.startsWith("/chat/history/")) return "history";
  if (path === "/chat" || path.startsWith("/chat/")) return "dialog";
  return null;
}

/** Chat layout (spec §2): a narrow icon sidebar beside the chat page; a bottom tab bar on phones. */
export function ChatLayout({ children }: { children: ReactNode }) {
  const active = chatSection(useRequest().path);
  return (
    <>
      <Island name="ProgressBar" component={ProgressBar} props={{}} />
      <div className="chat-layout">
        <nav className="chat-sidebar" aria-label="AI 助手导航">
          {CHAT_NAV.map((n) => (
            <a key={n.key} href={n.href} title={n.title} className={n.key === active ? "chat-nav-item active" : "chat-nav-item"} aria-current={n.key === active ? "page" : undefined} data-section={n.key}>
              <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true"><path fill="currentColor" d={ICONS[n.key]} /></svg>
              <span>{n.title}</span>
            </a>
          ))}
        </nav>
        <main className="chat-main">{children}</main>
      </div>
    </>
  );
}
