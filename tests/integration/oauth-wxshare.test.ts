// GET /api/v1/oauth/wxshare/signature against the WeChat official-account stand-in: the signature is
// checked against sha1("jsapi_ticket=…&noncestr=…&timestamp=…&url=…") computed here from the
// stand-in's ticket, and the access token and ticket are fetched once and cached.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { setupTestApp } from "../helpers/testApp.ts";
import { startOAuthServer, type OAuthStandIn } from "../helpers/oauthServer.ts";

const t = setupTestApp();
let idp: OAuthStandIn;
const setMp = (config: Record<string, string>) =>
  t.req("PUT", "/api/v1/config", { token: t.rootToken, body: { config: Object.entries(config).map(([name, value]) => ({ category: "oauth", name, value })) } });

beforeAll(async () => {
  idp = await startOAuthServer();
});
afterAll(() => idp?.stop());

describe("WeChat JS-SDK signature", () => {
  test("not configured: 400 in Chinese", async () => {
    const r = await t.req("GET", `/api/v1/oauth/wxshare/signature?url=${encodeURIComponent("https://wenku.example/")}`);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe("网站未配置微信公众号，无法生成分享签名");
  });

  test("a wrong AppSecret surfaces as a Chinese error naming the WeChat code", async () => {
    await setMp({ wechat_mp_app_id: idp.mp.appId, wechat_mp_app_secret: "wrong", wechat_base_url: idp.base("wechat") });
    const r = await t.req("GET", `/api/v1/oauth/wxshare/signature?url=${encodeURIComponent("https://wenku.example/")}`);
    expect(r.status).toBe(503);
    expect(r.body.message).toBe("获取微信分享签名失败（40125），请检查公众号配置");
  });

  test("signature equals the documented sha1, the url taken without its #fragment", async () => {
    await setMp({ wechat_mp_app_secret: idp.mp.secret });
    const page = "https://wenku.example/document/abc?from=share&x=1#comments";
    const r = await t.req("GET", `/api/v1/oauth/wxshare/signature?url=${encodeURIComponent(page)}`);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["app_id", "nonce_str", "signature", "timestamp"]);
    expect(r.body.app_id).toBe(idp.mp.appId);
    expect(Math.abs(r.body.timestamp - Date.now() / 1000)).toBeLessThan(5);
    expect(r.body.nonce_str).toMatch(/^[A-Za-z0-9]{16}$/);
    const string1 = `jsapi_ticket=${idp.mp.ticket}&noncestr=${r.body.nonce_str}&timestamp=${r.body.timestamp}&url=https://wenku.example/document/abc?from=share&x=1`;
    expect(r.body.signature).toBe(createHash("sha1").update(string1).digest("hex"));
    expect(r.text).not.toContain(idp.mp.secret);
  });

  test("access token and ticket are cached: more signatures, no more WeChat calls", async () => {
    const calls = { token: idp.mp.tokenCalls, ticket: idp.mp.ticketCalls };
    const sigs = await Promise.all([1, 2, 3].map((i) => t.req("GET", `/api/v1/oauth/wxshare/signature?url=${encodeURIComponent(`https://wenku.example/p/${i}`)}`)));
    for (const s of sigs) expect(s.status).toBe(200);
    expect(new Set(sigs.map((s) => s.body.nonce_str)).size).toBe(3);
    expect(idp.mp.tokenCalls).toBe(calls.token);
    expect(idp.mp.ticketCalls).toBe(calls.ticket);
  });

  test("url is required and must be a full http(s) address", async () => {
    const missing = await t.req("GET", "/api/v1/oauth/wxshare/signature");
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe("缺少页面地址 url");
    const relative = await t.req("GET", "/api/v1/oauth/wxshare/signature?url=/document/1");
    expect(relative.body.message).toBe("页面地址必须是 http 或 https 开头的完整网址");
  });
});
