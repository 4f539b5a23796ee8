import { useEffect, useRef, useState } from "react";
import { SECTIONS } from "#src/features/site/sections.ts";
import { logout } from "../account/logout.ts";

export interface UserMenuProps {
  user: { id: number; username: string; avatar: string } | null;
  showAdmin: boolean;
  enableRecharge: boolean;
  creditName: string;
  loginHref: string;
  /** the recharge dialog's chunk (its build URL), when the user may recharge */
  rechargeUrl?: string;
}

export function Avatar({ src, name, size }: { src: string; name: string; size: number }) {
  return src ? (
    <img className="avatar" src={src} alt={name} width={size} height={size} style={{ width: size, height: size }} />
  ) : (
    <span className="avatar avatar-text" style={{ width: size, height: size, lineHeight: `${size}px` }} aria-hidden="true">{name.slice(0, 1).toUpperCase()}</span>
  );
}

/**
 * The trigger is a real link to the personal centre, so it works before hydration and on a plain
 * click; hover (mouse), focus (keyboard) or a first tap (touch) open the menu; Escape, leaving or
 * tapping outside closes it.
 */
export default function UserMenu({ user, showAdmin, enableRecharge, creditName, loginHref, rechargeUrl = "" }: UserMenuProps) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  // Touch emulates mouseenter before the click; remember whether the menu was open at the tap.
  const tap = useRef({ touch: false, wasOpen: false });
  // The recharge entries here and in the drawer carry data-recharge: a click opens the dialog, its
  // code loaded only then by URL (a literal import() would make the bundler add a preload table to
  // this chunk and the drawer's); without scripts the link leads to /me, which opens it.
  useEffect(() => {
    if (!user || !enableRecharge || !rechargeUrl) return;
    const click = (e: MouseEvent) => {
      if (!(e.target as Element).closest?.("a[data-recharge]")) return;
      e.preventDefault();
      import(/* @vite-ignore */ rechargeUrl).then((m) => m.openRecharge(), () => (location.href = "/me?recharge=1"));
    };
    document.addEventListener("click", click);
    return () => document.removeEventListener("click", click);
  }, []);
  useEffect(() => {
    if (!open) return;
    const outside = (e: PointerEvent) => root.current && !root.current.contains(e.target as Node) && setOpen(false);
    const esc = (e: KeyboardEvent) => e.key === "Escape" && setOpen(false);
    document.addEventListener("pointerdown", outside);
    document.addEventListener("keydown", esc);
    return () => {
      document.removeEventListener("pointerdown", outside);
      document.removeEventListener("keydown", esc);
    };
  }, [open]);
  if (!user) return <a className="btn btn-primary btn-sm" href={loginHref}>登录</a>;
  return (
    <div
      ref={root}
      className="user-menu"
      onMouseEnter={() => setOpen(true)}
      onMouseLeave={() => setOpen(false)}
      onFocus={() => setOpen(true)}
      onBlur={(e) => !e.currentTarget.contains(e.relatedTarget as Node | null) && setOpen(false)}
    >
      <a
        className="user-menu-trigger"
        href="/me"
        aria-haspopup="menu"
        aria-expanded={open}
        onPointerDown={(e) => (tap.current = { touch: e.pointerType !== "mouse", wasOpen: open })}
        onClick={(e) => {
          // First tap on a touch screen opens the menu; the second follows the link.
          if (tap.current.touch && !tap.current.wasOpen) {
            e.preventDefault();
            setOpen(true);
          }
        }}
      >
        <Avatar src={user.avatar} name={user.username} size={32} />
        <span className="user-name">{user.username}</span>
      </a>
      <ul className={open ? "dropdown open" : "dropdown"} role="menu">
        <li><a href={`/user/${user.id}`}>个人主页</a></li>
        <li><a href="/me">个人中心</a></li>
        {enableRecharge ? <li><a href="/me?recharge=1" data-recharge="">{creditName}充值</a></li> : null}
        <li><a href="/upload">上传文档</a></li>
        {SECTIONS.articles ? <li><a href="/post">发布文章</a></li> : null}
        {showAdmin ? <li><a href="/admin">管理后台</a></li> : null}
        <li className="divider"><button type="button" onClick={() => void logout()}>退出登录</button></li>
      </ul>
    </div>
  );
}
