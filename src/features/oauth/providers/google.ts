import { call, refused, str, withQuery } from "../http.ts";
import { avatarUrl, cleanEmail, origin, type Provider } from "./common.ts";

// Google OAuth 2.0 for web server applications + OpenID Connect (developers.google.com/identity):
// accounts.google.com/o/oauth2/v2/auth → POST oauth2.googleapis.com/token (form: code, client_id,
// client_secret, redirect_uri, grant_type) → GET openidconnect.googleapis.com/v1/userinfo with the
// bearer token ({sub, name, picture, email, email_verified}); endpoints as in Google's discovery document.

const ACCOUNTS = "https://accounts.google.com";
const TOKEN = "https://oauth2.googleapis.com";
const USERINFO = "https://openidconnect.googleapis.com";
const NAME = "Google";

export const google: Provider = {
  type: "google",
  name: () => NAME,
  async authorizeUrl(cfg, p) {
    return withQuery(`${origin(cfg, ACCOUNTS)}/o/oauth2/v2/auth`, {
      client_id: cfg.clientId, redirect_uri: p.redirectUri, response_type: "code", scope: "openid email profile", state: p.state,
    });
  },
  async exchange(cfg, p) {
    const tok = await call(NAME, `${origin(cfg, TOKEN)}/token`, {
      method: "POST",
      form: { code: p.code, client_id: cfg.clientId, client_secret: cfg.clientSecret, redirect_uri: p.redirectUri, grant_type: "authorization_code" },
    });
    const t = tok.body as Record<string, any>;
    if (tok.status !== 200 || !t.access_token) throw refused(NAME, t);
    const u = await call(NAME, `${origin(cfg, USERINFO)}/v1/userinfo`, { headers: { Authorization: `Bearer ${t.access_token}` } });
    const info = u.body as Record<string, any>;
    if (u.status !== 200 || !info.sub) throw refused(NAME, info);
    return {
      openid: str(info.sub), unionid: "", name: str(info.name || info.given_name), avatar: avatarUrl(info.picture),
      email: info.email_verified === false ? "" : cleanEmail(info.email),
    };
  },
};
