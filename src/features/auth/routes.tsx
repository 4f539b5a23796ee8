import { Hono } from "hono";
import { deleteCookie } from "hono/cookie";
import { z } from "zod";
import { clientIp, type AppContext, type AppEnv } from "#src/http/context.ts";
import { assertCaptcha } from "#src/features/captcha/service.ts";
import { notFound, tooManyRequests, unauthorized } from "#src/lib/errors.ts";
import { hit } from "#src/lib/rateLimit.ts";
import { validate } from "#src/lib/validate.ts";
import { startSession } from "./cookies.ts";
import { authPages } from "./pages.tsx";
import { registerAccount } from "./register.ts";
import { loginSchema, passwordSchema, profileSchema, registerSchema } from "./schema.ts";
import { changePassword, login, updateProfile } from "./service.ts";
import { revokeSession, SESSION_COOKIE } from "./sessions.ts";
import { findUserById, publicUser, selfView } from "./users.ts";

export const authRoutes = new Hono<AppEnv>();
authRoutes.route("/", authPages);

const me = (c: AppContext) => {
  const u = c.get("user");
  if (!u) throw unauthorized();
  return u;
};

authRoutes.post("/api/v1/user/login", validate("json", loginSchema), async (c) => {
  const { username, password, captcha_id, captcha } = c.req.valid("json");
  assertCaptcha("login", captcha_id, captcha);
  const r = await login(username, password, clientIp(c), c.req.header("user-agent") ?? "").catch((e) => {
    if (e?.retryAfterSeconds) c.header("Retry-After", String(e.retryAfterSeconds));
    throw e;
  });
  // login() made the session; the cookie carries it for pages, the body for API clients.
  startSession(c, r.user.id, r);
  return c.json({ token: r.token, expires_at: r.expires_at, user: selfView(r.user) });
});

// Every attempt counts, valid or not, so the endpoint cannot be used to probe names in bulk.
const REGISTER_PER_IP = 10;
const registerLimit = async (c: AppContext, next: () => Promise<void>) => {
  if (!hit(`register:ip:${clientIp(c)}`, REGISTER_PER_IP, 3600_000)) throw tooManyRequests("注册过于频繁，请一小时后再试");
  await next();
};

authRoutes.post("/api/v1/user/register", registerLimit, validate("json", registerSchema), async (c) => {
  const u = await registerAccount(c.req.valid("json"), clientIp(c));
  const s = startSession(c, u.id);
  return c.json({ token: s.token, expires_at: s.expires_at, user: selfView(u) });
});

authRoutes.delete("/api/v1/user/logout", (c) => {
  const token = c.get("token");
  if (!token) throw unauthorized();
  revokeSession(token);
  deleteCookie(c, SESSION_COOKIE, { path: "/" });
  return c.json({ message: "退出成功" });
});

authRoutes.get("/api/v1/user", validate("query", z.object({ id: z.coerce.number().int().positive("用户 ID 不正确").optional() })), (c) => {
  const self = c.get("user");
  const { id } = c.req.valid("query");
  if (id && id !== self?.id) {
    const u = findUserById(id);
    if (!u) throw notFound("用户不存在");
    return c.json({ user: publicUser(u) });
  }
  return c.json({ user: selfView(findUserById(me(c).id)!) });
});

// Revokes every session of the user, then hands this client a fresh one (cookie and token).
authRoutes.put("/api/v1/user/password", validate("json", passwordSchema), async (c) => {
  const u = me(c);
  const { old_password, new_password } = c.req.valid("json");
  await changePassword(u.id, old_password, new_password);
  const s = startSession(c, u.id);
  return c.json({ message: "密码修改成功", token: s.token, expires_at: s.expires_at });
});

authRoutes.put("/api/v1/user/profile", validate("json", profileSchema), (c) => {
  const u = updateProfile(me(c).id, c.req.valid("json"));
  return c.json({ message: "修改成功", user: selfView(u) });
});
