import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import { startSession } from "#src/features/auth/cookies.ts";
import { siteOrigin } from "#src/features/site/sitemap.ts";
import { clientIp, type AppContext, type AppEnv } from "#src/http/context.ts";
import { log } from "#src/http/requestLog.ts";
import { AppError, badRequest, unauthorized } from "#src/lib/errors.ts";
import { validate } from "#src/lib/validate.ts";
import { DefaultLayout } from "#src/views/layouts/DefaultLayout.tsx";
import { renderPage } from "#src/views/render.tsx";
import { PROVIDER_TYPES } from "./providers/common.ts";
import { enabledProviders, oauthButtons, type EnabledProvider } from "./registry.ts";
import { bindingView, bindProfile, callbackUrl, fetchProfile, listBindings, requireProvider, selfUser, signInWithProfile, unbind } from "./service.ts";
import { beginState, safeRedirect, takeState } from "./state.ts";
import { OAuthErrorView } from "./views/OAuthPage.tsx";
import { wxShareSignature } from "./wxshare.ts";

export const oauthRoutes = new Hono<AppEnv>();

// Owner-only routes: anonymous callers get 401 before any input is looked at.
const loginRequired: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.get("user")) throw unauthorized();
  await next();
};

const typeField = z.enum(PROVIDER_TYPES, { error: "不支持的第三方登录类型" });
const codeBody = z.object({
  type: typeField,
  code: z.string({ error: "缺少授权码 code" }).min(1, "缺少授权码 code").max(512, "授权码 code 格式不正确"),
  state: z.string({ error: "缺少 state 参数" }).min(1, "缺少 state 参数").max(128, "state 参数格式不正确"),
});

async function authorizeUrl(c: AppContext, p: EnabledProvider, st: ReturnType<typeof beginState>) {
  return p.provider.authorizeUrl(p.cfg, { redirectUri: callbackUrl(siteOrigin(c.req.url), p.type), state: st.state, codeChallenge: st.codeChallenge });
}

// Enabled providers with a ready authorize URL. One state (cookie + server entry) serves them all.
oauthRoutes.get("/api/v1/oauth/configs", validate("query", z.object({ redirect: z.string().max(512).optional() })), async (c) => {
  const providers = enabledProviders();
  if (!providers.length) return c.json([]);
  const st = beginState(c, siteOrigin(c.req.url), c.req.valid("query").redirect);
  const out = [];
  for (const p of providers) {
    try {
      out.push({ type: p.type, name: p.name, icon: p.icon, authorize_url: await authorizeUrl(c, p, st) });
    } catch (err) {
      // A custom provider whose discovery is down loses its button; the others still work.
      log("warn", "oauth provider left out of configs", { type: p.type, error: String((err as Error)?.message ?? err) });
    }
  }
  return c.json(out);
});

function errorPage(c: AppContext, status: number, message: string, redirect: string) {
  const loggedIn = !!c.get("user");
  return renderPage(
    c,
    <DefaultLayout>
      <OAuthErrorView message={message} providers={oauthButtons()} redirect={redirect} loggedIn={loggedIn} />
    </DefaultLayout>,
    { meta: { title: loggedIn ? "绑定第三方账号" : "第三方登录", noindex: true }, status },
  );
}

// Without code/state/error the link starts a flow; with them the provider is sending the browser back.
oauthRoutes.get("/oauth/:type{[a-z]+}", async (c) => {
  const q = c.req.query();
  let landing = safeRedirect(q.redirect);
  try {
    const p = requireProvider(c.req.param("type"));
    if (q.code === undefined && q.state === undefined && q.error === undefined) {
      return c.redirect(await authorizeUrl(c, p, beginState(c, siteOrigin(c.req.url), q.redirect)), 302);
    }
    const st = takeState(c, q.state);
    landing = st.redirect;
    if (!q.code) throw badRequest(`你已取消${p.name}授权，未完成登录`);
    const profile = await fetchProfile(p, q.code.slice(0, 512), st, clientIp(c));
    const me = c.get("user");
    if (me) bindProfile(me.id, p.type, profile, p.name);
    else startSession(c, (await signInWithProfile(p.type, profile, clientIp(c))).user.id);
    return c.redirect(st.redirect, 302);
  } catch (err) {
    // Every expected failure shows the page with the reason and the buttons to try again.
    if (err instanceof AppError) return errorPage(c, err.status, err.message, landing);
    throw err;
  }
});

oauthRoutes.post("/api/v1/oauth/login", validate("json", codeBody), async (c) => {
  const { type, code, state } = c.req.valid("json");
  const p = requireProvider(type);
  const st = takeState(c, state);
  const { user } = await signInWithProfile(p.type, await fetchProfile(p, code, st, clientIp(c)), clientIp(c));
  const s = startSession(c, user.id);
  return c.json({ token: s.token, expires_at: s.expires_at, user: selfUser(user) });
});

oauthRoutes.post("/api/v1/oauth/bind", loginRequired, validate("json", codeBody), async (c) => {
  const { type, code, state } = c.req.valid("json");
  const p = requireProvider(type);
  const st = takeState(c, state);
  const row = bindProfile(c.get("user")!.id, p.type, await fetchProfile(p, code, st, clientIp(c)), p.name);
  return c.json({ message: "绑定成功", oauth: bindingView(row) });
});

oauthRoutes.get("/api/v1/user/oauth", loginRequired, (c) => {
  const oauth = listBindings(c.get("user")!.id);
  return c.json({ total: oauth.length, oauth });
});

const unbindBody = z
  .object({ id: z.coerce.number().int().positive("绑定 ID 不正确").optional(), type: typeField.optional() })
  .refine((b) => b.id !== undefined || b.type !== undefined, { message: "请指定要解绑的绑定 ID 或登录类型" });

// DELETE carries {id} or {type} as JSON, or the same as query parameters.
oauthRoutes.delete("/api/v1/user/oauth", loginRequired, async (c) => {
  const body = c.req.header("content-type")?.includes("json") ? await c.req.json().catch(() => null) : {};
  if (body === null || typeof body !== "object") throw badRequest("请求格式不正确（不是有效的 JSON）");
  const parsed = unbindBody.safeParse({ ...c.req.query(), ...body });
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? "参数格式不正确");
  const removed = unbind(c.get("user")!.id, parsed.data);
  return c.json({ message: "解绑成功", oauth: removed });
});

const pageUrl = z
  .string({ error: "缺少页面地址 url" })
  .min(1, "缺少页面地址 url")
  .max(2048, "页面地址过长")
  .refine((u) => /^https?:\/\/[^\s]+$/i.test(u), "页面地址必须是 http 或 https 开头的完整网址");

oauthRoutes.get("/api/v1/oauth/wxshare/signature", validate("query", z.object({ url: pageUrl })), async (c) => {
  return c.json(await wxShareSignature(c.req.valid("query").url));
});
