// Route-test side of third-party login: configure a provider against the stand-in, and play the
// browser's part of the code flow (start link → provider authorize → back to /oauth/{type}).
import { expect } from "bun:test";
import type { TestApp } from "./testApp.ts";
import type { OAuthStandIn, StandInProvider } from "./oauthServer.ts";

export const html = { accept: "text/html" };

/** name=value pairs of the response's Set-Cookie headers (an empty value means "deleted"). */
export function setCookies(res: Response): Record<string, string> {
  return Object.fromEntries(res.headers.getSetCookie().map((c) => {
    const [pair] = c.split(";");
    const i = pair!.indexOf("=");
    return [pair!.slice(0, i), pair!.slice(i + 1)];
  }));
}

export const cookieHeader = (jar: Record<string, string | undefined>) =>
  Object.entries(jar).filter(([, v]) => v).map(([k, v]) => `${k}=${v}`).join("; ");

/** Settings of one provider pointed at the stand-in, saved through PUT /config as the root admin. */
export async function configure(t: TestApp & { rootToken: string }, idp: OAuthStandIn, p: StandInProvider, extra: Record<string, string | boolean> = {}) {
  const values: Record<string, string | boolean> = {
    [`${p}_enable`]: true, [`${p}_client_id`]: idp.clients[p].id, [`${p}_client_secret`]: idp.clients[p].secret,
    ...(p === "custom" ? { custom_issuer: idp.base("custom") } : { [`${p}_base_url`]: idp.base(p) }),
    ...extra,
  };
  const r = await t.req("PUT", "/api/v1/config", { token: t.rootToken, body: { config: Object.entries(values).map(([name, value]) => ({ category: "oauth", name, value })) } });
  expect(r.status).toBe(200);
}

export interface FlowResult {
  /** the /oauth/{type}?code&state response */
  callback: Awaited<ReturnType<TestApp["req"]>>;
  /** the session cookie it set, if it signed someone in */
  session?: string;
  state: string;
  code: string;
}

/**
 * The whole browser round trip. `session` is a wk_token cookie of an already signed-in user (bind);
 * `tamper` may change the code or state the provider sent back before the site sees them.
 */
export async function runFlow(t: TestApp, p: string, opts: { session?: string; redirect?: string; tamper?: (u: URL) => void } = {}): Promise<FlowResult> {
  const start = await t.req("GET", `/oauth/${p}${opts.redirect !== undefined ? `?redirect=${encodeURIComponent(opts.redirect)}` : ""}`, {
    headers: { ...html, ...(opts.session ? { cookie: `wk_token=${opts.session}` } : {}) },
  });
  expect(start.status).toBe(302);
  const stateCookie = setCookies(start.res).wk_oauth_state;
  expect(stateCookie).toBeTruthy();
  const authorize = await fetch(start.res.headers.get("location")!, { redirect: "manual" });
  expect(authorize.status).toBe(302);
  const back = new URL(authorize.headers.get("location")!);
  expect(back.pathname).toBe(`/oauth/${p}`);
  opts.tamper?.(back);
  const callback = await t.req("GET", back.pathname + back.search, { headers: { ...html, cookie: cookieHeader({ wk_oauth_state: stateCookie, wk_token: opts.session }) } });
  return { callback, session: setCookies(callback.res).wk_token || undefined, state: back.searchParams.get("state") ?? "", code: back.searchParams.get("code") ?? "" };
}
