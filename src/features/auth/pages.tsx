import { Hono } from "hono";
import type { ReactNode } from "react";
import LoginForm from "#islands/account/LoginForm.tsx";
import MobileCodeForm from "#islands/account/MobileCodeForm.tsx";
import OAuthButtons from "#islands/account/OAuthButtons.tsx";
import RegisterForm from "#islands/account/RegisterForm.tsx";
import { captchaEnabled } from "#src/features/captcha/service.ts";
import { oauthButtons } from "#src/features/oauth/registry.ts";
import { getSettings } from "#src/features/settings/service.ts";
import { smsConfig } from "#src/features/sms/codes.ts";
import { mobileAuthEnabled } from "#src/features/sms/service.ts";
import { grantsOf } from "#src/features/permissions/service.ts";
import type { AppEnv } from "#src/http/context.ts";
import { Island } from "#src/views/Island.tsx";
import { DefaultLayout } from "#src/views/layouts/DefaultLayout.tsx";
import { renderPage } from "#src/views/render.tsx";
import { safeRedirect } from "./redirect.ts";

export const authPages = new Hono<AppEnv>();


/** Password / mobile tabs as links, so switching works before hydration and keeps ?redirect. */
function Tabs({ base, mobile, redirect, labels }: { base: string; mobile: boolean; redirect: string; labels: [string, string] }) {
  const q = redirect === "/" ? "" : `redirect=${encodeURIComponent(redirect)}`;
  return (
    <nav className="auth-tabs" aria-label="方式">
      <a href={`${base}${q ? `?${q}` : ""}`} className={mobile ? "" : "active"} aria-current={mobile ? undefined : "page"}>{labels[0]}</a>
      <a href={`${base}?tab=mobile${q ? `&${q}` : ""}`} className={mobile ? "active" : ""} aria-current={mobile ? "page" : undefined}>{labels[1]}</a>
    </nav>
  );
}

function AuthCard({ title, sub, children }: { title: string; sub: ReactNode; children: ReactNode }) {
  return (
    <DefaultLayout>
      <div className="container auth-page">
        <div className="card auth-card">
          <h1>{title}</h1>
          <p className="auth-sub muted">{sub}</p>
          {children}
        </div>
      </div>
    </DefaultLayout>
  );
}

const smsProps = () => ({ interval: Number(smsConfig().resend_interval) || 60, codeLength: Number(smsConfig().code_length) || 6 });

authPages.get("/login", async (c) => {
  const user = c.get("user");
  const s = getSettings();
  // On a closed site a user without permissions is sent here; redirecting them on would loop.
  const closedOut = !!s.security.is_close && !!user && !user.is_root && grantsOf(user.id).keys.size === 0;
  if (user && !closedOut) return c.redirect(`/user/${user.id}`, 302);
  const redirect = safeRedirect(c.req.query("redirect"));
  const mobileOn = mobileAuthEnabled();
  const mobile = mobileOn && c.req.query("tab") === "mobile";
  const providers = oauthButtons();
  return renderPage(
    c,
    <AuthCard title="登录" sub={`欢迎回到${String(s.system.sitename)}，登录后可上传、收藏与下载文档`}>
      {s.security.is_close ? <p className="auth-notice" role="note">{String(s.security.close_statement || "网站维护中，请稍后访问。")}{closedOut ? "（当前账号无权访问，请使用管理员账号登录）" : ""}</p> : null}
      {mobileOn ? <Tabs base="/login" mobile={mobile} redirect={redirect} labels={["账号登录", "手机号登录"]} /> : null}
      {mobile ? (
        <Island name="MobileCodeForm" component={MobileCodeForm} props={{ mode: "login" as const, ...smsProps(), redirect }} />
      ) : (
        <Island name="LoginForm" component={LoginForm} props={{ redirect, captcha: captchaEnabled("login") }} />
      )}
      {providers.length && !s.security.is_close ? <Island name="OAuthButtons" component={OAuthButtons} props={{ providers, redirect: redirect === "/" ? "/me" : redirect }} /> : null}
      <div className="auth-foot muted">
        {s.security.enable_register && !s.security.is_close ? <>还没有账号？<a href={redirect === "/" ? "/register" : `/register?redirect=${encodeURIComponent(redirect)}`}>立即注册</a><span className="sep">·</span></> : null}
        <a href="/findpassword">忘记密码</a>
        {mobileOn ? <><span className="sep">·</span><a href="/findpassword-mobile">手机找回密码</a></> : null}
      </div>
    </AuthCard>,
    { meta: { title: "登录", canonical: "/login", noindex: true }, cache: true },
  );
});

authPages.get("/register", async (c) => {
  const user = c.get("user");
  if (user) return c.redirect(`/user/${user.id}`, 302);
  const s = getSettings();
  const redirect = safeRedirect(c.req.query("redirect"), "/me");
  const loginHref = redirect === "/me" ? "/login" : `/login?redirect=${encodeURIComponent(redirect)}`;
  const foot = <div className="auth-foot muted">已有账号？<a href={loginHref}>立即登录</a></div>;
  if (!s.security.enable_register) {
    return renderPage(c, <AuthCard title="注册" sub="网站已关闭注册">
      <p className="auth-notice" role="note">网站已关闭注册，暂不接受新用户，请联系网站管理员。</p>{foot}
    </AuthCard>, { meta: { title: "注册", canonical: "/register", noindex: true }, cache: true });
  }
  const mobileOn = mobileAuthEnabled();
  const mobile = mobileOn && c.req.query("tab") === "mobile";
  return renderPage(
    c,
    <AuthCard title="注册" sub={`加入${String(s.system.sitename)}，分享与发现优质文档`}>
      {mobileOn ? <Tabs base="/register" mobile={mobile} redirect={redirect === "/me" ? "/" : redirect} labels={["账号注册", "手机号注册"]} /> : null}
      {mobile ? (
        <Island name="MobileCodeForm" component={MobileCodeForm} props={{ mode: "register" as const, ...smsProps(), redirect }} />
      ) : (
        <Island name="RegisterForm" component={RegisterForm} props={{
          redirect, captcha: captchaEnabled("register"), verifyEmail: !!s.security.enable_verify_register_email, agreement: String(s.footer.agreement || ""),
        }} />
      )}
      {foot}
    </AuthCard>,
    { meta: { title: "注册", canonical: "/register", noindex: true }, cache: true },
  );
});
