import { useState } from "react";
import { logout } from "./logout.ts";

export interface UserMenuProps {
  user: { id: number; username: string; avatar: string } | null;
  showAdmin: boolean;
  enableRecharge: boolean;
  creditName: string;
  loginHref: string;
}

export function Avatar({ src, name, size }: { src: string; name: string; size: number }) {
  return src ? (
    <img className="avatar" src={src} alt={name} width={size} height={size} />
  ) : (
    <span className="avatar avatar-text" style={{ width: size, height: size, lineHeight: `${size}px` }} aria-hidden="true">{name.slice(0, 1).toUpperCase()}</span>
  );
}

export default function UserMenu({ user, showAdmin, enableRecharge, creditName, loginHref }: UserMenuProps) {
  const [open, setOpen] = useState(false);
  if (!user) return <a className="btn btn-primary btn-sm" href={loginHref}>登录</a>;
  return (
    <div className="user-menu" onMouseEnter={() => setOpen(true)} onMouseLeave={() => setOpen(false)}>
      <button type="button" className="user-menu-trigger" aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen(!open)}>
        <Avatar src={user.avatar} name={user.username} size={32} />
        <span className="user-name">{user.username}</span>
      </button>
      <ul className={open ? "dropdown open" : "dropdown"} role="menu">
        <li><a href={`/user/${user.id}`}>个人主页</a></li>
        <li><a href="/me">个人中心</a></li>
        {enableRecharge ? <li><a href="/me?recharge=1">{creditName}充值</a></li> : null}
        <li><a href="/upload">上传文档</a></li>
        <li><a href="/post">发布文章</a></li>
        {showAdmin ? <li><a href="/admin">管理后台</a></li> : null}
        <li><button type="button" onClick={() => void logout()}>退出登录</button></li>
      </ul>
    </div>
  );
}
