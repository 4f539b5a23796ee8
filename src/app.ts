import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { compress } from "hono/compress";
import { HTTPException } from "hono/http-exception";
import { authRoutes } from "#src/features/auth/routes.tsx";
import { captchaRoutes } from "#src/features/captcha/routes.ts";
import { meRoutes } from "#src/features/me/routes.tsx";
import { settingsRoutes } from "#src/features/settings/routes.ts";
import { siteRoutes } from "#src/features/site/routes.tsx";
import { assetRoutes } from "#src/features/site/assets.ts";
import { signRoutes } from "#src/features/sign/routes.ts";
import { adminRoutes } from "#src/features/admin/routes.ts";
import { usersRoutes } from "#src/features/users/routes.ts";
import { oauthRoutes } from "#src/features/oauth/routes.tsx";
import { emailRoutes } from "#src/features/email/routes.tsx";
import { smsRoutes } from "#src/features/sms/routes.tsx";
import { readerRoutes } from "#src/features/reader/routes.tsx";
import { articleRoutes } from "#src/features/articles/routes.ts";
import { commentRoutes } from "#src/features/comments/routes.ts";
import { pageImageRoutes } from "#src/features/reader/pageImages.ts";
import { categoryRoutes } from "#src/features/categories/routes.tsx";
import { downloadRoutes } from "#src/features/downloads/routes.ts";
import { documentRoutes } from "#src/features/documents/routes.ts";
import { searchRoutes } from "#src/features/search/routes.tsx";
import { searchRecordRoutes } from "#src/features/search/recordsRoutes.tsx";
import { exportRoutes } from "#src/features/export/routes.ts";
import { chatRoutes } from "#src/features/ai/routes.ts";
import { chatPageRoutes } from "#src/features/ai/pages.tsx";
import { orderPageRoutes } from "#src/features/orders/pages.tsx";
import { searchSuggestRoutes } from "#src/features/search/suggestRoutes.ts";
import { orderRoutes } from "#src/features/orders/routes.ts";
import { vipRoutes } from "#src/features/vip/routes.ts";
import { spiderRoutes } from "#src/features/spider/routes.tsx";
import { ocrRoutes } from "#src/features/ocr/routes.tsx";
import { opsRoutes } from "#src/features/ops/routes.tsx";
import { AppError, payloadTooLarge, serviceBusy } from "#src/lib/errors.ts";
import { isBusyError } from "#db/client.ts";
import type { AppEnv } from "#src/http/context.ts";
import { siteGuards } from "#src/http/guards.ts";
import { pageCache, setPageCacheFetch } from "#src/http/pageCache.ts";
import { log, requestLog } from "#src/http/requestLog.ts";
import { securityHeaders } from "#src/http/securityHeaders.ts";
import { csrfGuard, sessionMiddleware } from "#src/http/session.ts";
import { renderErrorPage, renderNotFound } from "#src/features/site/errorPages.tsx";
import { registerPermissions } from "#src/features/permissions/sync.ts";

// Hono's own errors (malformed JSON, body limits) carry English text; users get Chinese.
function fromHttpException(err: HTTPException): AppError {
  const status = err.status as AppError["status"];
  const text: Record<number, string> = { 400: "请求格式不正确（不是有效的 JSON 或表单）", 401: "请先登录", 403: "没有权限进行此操作", 413: "请求内容过大", 415: "不支持的内容类型" };
  const message = /[\u4e00-\u9fa5]/.test(err.message) ? err.message : text[status] ?? "请求无法处理";
  return new AppError(status, "http", message);
}

/** Builds the whole app: global middleware in lifecycle order (design.md §4), then feature routers. */
export function createApp() {
  const app = new Hono<AppEnv>();
  app.use(requestLog);
  app.use(securityHeaders);
  app.route("/", assetRoutes);
  // Page images are static files behind an access check: served like assets (reader/pageImages.ts).
  app.route("/", pageImageRoutes);
  // Already-compressed bodies (gzip SVG pages, cached pages) pass through untouched.
  app.use(compress());
  // JSON APIs take at most 1 MB; upload routes stream files and enforce their own per-type limits.
  const jsonLimit = bodyLimit({ maxSize: 1024 * 1024, onError: () => { throw payloadTooLarge("请求内容过大（超过 1 MB）"); } });
  app.use("/api/*", (c, next) => (c.req.path.startsWith("/api/v1/upload/") ? next() : jsonLimit(c, next)));
  app.use(sessionMiddleware);
  app.use(csrfGuard);
  app.use(siteGuards);
  app.use(pageCache);

  app.route("/", siteRoutes);
  app.route("/", authRoutes);
  app.route("/", captchaRoutes);
  app.route("/", meRoutes);
  app.route("/", settingsRoutes);
  app.route("/", signRoutes);
  app.route("/", adminRoutes);
  app.route("/", usersRoutes);
  app.route("/", oauthRoutes);
  app.route("/", emailRoutes);
  app.route("/", smsRoutes);
  app.route("/", readerRoutes);
  app.route("/", articleRoutes);
  app.route("/", commentRoutes);
  app.route("/", categoryRoutes);
  app.route("/", downloadRoutes);
  app.route("/", documentRoutes);
  app.route("/", searchRoutes);
  app.route("/", searchSuggestRoutes);
  app.route("/", searchRecordRoutes);
  app.route("/", exportRoutes);
  app.route("/", chatRoutes);
  app.route("/", chatPageRoutes);
  app.route("/", orderPageRoutes);
  app.route("/", orderRoutes);
  app.route("/", vipRoutes);
  app.route("/", spiderRoutes);
  app.route("/", ocrRoutes);
  app.route("/", opsRoutes);

  registerPermissions(app);
  // A member's first view of a shared page is filled by an anonymous request through this same app.
  setPageCacheFetch((req) => app.fetch(req));

  app.notFound((c) => {
    if (c.req.path.startsWith("/api/")) return c.json({ code: "not_found", message: "接口不存在" }, 404);
    return renderNotFound(c);
  });
  app.onError((err, c) => {
    const e = err instanceof AppError ? err : err instanceof HTTPException ? fromHttpException(err) : isBusyError(err) ? serviceBusy() : null;
    if (!e) log("error", "unhandled", { id: c.get("requestId"), path: c.req.path, error: String(err?.stack ?? err) });
    const status = e?.status ?? 500;
    const message = e?.message || "服务器内部错误";
    if (c.req.path.startsWith("/api/") || !c.req.header("accept")?.includes("text/html")) {
      return c.json({ code: e?.code ?? "internal", message }, status);
    }
    if (status === 404) return renderNotFound(c);
    return renderErrorPage(c, status, message);
  });
  return app;
}
