import { Hono } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import { z } from "zod";
import { clientIp, type AppEnv } from "#src/http/context.ts";
import { notFound, unauthorized } from "#src/lib/errors.ts";
import { validate } from "#src/lib/validate.ts";
import { renderPage } from "#src/views/render.tsx";
import { DefaultLayout } from "#src/views/layouts/DefaultLayout.tsx";
import { Island } from "#src/views/Island.tsx";
import LoginForm from "#islands/LoginForm.tsx";
import { env } from "#src/env.ts";
import { getSettings } from "#src/features/settings/service.ts";
import { loginSchema, passwordSchema, profileSchema } from "./schema.ts";
import { changePassword, login, updateProfile } from "./service.ts";
import { createSession, revokeSession, SESSION_COOKIE, SESSION_TTL_MS } from "./sessions.ts";
import { findUserById, publicUser } from "./users.ts";

export const authRoutes = new Hono<AppEnv>();

const safeRedirect = (r: string | undefined) => (r && r.startsWith("/") && !r.startsWith("//") && !r.startsWith("/\\") ? r : "/");

function setSessionCookie(c: Parameters<typeof setCookie>[0], token: string) {
  setCookie(c, SESSION_COOKIE, token, { httpOnly: true, sameSite: "Lax", path: "/", secure: env.isProd && c.req.url.startsWith("https:"), maxAge: SESSION_TTL_MS / 1000 });
}

const selfView = (u: NonNullable<ReturnType<typeof findUserById>>) => ({
  ...publicUser(u), realname: u.realname, email: u.email ?? "", mobile: u.mobile ?? "", address: u.address, identity: u.identity, credit_count: u.credit_count, login_at: u.login_at,
});

authRoutes.get("/login", (c) => {
  const user = c.get("user");
  if (user) return c.redirect(`/user/${user.id}`, 302);
  const redirect = safeRedirect(c.req.query("redirect"));
  return renderPage(
    c,
    <DefaultLayout>
      <div className="container auth-page">
        <div className="card auth-card">
          <h1>登录</h1>
          <p className="auth-sub muted">欢迎回到{String(getSettings().system.sitename)}，登录后可上传、收藏与下载文档</p>
          <Island name="LoginForm" component={LoginForm} props={{ redirect }} />
        </div>
      </div>
    </DefaultLayout>,
    { meta: { title: "登录", canonical: "/login", noindex: true }, cache: true },
  );
});

authRoutes.post("/api/v1/user/login", validate("json", loginSchema), async (c) => {
  const { username, password } = c.req.valid("json");
  const r = await login(username, password, clientIp(c), c.req.header("user-agent") ?? "");
  setSessionCookie(c, r.token);
  return c.json({ token: r.token, expires_at: r.expires_at, user: selfView(r.user) });
});

authRoutes.delete("/api/v1/user/logout", (c) => {
  const token = c.get("token");
  if (!token) throw unauthorized();
  revokeSession(token);
  deleteCookie(c, SESSION_COOKIE, { path: "/" });
  return c.json({ message: "退出成功" });
});

authRoutes.get("/api/v1/user", validate("query", z.object({ id: z.coerce.number().int().positive("用户 ID 不正确").optional() })), (c) => {
  const me = c.get("user");
  const { id } = c.req.valid("query");
  if (id && id !== me?.id) {
    const u = findUserById(id);
    if (!u) throw notFound("用户不存在");
    return c.json({ user: publicUser(u) });
  }
  if (!me) throw unauthorized();
  return c.json({ user: selfView(findUserById(me.id)!) });
});

authRoutes.put("/api/v1/user/password", validate("json", passwordSchema), async (c) => {
  const me = c.get("user");
  if (!me) throw unauthorized();
  const { old_password, new_password } = c.req.valid("json");
  await changePassword(me.id, old_password, new_password);
  const s = createSession(me.id, clientIp(c), c.req.header("user-agent") ?? "");
  if (c.get("authVia") === "cookie") setSessionCookie(c, s.token);
  return c.json({ message: "密码修改成功", token: s.token });
});

authRoutes.put("/api/v1/user/profile", validate("json", profileSchema), (c) => {
  const me = c.get("user");
  if (!me) throw unauthorized();
  const u = updateProfile(me.id, c.req.valid("json"));
  return c.json({ message: "修改成功", user: selfView(u) });
});
