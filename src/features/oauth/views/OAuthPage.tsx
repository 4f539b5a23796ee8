import { Island } from "#src/views/Island.tsx";
import OAuthButtons, { type OAuthButton } from "#islands/account/OAuthButtons.tsx";

export interface OAuthPageProps {
  message: string;
  providers: OAuthButton[];
  redirect: string;
  loggedIn: boolean;
}

/** The /oauth/{type} page when the flow cannot finish: what went wrong, and the ways to try again. */
export function OAuthErrorView({ message, providers, redirect, loggedIn }: OAuthPageProps) {
  return (
    <div className="container auth-page">
      <div className="card auth-card oauth-page">
        <h1>{loggedIn ? "绑定第三方账号" : "第三方登录"}</h1>
        <p className="auth-sub" role="alert" style={{ color: "var(--wk-danger)" }}>{message}</p>
        <Island name="OAuthButtons" component={OAuthButtons} props={{ providers, redirect, mode: loggedIn ? "bind" : "login", title: "重新选择" }} />
        <div className="auth-foot">
          {loggedIn ? <a href="/me">返回个人中心</a> : <a href="/login">使用账号密码登录</a>}
          <span className="muted"> · </span>
          <a href="/">返回首页</a>
        </div>
      </div>
    </div>
  );
}
