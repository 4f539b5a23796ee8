import { Hono } from "hono";
import { startSession } from "#src/features/auth/cookies.ts";
import { captchaEnabled } from "#src/features/captcha/service.ts";
import { publicUser } from "#src/features/auth/users.ts";
import { idsFrom } from "#src/features/admin/crud/routes.ts";
import { withDateRange } from "#src/features/admin/crud/schema.ts";
import { renderTablePage } from "#src/features/admin/page.tsx";
import { adminApi, adminPage } from "#src/http/adminOnly.ts";
import { clientIp, type AppEnv } from "#src/http/context.ts";
import { validate } from "#src/lib/validate.ts";
import { renderPage } from "#src/views/render.tsx";
import type { user } from "#db/schema/users.ts";
import { smsConfig } from "./codes.ts";
import type { SmsType } from "./providers/types.ts";
import { findPasswordSchema, listQuery, loginSchema, registerSchema, sendSchema } from "./schema.ts";
import { deleteSms, listSms, loginByMobile, registerByMobile, resetPasswordByMobile, sendCode, smsEnabled } from "./service.ts";
import { FindPasswordMobilePage, smsTable } from "./views.tsx";

export const smsRoutes = new Hono<AppEnv>();

const selfView = (u: typeof user.$inferSelect) => ({ ...publicUser(u), email: u.email ?? "", mobile: u.mobile ?? "", credit_count: u.credit_count });

// MOREDOC's client sends codes with POST /api/v1/sms { mobile, type, captcha, captcha_id }.
smsRoutes.post("/api/v1/sms", validate("json", sendSchema), async (c) => {
  const { mobile, type, captcha, captcha_id } = c.req.valid("json");
  const r = await sendCode(mobile, type as SmsType, clientIp(c), { id: captcha_id, answer: captcha });
  return c.json({ message: "短信验证码已发送，请注意查收", interval: r.interval, expires_in: r.expires_in });
});

smsRoutes.post("/api/v1/user/register/mobile", validate("json", registerSchema), async (c) => {
  const { mobile, code, password, username } = c.req.valid("json");
  const r = await registerByMobile({ mobile, code, password, username }, clientIp(c), (id) => startSession(c, id));
  return c.json({ token: r.session.token, expires_at: r.session.expires_at, user: selfView(r.user) });
});

smsRoutes.post("/api/v1/user/login/mobile", validate("json", loginSchema), (c) => {
  const { mobile, code } = c.req.valid("json");
  const r = loginByMobile(mobile, code, clientIp(c), (id) => startSession(c, id));
  return c.json({ token: r.session.token, expires_at: r.session.expires_at, user: selfView(r.user) });
});

smsRoutes.post("/api/v1/user/findpassword/mobile", validate("json", findPasswordSchema), async (c) => {
  const { mobile, code, password } = c.req.valid("json");
  await resetPasswordByMobile(mobile, code, password, clientIp(c));
  return c.json({ message: "密码重置成功，请使用新密码登录" });
});

smsRoutes.get("/api/v1/sms/list", adminApi, validate("query", listQuery), (c) => c.json(listSms(withDateRange(c.req.valid("query")))));

smsRoutes.delete("/api/v1/sms", adminApi, async (c) => {
  const deleted = deleteSms(await idsFrom(c));
  return c.json({ message: "删除成功", deleted });
});

// Without the SMS service the page would be a dead end; MOREDOC sends visitors to e-mail recovery.
smsRoutes.get("/findpassword-mobile", async (c) => {
  if (!smsEnabled()) return c.redirect("/findpassword", 302);
  const cfg = smsConfig();
  return renderPage(c, <FindPasswordMobilePage interval={Number(cfg.resend_interval) || 60} codeLength={Number(cfg.code_length) || 6} captcha={captchaEnabled("find_password")} />, {
    meta: { title: "手机找回密码", canonical: "/findpassword-mobile", noindex: true },
    cache: true,
  });
});

smsRoutes.get("/admin/user/sms", adminPage, (c) => {
  const pageSize = 20;
  return renderTablePage(c, {
    title: "短信记录",
    active: "user/sms",
    intro: <p>验证码短信的发送记录（不显示验证码本身）；发送失败的原因来自短信服务商。服务商与模板在「系统设置 · 短信设置」中配置。</p>,
    table: smsTable(listSms({ page: 1, size: pageSize }), pageSize),
  });
});
