import { useEffect, useRef, useState } from "react";
import { ProfileForm, PasswordForm, type Profile } from "./AdminAccount.tsx";
import { Drawer } from "./AdminKit.tsx";
import { logout } from "../account/logout.ts";

export interface AdminUserMenuProps { username: string; avatar: string; profile: Profile }

/** Top-bar user dropdown: profile and password open in side drawers; logout goes home. */
export default function AdminUserMenu({ username, avatar, profile: initial }: AdminUserMenuProps) {
  const [open, setOpen] = useState(false);
  const [drawer, setDrawer] = useState<"profile" | "password" | null>(null);
  const [profile, setProfile] = useState(initial);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const away = (e: MouseEvent) => !box.current?.contains(e.target as Node) && setOpen(false);
    document.addEventListener("mousedown", away);
    return () => document.removeEventListener("mousedown", away);
  }, [open]);
  const pick = (d: "profile" | "password") => {
    setOpen(false);
    setDrawer(d);
  };
  const name = profile.username || username;
  return (
    <div className="adm-user" ref={box}>
      <button type="button" className="adm-user-trigger" aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen(!open)}>
        {avatar ? <img className="adm-avatar" src={avatar} alt="" width={28} height={28} /> : <span className="adm-avatar" aria-hidden="true">{name.slice(0, 1).toUpperCase()}</span>}
        <span className="adm-user-name">{name}</span>
        <svg viewBox="0 0 24 24" width="14" height="14" aria-hidden="true"><path fill="currentColor" d="M7 10l5 5 5-5z" /></svg>
      </button>
      {open ? (
        <ul className="adm-dropdown" role="menu">
          <li role="none"><button type="button" role="menuitem" onClick={() => pick("profile")}>个人资料</button></li>
          <li role="none"><button type="button" role="menuitem" onClick={() => pick("password")}>修改密码</button></li>
          <li role="none"><button type="button" role="menuitem" onClick={() => void logout()}>退出登录</button></li>
        </ul>
      ) : null}
      <Drawer open={drawer === "profile"} title="个人资料" onClose={() => setDrawer(null)}>
        <ProfileForm profile={profile} onSaved={(p) => (setProfile(p), setDrawer(null))} />
      </Drawer>
      <Drawer open={drawer === "password"} title="修改密码" onClose={() => setDrawer(null)}>
        <PasswordForm username={name} onDone={() => setDrawer(null)} />
      </Drawer>
    </div>
  );
}
