import { call, refused, str, withQuery } from "../http.ts";
import { avatarUrl, origin, type Provider } from "./common.ts";

// WeChat website application QR login (developers.weixin.qq.com, 网站应用微信登录开发指南):
// open.weixin.qq.com/connect/qrconnect?appid&redirect_uri&response_type=code&scope=snsapi_login&state
// #wechat_redirect → GET api.weixin.qq.com/sns/oauth2/access_token?appid&secret&code&grant_type=
// authorization_code ({access_token, openid, unionid} or {errcode, errmsg}) → GET /sns/userinfo?
// access_token&openid ({openid, nickname, headimgurl, unionid}). A user who declines comes back
// with state and no code.

export const WECHAT_OPEN = "https://open.weixin.qq.com";
export const WECHAT_API = "https://api.weixin.qq.com";
const NAME = "微信";

const failed = (b: Record<string, any>) => b.errcode !== undefined && Number(b.errcode) !== 0;

export const wechat: Provider = {
  type: "wechat",
  name: () => NAME,
  async authorizeUrl(cfg, p) {
    // Parameter order as documented: WeChat's page is known to be picky about it.
    const url = withQuery(`${origin(cfg, WECHAT_OPEN)}/connect/qrconnect`, {
      appid: cfg.clientId, redirect_uri: p.redirectUri, response_type: "code", scope: "snsapi_login", state: p.state,
    });
    return `${url}#wechat_redirect`;
  },
  async exchange(cfg, p) {
    const api = origin(cfg, WECHAT_API);
    const tok = await call(NAME, withQuery(`${api}/sns/oauth2/access_token`, { appid: cfg.clientId, secret: cfg.clientSecret, code: p.code, grant_type: "authorization_code" }));
    const t = tok.body as Record<string, any>;
    if (tok.status !== 200 || failed(t) || !t.access_token || !t.openid) throw refused(NAME, t);
    const u = await call(NAME, withQuery(`${api}/sns/userinfo`, { access_token: t.access_token, openid: t.openid, lang: "zh_CN" }));
    const info = u.body as Record<string, any>;
    if (u.status !== 200 || failed(info) || str(info.openid) !== str(t.openid)) throw refused(NAME, info);
    return { openid: str(t.openid), unionid: str(info.unionid || t.unionid), name: str(info.nickname), avatar: avatarUrl(info.headimgurl), email: "" };
  },
};
