import { AppError, badRequest } from "#src/lib/errors.ts";
import { log } from "#src/http/requestLog.ts";

// Calls to providers: a time-out, and every failure turned into a Chinese message for the user while
// the provider's own text goes to the log (it can name client ids and is English anyway).

const TIMEOUT_MS = 10_000;

export const upstreamDown = (provider: string) => new AppError(503, "oauth_upstream", `连接${provider}失败，请稍后重试`);
// Error codes that mean the site's own credentials are wrong, not the user's code: OAuth 2.0
// invalid_client, GitHub incorrect_client_credentials, WeChat 40013 invalid appid / 40125 invalid appsecret.
const CONFIG_ERRORS = new Set(["invalid_client", "unauthorized_client", "incorrect_client_credentials", "40013", "40125"]);

/** A provider said no: a bad or reused code for the user, or (from its error code) a site misconfiguration. */
export function refused(provider: string, body: unknown) {
  const b = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  const code = str(b.error ?? b.errcode ?? b.ret ?? b.code);
  log("warn", "oauth provider refused", { provider, detail: JSON.stringify(b).slice(0, 300) });
  if (CONFIG_ERRORS.has(code)) return new AppError(503, "oauth_config", `${provider}登录配置有误，请联系网站管理员`);
  return badRequest(`${provider}授权失败：授权码无效或已过期，请重新登录`);
}

/** Reads a provider answer that may be JSON, a query string (QQ without fmt=json) or JSONP `callback( … );`. */
export function parseLoose(text: string): Record<string, any> {
  const t = text.trim();
  const jsonp = /^callback\(\s*([\s\S]*?)\s*\);?$/.exec(t);
  const body = jsonp ? jsonp[1]! : t;
  try {
    const v = JSON.parse(body);
    return v && typeof v === "object" ? v : {};
  } catch {
    return Object.fromEntries(new URLSearchParams(body));
  }
}

export interface CallOptions {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  form?: Record<string, string>;
}

/** One HTTP call to a provider; answers the parsed body and the status, throwing only when unreachable. */
export async function call(provider: string, url: string, opts: CallOptions = {}): Promise<{ status: number; body: Record<string, any> | any[] }> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: opts.method ?? "GET",
      headers: { Accept: "application/json", "User-Agent": "wenku-oauth", ...(opts.form ? { "Content-Type": "application/x-www-form-urlencoded" } : {}), ...opts.headers },
      body: opts.form ? new URLSearchParams(opts.form).toString() : undefined,
      redirect: "manual",
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    log("warn", "oauth provider unreachable", { provider, url: url.split("?")[0], error: String(err) });
    throw upstreamDown(provider);
  }
  const text = await res.text().catch(() => "");
  let body: Record<string, any> | any[];
  try {
    body = JSON.parse(text);
  } catch {
    body = parseLoose(text);
  }
  return { status: res.status, body: body ?? {} };
}

export const withQuery = (url: string, q: Record<string, string | undefined>) => {
  const u = new URL(url);
  for (const [k, v] of Object.entries(q)) if (v !== undefined) u.searchParams.set(k, v);
  return u.toString();
};

export const str = (v: unknown) => (v === undefined || v === null ? "" : String(v));
