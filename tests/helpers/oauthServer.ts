// A local stand-in for the OAuth providers, on loopback, speaking each one's documented protocol:
// authorize (redirect back with code + state), token exchange checking client id/secret, code,
// redirect_uri (and PKCE for the custom provider), and user info with the issued token. Each
// provider lives under its own path prefix, e.g. http://127.0.0.1:PORT/github, so a site points
// `oauth.github_base_url` at `standIn.base("github")`. It also plays the WeChat official-account API
// (cgi-bin/token, cgi-bin/ticket/getticket) for the JS-SDK signature.
import { createHash, randomBytes } from "node:crypto";

export type StandInProvider = "github" | "gitee" | "qq" | "wechat" | "google" | "custom";

export interface StandInUser { id: string; name: string; avatar?: string; email?: string; unionid?: string }

interface Grant { provider: StandInProvider; clientId: string; redirectUri: string; user: StandInUser; challenge: string; expires: number }

export interface OAuthStandIn {
  url: string;
  base(p: StandInProvider): string;
  clients: Record<StandInProvider, { id: string; secret: string }>;
  /** the person who "approves" the next authorize request of that provider */
  setUser(p: StandInProvider, u: StandInUser): void;
  mp: { appId: string; secret: string; ticket: string; tokenCalls: number; ticketCalls: number };
  /** every request seen: provider, path, method, query, form body and headers */
  requests: { provider: string; path: string; method: string; query: Record<string, string>; form: Record<string, string>; headers: Record<string, string> }[];
  stop(): void;
}

const rand = () => randomBytes(16).toString("hex");
const json = (body: unknown, status = 200) => Response.json(body, { status });

export async function startOAuthServer(): Promise<OAuthStandIn> {
  const providers: StandInProvider[] = ["github", "gitee", "qq", "wechat", "google", "custom"];
  const clients = Object.fromEntries(providers.map((p) => [p, { id: `${p}-client-${rand().slice(0, 6)}`, secret: `${p}-secret-${rand()}` }])) as OAuthStandIn["clients"];
  const users = Object.fromEntries(providers.map((p) => [p, { id: `${p}-1001`, name: `${p} 用户` }])) as Record<StandInProvider, StandInUser>;
  const grants = new Map<string, Grant>();
  const tokens = new Map<string, { provider: StandInProvider; user: StandInUser; clientId: string }>();
  const mp = { appId: "wx-mp-app", secret: `mp-secret-${rand()}`, ticket: `ticket-${rand()}`, tokenCalls: 0, ticketCalls: 0 };
  const mpTokens = new Set<string>();
  const requests: OAuthStandIn["requests"] = [];

  function authorize(p: StandInProvider, q: URLSearchParams): Response {
    const clientId = q.get(p === "wechat" ? "appid" : "client_id");
    const redirectUri = q.get("redirect_uri");
    if (clientId !== clients[p].id) return new Response("unknown client_id", { status: 400 });
    if (!redirectUri || !/^https?:\/\//.test(redirectUri)) return new Response("redirect_uri required", { status: 400 });
    if (p !== "github" && q.get("response_type") !== "code") return new Response("response_type must be code", { status: 400 });
    if (p === "wechat" && q.get("scope") !== "snsapi_login") return new Response("scope must be snsapi_login", { status: 400 });
    if (p === "google" && !q.get("scope")?.split(" ").includes("openid")) return new Response("scope must include openid", { status: 400 });
    if (p === "custom" && (q.get("code_challenge_method") !== "S256" || !q.get("code_challenge"))) return new Response("PKCE S256 required", { status: 400 });
    const code = rand();
    grants.set(code, { provider: p, clientId, redirectUri, user: { ...users[p] }, challenge: q.get("code_challenge") ?? "", expires: Date.now() + 600_000 });
    const back = new URL(redirectUri);
    back.searchParams.set("code", code);
    if (q.get("state") !== null) back.searchParams.set("state", q.get("state")!);
    return new Response(null, { status: 302, headers: { location: back.toString() } });
  }

  type Redeemed = { token: string; user: StandInUser } | { error: "client" | "code" | "redirect" | "pkce" };
  /** Checks and uses up a code; answers the grant or the reason it is refused. */
  function redeem(p: StandInProvider, f: { clientId?: string | null; secret?: string | null; code?: string | null; redirectUri?: string | null; verifier?: string | null }): Redeemed {
    if (f.clientId !== clients[p].id || f.secret !== clients[p].secret) return { error: "client" };
    const g = f.code ? grants.get(f.code) : undefined;
    if (f.code) grants.delete(f.code);
    if (!g || g.provider !== p || g.expires < Date.now() || g.clientId !== f.clientId) return { error: "code" };
    if (g.redirectUri !== f.redirectUri) return { error: "redirect" };
    if (p === "custom" && createHash("sha256").update(f.verifier ?? "").digest("base64url") !== g.challenge) return { error: "pkce" };
    const token = `at-${rand()}`;
    tokens.set(token, { provider: p, user: g.user, clientId: g.clientId });
    return { token, user: g.user };
  }

  const bearer = (req: Request, p: StandInProvider) => {
    const t = tokens.get(req.headers.get("authorization")?.replace(/^Bearer\s+/i, "") ?? "");
    return t?.provider === p ? t : undefined;
  };
  const byQuery = (q: URLSearchParams, p: StandInProvider) => {
    const t = tokens.get(q.get("access_token") ?? "");
    return t?.provider === p ? t : undefined;
  };

  async function handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const [, provider, ...rest] = url.pathname.split("/");
    const p = provider as StandInProvider;
    const path = "/" + rest.join("/");
    const q = url.searchParams;
    const form = req.method === "POST" && req.headers.get("content-type")?.includes("x-www-form-urlencoded") ? Object.fromEntries(new URLSearchParams(await req.text())) : {};
    requests.push({ provider, path, method: req.method, query: Object.fromEntries(q), form, headers: Object.fromEntries(req.headers) });
    const get = (k: string) => form[k] ?? q.get(k);

    switch (`${p} ${req.method} ${path}`) {
      case "github GET /login/oauth/authorize": case "gitee GET /oauth/authorize": case "qq GET /oauth2.0/authorize":
      case "wechat GET /connect/qrconnect": case "google GET /o/oauth2/v2/auth": case "custom GET /authorize":
        return authorize(p, q);

      case "github POST /login/oauth/access_token": {
        const r = redeem(p, { clientId: get("client_id"), secret: get("client_secret"), code: get("code"), redirectUri: get("redirect_uri") });
        const body: Record<string, string> = "token" in r ? { access_token: r.token, token_type: "bearer", scope: "read:user,user:email" }
          : { error: { client: "incorrect_client_credentials", code: "bad_verification_code", redirect: "redirect_uri_mismatch", pkce: "bad_verification_code" }[r.error] };
        // GitHub answers form-encoded unless asked for JSON, and errors with 200.
        return req.headers.get("accept")?.includes("application/json") ? json(body) : new Response(new URLSearchParams(body).toString());
      }
      case "github GET /user": case "github GET /user/emails": {
        if (!req.headers.get("user-agent")) return json({ message: "Request forbidden by administrative rules. Please make sure your request has a User-Agent header" }, 403);
        const t = bearer(req, p);
        if (!t) return json({ message: "Bad credentials" }, 401);
        if (path === "/user/emails") return json(t.user.email ? [{ email: `other-${t.user.email}`, primary: false, verified: true, visibility: null }, { email: t.user.email, primary: true, verified: true, visibility: "private" }] : []);
        return json({ id: Number(t.user.id.replace(/\D/g, "")) || 1, login: t.user.id, name: t.user.name, avatar_url: t.user.avatar ?? "", email: null });
      }

      case "gitee POST /oauth/token": {
        if (q.get("grant_type") !== "authorization_code") return json({ error: "unsupported_grant_type" }, 400);
        if (q.get("client_secret")) return json({ error: "invalid_request", error_description: "secret must be in the body" }, 400);
        const r = redeem(p, { clientId: q.get("client_id"), secret: form.client_secret, code: q.get("code"), redirectUri: q.get("redirect_uri") });
        if (!("token" in r)) return json({ error: r.error === "client" ? "invalid_client" : "invalid_grant", error_description: "授权码无效" }, 401);
        return json({ access_token: r.token, token_type: "bearer", expires_in: 86400, refresh_token: rand(), scope: "user_info", created_at: Math.floor(Date.now() / 1000) });
      }
      case "gitee GET /api/v5/user": {
        const t = byQuery(q, p);
        if (!t) return json({ message: "401 Unauthorized: Access token does not exist" }, 401);
        return json({ id: Number(t.user.id.replace(/\D/g, "")) || 1, login: t.user.id, name: t.user.name, avatar_url: t.user.avatar ?? "", email: t.user.email ?? null });
      }

      case "qq GET /oauth2.0/token": {
        if (q.get("grant_type") !== "authorization_code") return json({ error: 100000, error_description: "grant_type error" });
        const r = redeem(p, { clientId: q.get("client_id"), secret: q.get("client_secret"), code: q.get("code"), redirectUri: q.get("redirect_uri") });
        if (!("token" in r)) {
          const err = { error: r.error === "client" ? 100016 : 100019, error_description: "code to access token error" };
          return q.get("fmt") === "json" ? json(err) : new Response(`callback( ${JSON.stringify(err)} );`);
        }
        const body = { access_token: r.token, expires_in: "7776000", refresh_token: rand() };
        return q.get("fmt") === "json" ? json(body) : new Response(new URLSearchParams(body).toString());
      }
      case "qq GET /oauth2.0/me": {
        const t = byQuery(q, p);
        const body = t ? { client_id: t.clientId, openid: t.user.id } : { error: 100016, error_description: "access token check failed" };
        return q.get("fmt") === "json" ? json(body) : new Response(`callback( ${JSON.stringify(body)} );`);
      }
      case "qq GET /user/get_user_info": {
        const t = byQuery(q, p);
        if (!t || q.get("oauth_consumer_key") !== t.clientId || q.get("openid") !== t.user.id) return json({ ret: 100016, msg: "access token check failed" });
        return json({ ret: 0, msg: "", nickname: t.user.name, gender: "男", figureurl_qq_1: t.user.avatar ?? "", figureurl_qq_2: t.user.avatar ?? "" });
      }

      case "wechat GET /sns/oauth2/access_token": {
        if (q.get("grant_type") !== "authorization_code") return json({ errcode: 40002, errmsg: "invalid grant_type" });
        const r = redeem(p, { clientId: q.get("appid"), secret: q.get("secret"), code: q.get("code"), redirectUri: grants.get(q.get("code") ?? "")?.redirectUri });
        if (!("token" in r)) return json(r.error === "client" ? { errcode: 40125, errmsg: "invalid appsecret" } : { errcode: 40029, errmsg: "invalid code" });
        return json({ access_token: r.token, expires_in: 7200, refresh_token: rand(), openid: r.user.id, scope: "snsapi_login", unionid: r.user.unionid ?? `u-${r.user.id}` });
      }
      case "wechat GET /sns/userinfo": {
        const t = byQuery(q, p);
        if (!t || q.get("openid") !== t.user.id) return json({ errcode: 40003, errmsg: "invalid openid" });
        return json({ openid: t.user.id, nickname: t.user.name, sex: 1, province: "广东", city: "深圳", country: "中国", headimgurl: t.user.avatar ?? "", privilege: [], unionid: t.user.unionid ?? `u-${t.user.id}` });
      }
      case "wechat GET /cgi-bin/token": {
        mp.tokenCalls++;
        if (q.get("grant_type") !== "client_credential" || q.get("appid") !== mp.appId) return json({ errcode: 40013, errmsg: "invalid appid" });
        if (q.get("secret") !== mp.secret) return json({ errcode: 40125, errmsg: "invalid appsecret" });
        const token = `mp-${rand()}`;
        mpTokens.add(token);
        return json({ access_token: token, expires_in: 7200 });
      }
      case "wechat GET /cgi-bin/ticket/getticket": {
        mp.ticketCalls++;
        if (!mpTokens.has(q.get("access_token") ?? "")) return json({ errcode: 40001, errmsg: "invalid credential" });
        if (q.get("type") !== "jsapi") return json({ errcode: 40097, errmsg: "invalid args" });
        return json({ errcode: 0, errmsg: "ok", ticket: mp.ticket, expires_in: 7200 });
      }

      case "google POST /token": case "custom POST /token": {
        if (get("grant_type") !== "authorization_code") return json({ error: "unsupported_grant_type" }, 400);
        let clientId = get("client_id");
        let secret = form.client_secret ?? null;
        const basic = req.headers.get("authorization");
        if (basic?.startsWith("Basic ")) {
          if (secret) return json({ error: "invalid_request", error_description: "more than one client authentication method" }, 400);
          [clientId, secret] = atob(basic.slice(6)).split(":").map(decodeURIComponent) as [string, string];
        }
        const r = redeem(p, { clientId, secret, code: get("code"), redirectUri: get("redirect_uri"), verifier: get("code_verifier") });
        if (!("token" in r)) return json({ error: r.error === "client" ? "invalid_client" : "invalid_grant", error_description: "Bad Request" }, r.error === "client" ? 401 : 400);
        return json({ access_token: r.token, expires_in: 3599, token_type: "Bearer", scope: "openid email profile", id_token: "unused.by.the.site" });
      }
      case "google GET /v1/userinfo": case "custom GET /userinfo": {
        const t = bearer(req, p);
        if (!t) return json({ error: "invalid_token" }, 401);
        const claims = { sub: t.user.id, name: t.user.name, picture: t.user.avatar ?? "", email: t.user.email ?? "", email_verified: true };
        // The custom provider also nests a non-OIDC shape, for the field-path mapping.
        return json(p === "custom" ? { ...claims, data: { user: { uid: `n-${t.user.id}`, nick: `${t.user.name}（内网）`, mail: t.user.email ?? "" } } } : claims);
      }
      case "custom GET /.well-known/openid-configuration": {
        const base = `${url.origin}/custom`;
        return json({ issuer: base, authorization_endpoint: `${base}/authorize`, token_endpoint: `${base}/token`, userinfo_endpoint: `${base}/userinfo`, code_challenge_methods_supported: ["S256"] });
      }
    }
    return json({ error: "not_found", path: url.pathname }, 404);
  }

  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: handle });
  const url = `http://127.0.0.1:${server.port}`;
  return {
    url, clients, mp, requests,
    base: (p) => `${url}/${p}`,
    setUser: (p, u) => void (users[p] = u),
    stop: () => void server.stop(true),
  };
}
