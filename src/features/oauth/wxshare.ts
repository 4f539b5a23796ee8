import { createHash, randomBytes } from "node:crypto";
import { getSettings } from "#src/features/settings/service.ts";
import { AppError, badRequest } from "#src/lib/errors.ts";
import { log } from "#src/http/requestLog.ts";
import { call, withQuery } from "./http.ts";
import { origin } from "./providers/common.ts";
import { WECHAT_API } from "./providers/wechat.ts";

// WeChat JS-SDK permission signature (公众号 JS-SDK 说明文档, 附录1 签名算法): the official account's
// access_token (GET cgi-bin/token?grant_type=client_credential) buys a jsapi_ticket (GET
// cgi-bin/ticket/getticket?type=jsapi); both live 7200 s and their calls are strictly rate-limited,
// so both are cached until shortly before they expire. signature = sha1 of
// "jsapi_ticket=…&noncestr=…&timestamp=…&url=…" (keys in ASCII order, raw values, url without #…).

const NAME = "微信公众号";
const MARGIN_S = 300;
const cache = new Map<string, { value: string; expires: number }>();
const inflight = new Map<string, Promise<string>>();

/** Runs `load` once per key until its value expires; concurrent callers share one request. */
async function cached(key: string, load: () => Promise<{ value: string; expiresIn: number }>): Promise<string> {
  const hit = cache.get(key);
  if (hit && hit.expires > Date.now()) return hit.value;
  let p = inflight.get(key);
  if (!p) {
    p = load()
      .then(({ value, expiresIn }) => {
        cache.set(key, { value, expires: Date.now() + Math.max(60, (expiresIn || 7200) - MARGIN_S) * 1000 });
        return value;
      })
      .finally(() => inflight.delete(key));
    inflight.set(key, p);
  }
  return p;
}

const failed = (where: string, body: Record<string, any>) => {
  log("warn", "wechat js-sdk call failed", { where, errcode: body.errcode, errmsg: String(body.errmsg ?? "").slice(0, 200) });
  return new AppError(503, "wxshare", `获取微信分享签名失败（${body.errcode ?? "无响应"}），请检查公众号配置`);
};

// 40001 invalid credential, 42001 access_token expired: the cached token died early (e.g. reset elsewhere).
const TOKEN_DEAD = new Set([40001, 40014, 42001]);

async function jsapiTicket(appId: string, secret: string, api: string): Promise<string> {
  const tokenKey = `token:${api}:${appId}`;
  let tokenDied = false;
  const token = () => cached(tokenKey, async () => {
    const r = await call(NAME, withQuery(`${api}/cgi-bin/token`, { grant_type: "client_credential", appid: appId, secret }));
    const b = r.body as Record<string, any>;
    if (r.status !== 200 || !b.access_token) throw failed("token", b);
    return { value: String(b.access_token), expiresIn: Number(b.expires_in) };
  });
  const ticket = (accessToken: string) => cached(`ticket:${api}:${appId}`, async () => {
    const r = await call(NAME, withQuery(`${api}/cgi-bin/ticket/getticket`, { access_token: accessToken, type: "jsapi" }));
    const b = r.body as Record<string, any>;
    if (r.status !== 200 || Number(b.errcode ?? 0) !== 0 || !b.ticket) {
      if (TOKEN_DEAD.has(Number(b.errcode))) {
        cache.delete(tokenKey);
        tokenDied = true;
      }
      throw failed("ticket", b);
    }
    return { value: String(b.ticket), expiresIn: Number(b.expires_in) };
  });
  try {
    return await ticket(await token());
  } catch (err) {
    // One retry with a fresh access token when the cached one turned out dead.
    if (tokenDied) return ticket(await token());
    throw err;
  }
}

/** What `wx.config` needs for the page at `pageUrl`. */
export async function wxShareSignature(pageUrl: string) {
  const o = getSettings().oauth ?? {};
  const appId = String(o.wechat_mp_app_id ?? "").trim();
  const secret = String(o.wechat_mp_app_secret ?? "").trim();
  if (!appId || !secret) throw badRequest("网站未配置微信公众号，无法生成分享签名");
  const url = pageUrl.split("#")[0]!;
  const ticket = await jsapiTicket(appId, secret, origin({ base: String(o.wechat_base_url ?? "").trim() }, WECHAT_API));
  const nonce_str = randomBytes(12).toString("base64url").replace(/[-_]/g, "x");
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = createHash("sha1").update(`jsapi_ticket=${ticket}&noncestr=${nonce_str}&timestamp=${timestamp}&url=${url}`).digest("hex");
  return { app_id: appId, timestamp, nonce_str, signature };
}
