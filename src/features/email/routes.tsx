import { Hono } from "hono";
import { adminApi } from "#src/http/adminOnly.ts";
import { clientIp, type AppEnv } from "#src/http/context.ts";
import { captchaEnabled } from "#src/features/captcha/service.ts";
import { getSettings } from "#src/features/settings/service.ts";
import { AppError, tooManyRequests } from "#src/lib/errors.ts";
import { hit } from "#src/lib/rateLimit.ts";
import { validate } from "#src/lib/validate.ts";
import { Island } from "#src/views/Island.tsx";
import { DefaultLayout } from "#src/views/layouts/DefaultLayout.tsx";
import { renderPage } from "#src/views/render.tsx";
import FindPasswordForm from "#islands/account/FindPasswordForm.tsx";
import { RESEND_INTERVAL_MS, sendEmailCode } from "./codes.ts";
import { mailConfig, MailError, send } from "./mailer.ts";
import { findPasswordStepOne, findPasswordStepTwo } from "./reset.ts";
import { emailCodeSchema, emailField, stepOneSchema, stepTwoSchema, testMailSchema } from "./schema.ts";
import { testMail } from "./templates.ts";

export const emailRoutes = new Hono<AppEnv>();

const origin = (url: string) => new URL(url).origin;

// Never cached: the step-two URL carries the reset token.
emailRoutes.get("/findpassword", (c) => {
  const token = (c.req.query("token") ?? "").slice(0, 128);
  const parsed = emailField.safeParse(c.req.query("email") ?? "");
  const email = token && parsed.success ? parsed.data : "";
  const enabled = mailConfig().enable;
  return renderPage(
    c,
    <DefaultLayout>
      <div className="container auth-page">
        <div className="card auth-card">
          <h1>找回密码</h1>
          <p className="auth-sub muted">
            {email ? "请设置新的登录密码" : `通过注册邮箱找回${String(getSettings().system!.sitename)}的账号密码`}
          </p>
          <Island name="FindPasswordForm" component={FindPasswordForm} props={{ token: email ? token : "", email, enabled, captcha: captchaEnabled("find_password") }} />
          <div className="auth-foot muted">
            想起密码了？<a href="/login">返回登录</a>
          </div>
        </div>
      </div>
    </DefaultLayout>,
    { meta: { title: "找回密码", canonical: "/findpassword", noindex: true } },
  );
});

emailRoutes.post("/api/v1/user/email/code", validate("json", emailCodeSchema), async (c) => {
  const { email, type } = c.req.valid("json");
  const r = await sendEmailCode({ email, type, ip: clientIp(c), userId: c.get("user")?.id ?? null });
  return c.json({ message: "验证码已发送，请查收邮件", expires_at: r.expires_at, interval: RESEND_INTERVAL_MS / 1000 });
});

emailRoutes.post("/api/v1/user/findpassword/stepone", validate("json", stepOneSchema), async (c) => {
  await findPasswordStepOne({ ...c.req.valid("json"), ip: clientIp(c), origin: origin(c.req.url) });
  return c.json({ message: "已发送，请查收邮件" });
});

emailRoutes.put("/api/v1/user/findpassword/steptwo", validate("json", stepTwoSchema), async (c) => {
  await findPasswordStepTwo({ ...c.req.valid("json"), ip: clientIp(c) });
  return c.json({ message: "密码重置成功" });
});

// Works while the service is switched off, so an admin can check settings before enabling them.
emailRoutes.post("/api/v1/email/test", adminApi, validate("json", testMailSchema), async (c) => {
  const me = c.get("user")!;
  if (!hit(`mailtest:${me.id}`, 10, 60_000)) throw tooManyRequests("测试邮件发送过于频繁，请 1 分钟后再试");
  const { email } = c.req.valid("json");
  const at = new Date().toLocaleString("zh-CN", { timeZone: "Asia/Shanghai", hour12: false });
  try {
    await send(testMail({ to: email, sitename: String(getSettings().system!.sitename), at }));
  } catch (err) {
    // Administrators see the server's own answer; public flows only get the Chinese reason.
    if (err instanceof MailError && err.detail) throw new AppError(503, err.code, `${err.message}（${err.detail}）`);
    throw err;
  }
  return c.json({ message: "测试邮件已发送，请查收" });
});
