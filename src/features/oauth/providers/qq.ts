import { call, refused, str, withQuery } from "../http.ts";
import { avatarUrl, origin, type Provider } from "./common.ts";

// QQ 互联 website login (wiki.connect.qq.com, "使用Authorization_Code获取Access_Token", "获取用户OpenID_OAuth2.0",
// get_user_info): GET graph.qq.com/oauth2.0/authorize → GET /oauth2.0/token?…&fmt=json → GET
// /oauth2.0/me?access_token&fmt=json ({client_id, openid}) → GET /user/get_user_info?access_token&
// oauth_consumer_key&openid ({ret, msg, nickname, figureurl_qq_2, figureurl_qq_1}).
// Errors come as {error, error_description}; without fmt=json the answers are a query string or JSONP,
// which call() also reads. unionid=1 is not requested: it fails unless the app was granted unionID.

const GRAPH = "https://graph.qq.com";
const NAME = "QQ";

export const qq: Provider = {
  type: "qq",
  name: () => NAME,
  async authorizeUrl(cfg, p) {
    return withQuery(`${origin(cfg, GRAPH)}/oauth2.0/authorize`, {
      response_type: "code", client_id: cfg.clientId, redirect_uri: p.redirectUri, state: p.state, scope: "get_user_info",
    });
  },
  async exchange(cfg, p) {
    const base = origin(cfg, GRAPH);
    const tok = await call(NAME, withQuery(`${base}/oauth2.0/token`, {
      grant_type: "authorization_code", client_id: cfg.clientId, client_secret: cfg.clientSecret, code: p.code, redirect_uri: p.redirectUri, fmt: "json",
    }));
    const t = tok.body as Record<string, any>;
    if (tok.status !== 200 || !t.access_token) throw refused(NAME, t);
    const me = await call(NAME, withQuery(`${base}/oauth2.0/me`, { access_token: t.access_token, fmt: "json" }));
    const m = me.body as Record<string, any>;
    // The answer names the app the token belongs to: a token issued to another app is refused.
    if (me.status !== 200 || !m.openid || str(m.client_id) !== cfg.clientId) throw refused(NAME, m);
    const info = await call(NAME, withQuery(`${base}/user/get_user_info`, { access_token: t.access_token, oauth_consumer_key: cfg.clientId, openid: m.openid }));
    const i = info.body as Record<string, any>;
    if (info.status !== 200 || Number(i.ret) !== 0) throw refused(NAME, i);
    return { openid: str(m.openid), unionid: str(m.unionid), name: str(i.nickname), avatar: avatarUrl(i.figureurl_qq_2 || i.figureurl_qq_1), email: "" };
  },
};
