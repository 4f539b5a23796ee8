import { useEffect, useState } from "react";
import { api } from "../api.ts";

export interface OAuthButton { type: string; name: string; icon: string }

export interface OAuthButtonsProps {
  /** enabled providers rendered by the server; when absent they are fetched from /oauth/configs */
  providers?: OAuthButton[];
  /** same-site path to land on after signing in or binding (default /me) */
  redirect?: string;
  mode?: "login" | "bind";
  title?: string;
}

/**
 * Third-party login buttons. Each is a plain link to /oauth/{type}, which starts the flow on the
 * server (fresh state cookie, then the provider), so a button works before hydration and in any tab.
 */
export default function OAuthButtons({ providers, redirect = "/me", mode = "login", title }: OAuthButtonsProps) {
  const [list, setList] = useState<OAuthButton[] | undefined>(providers);
  useEffect(() => {
    if (providers) return;
    let live = true;
    void api<OAuthButton[]>("GET", "/oauth/configs", { query: { redirect } }).then((r) => {
      if (live && r.ok && Array.isArray(r.data)) setList(r.data.map(({ type, name, icon }) => ({ type, name, icon })));
    });
    return () => {
      live = false;
    };
  }, [providers, redirect]);
  if (!list?.length) return null;
  const heading = title ?? (mode === "bind" ? "绑定第三方账号" : "其他登录方式");
  return (
    <div className="oauth-buttons" data-mode={mode}>
      <div className="muted" style={{ fontSize: 13, textAlign: "center", margin: "18px 0 10px" }}>{heading}</div>
      <div style={{ display: "flex", flexWrap: "wrap", gap: 8, justifyContent: "center" }}>
        {list.map((p) => (
          <a
            key={p.type}
            className="btn btn-sm oauth-btn"
            data-oauth={p.type}
            href={`/oauth/${encodeURIComponent(p.type)}?redirect=${encodeURIComponent(redirect)}`}
            title={mode === "bind" ? `绑定${p.name}账号` : `使用${p.name}登录`}
            rel="nofollow"
          >
            {p.icon ? <img src={p.icon} alt="" width={18} height={18} style={{ borderRadius: "50%", verticalAlign: "middle", marginRight: 6 }} /> : null}
            {mode === "bind" ? `绑定 ${p.name}` : p.name}
          </a>
        ))}
      </div>
    </div>
  );
}
