import { describe, expect, test } from "bun:test";
import { updateConfig } from "#src/features/settings/service.ts";
import { setupTestApp } from "../helpers/testApp.ts";

const t = setupTestApp();
const html = { accept: "text/html", "accept-encoding": "gzip" };

describe("security headers", () => {
  test("CSP allows only the site's own scripts, plus nosniff, frame and referrer policies", async () => {
    const r = await t.req("GET", "/", { headers: html });
    const csp = r.res.headers.get("content-security-policy")!;
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(r.res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(r.res.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    expect(r.res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(r.res.headers.get("x-request-id")).toMatch(/^[\w-]+$/);
  });

  test("an analytics snippet is allowed by hash and origin, and rendered once", async () => {
    const inline = "window.dataLayer=[];";
    updateConfig([{ category: "system", name: "analytics", value: `<script src="https://hm.example.com/hm.js?x=1"></script><script>${inline}</script>` }]);
    const r = await t.req("GET", "/", { headers: html });
    const csp = r.res.headers.get("content-security-policy")!;
    const hash = new Bun.CryptoHasher("sha256").update(inline).digest("base64");
    expect(csp).toContain(`'sha256-${hash}'`);
    expect(csp).toContain("https://hm.example.com");
    expect(r.text.split("hm.example.com/hm.js").length).toBe(2);
    updateConfig([{ category: "system", name: "analytics", value: "" }]);
    const after = await t.req("GET", "/", { headers: html });
    expect(after.res.headers.get("content-security-policy")).toContain("script-src 'self';");
  });
});

describe("anonymous page cache", () => {
  test("second anonymous request is a hit, gzipped, and a settings write refreshes it", async () => {
    await t.req("GET", "/", { headers: html });
    const hit = await t.req("GET", "/", { headers: html });
    expect(hit.res.headers.get("x-cache")).toBe("HIT");
    expect(hit.res.headers.get("content-encoding")).toBe("gzip");
    updateConfig([{ category: "system", name: "sitename", value: "缓存刷新测试站" }]);
    const fresh = await t.req("GET", "/", { headers: html });
    expect(fresh.res.headers.get("x-cache")).toBe("MISS");
    expect(fresh.text).toContain("缓存刷新测试站");
  });

  test("logged-in users get the shared page with their own parts, never cached for others", async () => {
    const r = await t.req("GET", "/", { headers: html, token: t.userToken });
    expect(r.res.headers.get("x-cache")).toBe("SHARED");
    expect(r.res.headers.get("cache-control")).toContain("private");
    expect(r.text).toContain("member");
    const anon = await t.req("GET", "/", { headers: html });
    expect(anon.res.headers.get("x-cache")).toBe("HIT");
    expect(anon.text).not.toContain('"member"');
  });
});

describe("errors", () => {
  test("malformed JSON is a Chinese 400", async () => {
    const r = await t.req("PUT", "/api/v1/config", { body: "{bad", token: t.rootToken, headers: { "content-type": "application/json" } });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/[\u4e00-\u9fa5]/);
  });
  test("a body over 1 MB is a Chinese 413", async () => {
    const r = await t.req("PUT", "/api/v1/config", { body: JSON.stringify({ config: [{ category: "system", name: "sitename", value: "x".repeat(1_100_000) }] }), token: t.rootToken, headers: { "content-type": "application/json" } });
    expect(r.status).toBe(413);
    expect(r.body.message).toContain("请求内容过大");
  });
  test("unknown API path is a JSON 404", async () => {
    const r = await t.req("GET", "/api/v1/nope");
    expect(r.status).toBe(404);
    expect(r.body.message).toBe("接口不存在");
  });
  test("assets: hashed files are immutable; traversal is impossible", async () => {
    const page = await t.req("GET", "/", { headers: html });
    const js = /\/assets\/client-[\w]+\.js/.exec(page.text)![0];
    const a = await t.req("GET", js);
    expect(a.status).toBe(200);
    expect(a.res.headers.get("cache-control")).toContain("immutable");
    const gz = await t.req("GET", js, { headers: { "accept-encoding": "gzip, br" } });
    expect(gz.res.headers.get("content-encoding")).toBe("gzip");
    expect(gz.text).toBe(a.text);
    expect((await t.req("GET", `${js}.gz`)).status).toBe(404);
    for (const p of ["/assets/..%2Fmanifest.json", "/assets/%2e%2e%2fmanifest.json", "/assets/../package.json"]) {
      const r = await t.req("GET", p);
      expect(r.status).toBe(404);
    }
  });
});

describe("daily sign-in", () => {
  test("awards once a day", async () => {
    expect((await t.req("PUT", "/api/v1/user/sign")).status).toBe(401);
    const first = await t.req("PUT", "/api/v1/user/sign", { token: t.userToken });
    expect(first.status).toBe(200);
    expect(first.body.award).toBe(1);
    const again = await t.req("PUT", "/api/v1/user/sign", { token: t.userToken });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("今日已签到");
    const state = await t.req("GET", "/api/v1/user/sign", { token: t.userToken });
    expect(state.body.id).toBe(first.body.id);
  });
});
