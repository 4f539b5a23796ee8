// Release and licence: version, build date and CHANGELOG entries; the update check against a
// loopback update server and an unreachable one; the source URL's validation; the gates.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import pkg from "../../package.json" with { type: "json" };
import { compareVersions, parseChangelog } from "#src/features/ops/release.ts";
import { setupTestApp } from "#tests/helpers/testApp.ts";

const t = setupTestApp();
let answer: unknown = { version: "9.9.9", url: "https://example.com/wenku-9.9.9.tar.gz", notes: "新增爬虫" };
let server: ReturnType<typeof Bun.serve>;
beforeAll(() => {
  server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req) => (new URL(req.url).pathname === "/broken" ? new Response("<html>", { status: 200 }) : Response.json(answer)) });
});
afterAll(() => server.stop(true));

describe("licence and release", () => {
  test("GET /license names Apache-2.0 with an excerpt and the version", async () => {
    const r = await t.req("GET", "/api/v1/license", { token: t.rootToken });
    expect(r.status).toBe(200);
    expect(r.body.name).toBe("Apache-2.0");
    expect(r.body.excerpt).toContain("Apache License");
    expect(r.body.version).toBe(pkg.version);
  });

  test("GET /release answers the package version, a build date and the parsed CHANGELOG", async () => {
    const r = await t.req("GET", "/api/v1/release", { token: t.rootToken });
    expect(r.status).toBe(200);
    expect(r.body.version).toBe(pkg.version);
    expect(r.body.build_date).toBeGreaterThan(Date.UTC(2026, 0, 1));
    expect(r.body.changelog[0].version).toBe(pkg.version);
    expect(r.body.changelog[0].date).toBe("2026-11-24");
    expect(r.body.changelog[0].sections.length).toBeGreaterThan(3);
    expect(r.body.changelog[0].sections.every((s: { items: string[] }) => s.items.length > 0)).toBe(true);
  });

  test("the changelog parser and version comparison", () => {
    const e = parseChangelog("# t\n\n## [1.2.0] - 2026-01-02\n### 新增\n- 一\n  续行\n- 二\n\n## 1.1.0\n- 三\n");
    expect(e).toEqual([
      { version: "1.2.0", date: "2026-01-02", sections: [{ title: "新增", items: ["一 续行", "二"] }] },
      { version: "1.1.0", date: "", sections: [{ title: "", items: ["三"] }] },
    ]);
    expect(compareVersions("0.10.0", "0.9.3")).toBe(1);
    expect(compareVersions("v1.0.0", "1.0")).toBe(0);
    expect(compareVersions("0.1.0", "0.2.0")).toBe(-1);
  });
});

describe("update source and check", () => {
  test("POST /release without a source says to set one", async () => {
    const r = await t.req("POST", "/api/v1/release", { token: t.rootToken });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain("尚未设置更新检查地址");
  });

  test("PUT /release/source takes http/https only", async () => {
    for (const url of ["ftp://example.com/x.json", "javascript:alert(1)", "file:///etc/passwd", "not a url", ""]) {
      const r = await t.req("PUT", "/api/v1/release/source", { token: t.rootToken, body: { url } });
      expect(r.status).toBe(400);
      expect(r.body.message).toContain("http");
    }
    const ok = await t.req("PUT", "/api/v1/release/source", { token: t.rootToken, body: { url: `http://127.0.0.1:${server.port}/latest.json` } });
    expect(ok.status).toBe(200);
    expect((await t.req("GET", "/api/v1/release", { token: t.rootToken })).body.source).toBe(`http://127.0.0.1:${server.port}/latest.json`);
  });

  test("POST /release reads {version, url, notes} from the source and compares", async () => {
    const r = await t.req("POST", "/api/v1/release", { token: t.rootToken });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ current: pkg.version, latest: "9.9.9", has_update: true, notes: "新增爬虫" });
    answer = { version: pkg.version };
    const same = await t.req("POST", "/api/v1/release", { token: t.rootToken });
    expect(same.body.has_update).toBe(false);
    // The last check is kept for the release screen.
    expect((await t.req("GET", "/api/v1/release", { token: t.rootToken })).body.last_check.latest).toBe(pkg.version);
  });

  test("a source that answers no JSON or no version is a clear 502", async () => {
    await t.req("PUT", "/api/v1/release/source", { token: t.rootToken, body: { url: `http://127.0.0.1:${server.port}/broken` } });
    const html = await t.req("POST", "/api/v1/release", { token: t.rootToken });
    expect(html.status).toBe(502);
    expect(html.body.message).toBe("更新服务器的回复不是有效的 JSON");
    answer = { name: "x" };
    await t.req("PUT", "/api/v1/release/source", { token: t.rootToken, body: { url: `http://127.0.0.1:${server.port}/latest.json` } });
    const noVersion = await t.req("POST", "/api/v1/release", { token: t.rootToken });
    expect(noVersion.status).toBe(502);
    expect(noVersion.body.message).toContain("缺少版本号");
  });

  test("an unreachable update server gives the Chinese message", async () => {
    const dead = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
    const port = dead.port;
    dead.stop(true);
    await t.req("PUT", "/api/v1/release/source", { token: t.rootToken, body: { url: `http://127.0.0.1:${port}/latest.json` } });
    const r = await t.req("POST", "/api/v1/release", { token: t.rootToken });
    expect(r.status).toBe(502);
    expect(r.body.message).toStartWith("无法连接更新服务器");
    const nx = await t.req("PUT", "/api/v1/release/source", { token: t.rootToken, body: { url: "http://update.invalid/latest.json" } });
    expect(nx.status).toBe(200);
    const r2 = await t.req("POST", "/api/v1/release", { token: t.rootToken });
    expect(r2.status).toBe(502);
    expect(r2.body.message).toStartWith("无法连接更新服务器");
  });

  test("the release screen renders version, changelog and the check button", async () => {
    const page = await t.req("GET", "/admin/system/release", { token: t.rootToken, headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    for (const s of ["版本与授权", "Apache-2.0", "检查更新", "更新日志", pkg.version]) expect(page.text).toContain(s);
  });
});

describe("gates", () => {
  test("visitors get 401, members 403 on every release and licence call", async () => {
    for (const [m, p] of [["GET", "/api/v1/license"], ["GET", "/api/v1/release"], ["POST", "/api/v1/release"], ["PUT", "/api/v1/release/source"]] as const) {
      expect((await t.req(m, p, { body: m === "PUT" ? { url: "http://x.test/" } : undefined })).status).toBe(401);
      expect((await t.req(m, p, { token: t.userToken, body: m === "PUT" ? { url: "http://x.test/" } : undefined })).status).toBe(403);
    }
  });

  test("the operation calls are registered as permissions with Chinese labels", async () => {
    const r = await t.req("GET", "/api/v1/permission/list?size=1000", { token: t.rootToken });
    const rows: { method: string; path: string; title: string }[] = r.body.permission;
    const want = ["PUT /api/v1/sqlmode", "GET /api/v1/license", "GET /api/v1/release", "POST /api/v1/release", "PUT /api/v1/release/source", "GET /api/v1/backup/list", "POST /api/v1/backup", "GET /api/v1/backup/download", "DELETE /api/v1/backup", "DELETE /api/v1/ssr/cache"];
    for (const w of want) {
      const row = rows.find((p) => `${p.method} ${p.path}` === w);
      expect(row?.title ?? `missing ${w}`).toMatch(/[\u4e00-\u9fa5]/);
    }
  });
});
