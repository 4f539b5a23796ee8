import { call, refused, str, withQuery } from "../http.ts";
import { avatarUrl, cleanEmail, origin, type Provider } from "./common.ts";

// Gitee OAuth2 authorization code flow (gitee.com/api/v5/oauth_doc): GET gitee.com/oauth/authorize →
// POST gitee.com/oauth/token?grant_type=authorization_code&code&client_id&redirect_uri with client_secret
// in the body → GET gitee.com/api/v5/user?access_token=… (id, login, name, avatar_url, email).

const WEB = "https://gitee.com";
const NAME = "Gitee";

export const gitee: Provider = {
  type: "gitee",
  name: () => NAME,
  async authorizeUrl(cfg, p) {
    return withQuery(`${origin(cfg, WEB)}/oauth/authorize`, {
      client_id: cfg.clientId, redirect_uri: p.redirectUri, response_type: "code", scope: "user_info", state: p.state,
    });
  },
  async exchange(cfg, p) {
    const url = withQuery(`${origin(cfg, WEB)}/oauth/token`, { grant_type: "authorization_code", code: p.code, client_id: cfg.clientId, redirect_uri: p.redirectUri });
    // The secret goes in the body, never in a URL that proxies might log.
    const tok = await call(NAME, url, { method: "POST", form: { client_secret: cfg.clientSecret } });
    const t = tok.body as Record<string, any>;
    if (tok.status !== 200 || !t.access_token) throw refused(NAME, t);
    const u = await call(NAME, withQuery(`${origin(cfg, WEB)}/api/v5/user`, { access_token: t.access_token }));
    const user = u.body as Record<string, any>;
    if (u.status !== 200 || user.id === undefined) throw refused(NAME, user);
    return { openid: str(user.id), unionid: "", name: str(user.name || user.login), avatar: avatarUrl(user.avatar_url), email: cleanEmail(user.email) };
  },
};
