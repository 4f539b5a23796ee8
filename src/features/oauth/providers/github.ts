import { call, refused, str, withQuery } from "../http.ts";
import { avatarUrl, cleanEmail, origin, type Provider } from "./common.ts";

// GitHub OAuth app web application flow (docs.github.com "Authorizing OAuth apps"):
// GET github.com/login/oauth/authorize → POST github.com/login/oauth/access_token with
// Accept: application/json → GET api.github.com/user and /user/emails with the bearer token.
// GitHub answers token errors (bad_verification_code, incorrect_client_credentials) with 200 + {error}.

const WEB = "https://github.com";
const API = "https://api.github.com";
const NAME = "GitHub";

export const github: Provider = {
  type: "github",
  name: () => NAME,
  async authorizeUrl(cfg, p) {
    return withQuery(`${origin(cfg, WEB)}/login/oauth/authorize`, {
      client_id: cfg.clientId, redirect_uri: p.redirectUri, scope: "read:user user:email", state: p.state, allow_signup: "true",
    });
  },
  async exchange(cfg, p) {
    const tok = await call(NAME, `${origin(cfg, WEB)}/login/oauth/access_token`, {
      method: "POST",
      form: { client_id: cfg.clientId, client_secret: cfg.clientSecret, code: p.code, redirect_uri: p.redirectUri },
    });
    const t = tok.body as Record<string, any>;
    if (tok.status !== 200 || !t.access_token) throw refused(NAME, t);
    // The REST API rejects requests without a User-Agent; call() always sends one.
    const headers = { Authorization: `Bearer ${t.access_token}`, Accept: "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28" };
    const u = await call(NAME, `${origin(cfg, API)}/user`, { headers });
    const user = u.body as Record<string, any>;
    if (u.status !== 200 || user.id === undefined) throw refused(NAME, user);
    // The profile's email is only the public one; the primary verified address needs user:email.
    let email = "";
    const e = await call(NAME, `${origin(cfg, API)}/user/emails`, { headers });
    if (e.status === 200 && Array.isArray(e.body)) email = cleanEmail(e.body.find((x) => x?.primary && x?.verified)?.email);
    return {
      openid: str(user.id), unionid: "", name: str(user.name || user.login), avatar: avatarUrl(user.avatar_url), email: email || cleanEmail(user.email),
    };
  },
};
