import { AppError } from "#src/lib/errors.ts";
import { call, refused, str, upstreamDown, withQuery } from "../http.ts";
import { avatarUrl, cleanEmail, type Provider, type ProviderConfig } from "./common.ts";

// Any OAuth 2.0 (RFC 6749 authorization code) or OpenID Connect provider: Keycloak, Authentik,
// Casdoor, an intranet SSO. Always with PKCE S256 (RFC 7636). With an issuer, endpoints the admin
// left blank come from {issuer}/.well-known/openid-configuration (OpenID Connect Discovery 1.0).
// The profile is read from the userinfo endpoint through admin-configured field paths.

interface Endpoints { authorize: string; token: string; userinfo: string }

const DISCOVERY_TTL_MS = 3600_000;
const discovered = new Map<string, { doc: Record<string, any>; expires: number }>();

const setting = (cfg: ProviderConfig, k: string) => String(cfg.all[`custom_${k}`] ?? "").trim();
const displayName = (cfg: ProviderConfig) => setting(cfg, "name") || "企业账号";
const misconfigured = (cfg: ProviderConfig, what: string) => new AppError(503, "oauth_config", `${displayName(cfg)}登录配置有误（${what}），请联系网站管理员`);

async function discover(cfg: ProviderConfig, issuer: string): Promise<Record<string, any>> {
  const hit = discovered.get(issuer);
  if (hit && hit.expires > Date.now()) return hit.doc;
  const r = await call(displayName(cfg), `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`);
  const doc = r.body as Record<string, any>;
  if (r.status !== 200 || !doc.authorization_endpoint) throw upstreamDown(displayName(cfg));
  discovered.set(issuer, { doc, expires: Date.now() + DISCOVERY_TTL_MS });
  return doc;
}

async function endpoints(cfg: ProviderConfig): Promise<Endpoints> {
  let e: Endpoints = { authorize: setting(cfg, "authorize_url"), token: setting(cfg, "token_url"), userinfo: setting(cfg, "userinfo_url") };
  const issuer = setting(cfg, "issuer");
  if (issuer && (!e.authorize || !e.token || !e.userinfo)) {
    const d = await discover(cfg, issuer);
    e = { authorize: e.authorize || str(d.authorization_endpoint), token: e.token || str(d.token_endpoint), userinfo: e.userinfo || str(d.userinfo_endpoint) };
  }
  for (const [k, v] of Object.entries(e)) if (!/^https?:\/\//i.test(v)) throw misconfigured(cfg, `${k} 地址`);
  return e;
}

/** Reads "a.b.0.c" (a leading "$." allowed) from a JSON value. */
export function pick(obj: unknown, path: string): unknown {
  const parts = path.replace(/^\$\.?/, "").split(".").filter(Boolean);
  let cur: any = obj;
  for (const p of parts) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = cur[p];
  }
  return cur;
}

export const custom: Provider = {
  type: "custom",
  name: displayName,
  complete: (cfg) => !!(setting(cfg, "issuer") || (setting(cfg, "authorize_url") && setting(cfg, "token_url") && setting(cfg, "userinfo_url"))),
  async authorizeUrl(cfg, p) {
    const e = await endpoints(cfg);
    return withQuery(e.authorize, {
      response_type: "code", client_id: cfg.clientId, redirect_uri: p.redirectUri, scope: setting(cfg, "scope") || undefined, state: p.state,
      code_challenge: p.codeChallenge, code_challenge_method: "S256",
    });
  },
  async exchange(cfg, p) {
    const name = displayName(cfg);
    const e = await endpoints(cfg);
    const form: Record<string, string> = { grant_type: "authorization_code", code: p.code, redirect_uri: p.redirectUri, code_verifier: p.codeVerifier, client_id: cfg.clientId };
    const headers: Record<string, string> = {};
    // RFC 6749 §2.3.1: exactly one client authentication method per request.
    if (setting(cfg, "token_auth") === "basic") {
      headers.Authorization = `Basic ${btoa(`${encodeURIComponent(cfg.clientId)}:${encodeURIComponent(cfg.clientSecret)}`)}`;
    } else form.client_secret = cfg.clientSecret;
    const tok = await call(name, e.token, { method: "POST", form, headers });
    const t = tok.body as Record<string, any>;
    if (tok.status !== 200 || !t.access_token) throw refused(name, t);
    const u = await call(name, e.userinfo, { headers: { Authorization: `Bearer ${t.access_token}` } });
    if (u.status !== 200) throw refused(name, u.body);
    const field = (k: string, def: string) => pick(u.body, setting(cfg, `field_${k}`) || def);
    const openid = str(field("id", "sub"));
    if (!openid || openid === "[object Object]") throw misconfigured(cfg, "用户 ID 字段");
    return {
      openid, unionid: "", name: str(field("name", "name")), avatar: avatarUrl(field("avatar", "picture")),
      email: pick(u.body, "email_verified") === false ? "" : cleanEmail(field("email", "email")),
    };
  },
};
