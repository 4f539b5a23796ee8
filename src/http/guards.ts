import type { MiddlewareHandler } from "hono";
import { setting } from "#src/features/settings/service.ts";
import { unauthorized } from "#src/lib/errors.ts";
import { grantsOf } from "#src/features/permissions/service.ts";
import type { AppEnv } from "./context.ts";

// Pages that stay reachable when the site requires login (spec §6).
const OPEN_PAGES = [/^\/login$/, /^\/register$/, /^\/findpassword(-mobile)?$/, /^\/oauth\/[\w-]+$/];
// APIs the login/register/recovery pages themselves call, and what any page shell needs.
const OPEN_APIS = [/^\/api\/v1\/user\/(login|register|findpassword|captcha|email\/code|logout)/, /^\/api\/v1\/sms$/, /^\/api\/v1\/oauth\//, /^\/api\/v1\/settings$/];
// A closed site admits anonymous users to the login page only, and to what signing in needs.
const CLOSED_APIS = [/^\/api\/v1\/user\/(login|captcha|logout)/, /^\/api\/v1\/sms$/, /^\/api\/v1\/settings$/];
// Payment notifications come from the gateways (no session, verified by signature): a closed or
// login-only site must still hear that money was taken.
const ALWAYS = [/^\/assets\//, /^\/healthz$/, /^\/favicon\.ico$/, /^\/robots\.txt$/, /^\/api\/v1\/payment\/notify\/(wechatpay|alipay)$/];
// The personal centre, the upload page and the AI chat pages need a signed-in user whatever the site mode.
const LOGIN_PAGES = [/^\/me(\/|$)/, /^\/chat(\/|$)/, /^\/upload$/];

const matches = (list: RegExp[], path: string) => list.some((r) => r.test(path));

const toLogin = (c: Parameters<MiddlewareHandler<AppEnv>>[0]) =>
  c.redirect(`/login?redirect=${encodeURIComponent(c.req.path + (new URL(c.req.url).search || ""))}`, 302);

/** security.is_close, security.login_required, then the login-only pages; before any feature route. */
export const siteGuards: MiddlewareHandler<AppEnv> = async (c, next) => {
  const path = c.req.path;
  if (matches(ALWAYS, path)) return next();
  const user = c.get("user");
  const isApi = path.startsWith("/api/");
  const closed = setting<boolean>("security", "is_close");
  const loginRequired = setting<boolean>("security", "login_required");
  // A closed site admits only users who hold some permission (spec §6).
  const blocked = closed ? !(user && (user.is_root || grantsOf(user.id).keys.size > 0)) : loginRequired && !user;
  if (blocked) {
    const open = isApi ? matches(closed ? CLOSED_APIS : OPEN_APIS, path) : closed ? path === "/login" : matches(OPEN_PAGES, path);
    if (!open) {
      if (isApi) throw unauthorized(closed ? "网站已关闭，请登录管理员账号" : "请先登录");
      return toLogin(c);
    }
  }
  if (!user && !isApi && matches(LOGIN_PAGES, path)) return toLogin(c);
  return next();
};
