// Dashboard: table counts (missing tables count 0), converter tool probes, device figures and the
// 14-day activity chart bucketed by Asia/Shanghai days.
import { describe, expect, test } from "bun:test";
import { getSqlite } from "#db/client.ts";
import { activity } from "#src/features/admin/dashboard/service.ts";
import { setupTestApp } from "../helpers/testApp.ts";

const t = setupTestApp();
const get = (path: string) => t.req("GET", path, { token: t.rootToken });

describe("GET /api/v1/stats", () => {
  test("counts every table; tables that do not exist yet count 0", async () => {
    await t.req("POST", "/api/v1/navigation", { token: t.rootToken, body: { title: "导航" } });
    await t.req("POST", "/api/v1/friendlink", { token: t.rootToken, body: { title: "友链", link: "https://a.cn" } });
    const r = await get("/api/v1/stats");
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      user_count: 2, document_count: 0, article_count: 0, category_count: 0, attachment_count: 0,
      navigation_count: 4 /* 3 seeded fixed entries (migration 0014) + 1 */, friendlink_count: 1, banner_count: 0, advertisement_count: 0,
      search: { top: [], zero: [] },
    });
  });
  test("articles are counted", async () => {
    getSqlite().exec("insert into article (identifier, title, content, user_id) values ('stats1', '统计', '正文', 1)");
    expect((await get("/api/v1/stats")).body.article_count).toBe(1);
    getSqlite().exec("delete from article");
  });
});

describe("GET /api/v1/envs", () => {
  test("lists the five converters with install state and Debian package", async () => {
    const r = await get("/api/v1/envs");
    expect(r.status).toBe(200);
    const byName = Object.fromEntries(r.body.envs.map((e: any) => [e.name, e]));
    expect(Object.keys(byName)).toEqual(["soffice", "mutool", "pdftotext", "pdftocairo", "ebook-convert"]);
    expect(byName.soffice.package).toContain("libreoffice-writer-nogui");
    expect(byName.mutool.package).toBe("mupdf-tools");
    expect(byName.pdftotext.package).toBe("poppler-utils");
    expect(byName["ebook-convert"].package).toBe("calibre");
    for (const e of r.body.envs) {
      expect(e.installed).toBe(!!Bun.which(e.name));
      expect(e.label).toMatch(/[\u4e00-\u9fa5]/);
      if (e.installed && !e.error) expect(e.version).toMatch(/\d+\.\d+/);
    }
  });
  test("answers come from the 60 s cache the second time", async () => {
    const started = performance.now();
    expect((await get("/api/v1/envs")).status).toBe(200);
    expect(performance.now() - started).toBeLessThan(50);
  });
});

describe("GET /api/v1/device", () => {
  test("CPU, memory and the disk holding DATA_DIR", async () => {
    const r = await get("/api/v1/device");
    expect(r.status).toBe(200);
    const d = r.body;
    expect(d.cpu_cores).toBeGreaterThan(0);
    expect(d.load).toHaveLength(3);
    expect(d.memory_total).toBeGreaterThan(d.memory_used);
    expect(d.memory_used).toBeGreaterThan(0);
    expect(d.disk_total).toBeGreaterThanOrEqual(d.disk_used);
    expect(d.bun_version).toBe(Bun.version);
    expect(d.uptime).toBeGreaterThanOrEqual(0);
  });
});

describe("activity chart", () => {
  test("days are Asia/Shanghai days; users, attachments and finished jobs per day", () => {
    // 2026-03-10 12:00 in Shanghai.
    const now = Date.UTC(2026, 2, 10, 4);
    const sqlite = getSqlite();
    // 2026-03-10 00:30 Shanghai is still 03-09 in UTC: it must count for 03-10.
    const earlyToday = Date.UTC(2026, 2, 9, 16, 30);
    const yesterday = Date.UTC(2026, 2, 9, 15, 59);
    const tooOld = Date.UTC(2026, 1, 20);
    sqlite.query("insert into user (username, password, created_at) values ('a1', 'x', ?), ('a2', 'x', ?), ('a3', 'x', ?)").run(earlyToday, yesterday, tooOld);
    sqlite.query("insert into attachment (hash, path, created_at) values ('h', '/uploads/x.png', ?)").run(earlyToday);
    sqlite.query("insert into jobs (kind, status, finished_at) values ('k', 'done', ?), ('k', 'failed', ?)").run(yesterday, yesterday);
    const days = activity(14, now);
    expect(days).toHaveLength(14);
    expect(days[0]!.day).toBe("02-25");
    expect(days.at(-1)).toEqual({ day: "03-10", users: 1, attachments: 1, jobs: 0 });
    expect(days.at(-2)).toEqual({ day: "03-09", users: 1, attachments: 0, jobs: 1 });
    expect(days.reduce((n, d) => n + d.users, 0)).toBe(2);
  });

  test("the dashboard page draws it as inline SVG with the counts", async () => {
    const r = await t.req("GET", "/admin/dashboard", { token: t.rootToken, headers: { accept: "text/html" } });
    expect(r.status).toBe(200);
    expect(r.text).toContain("最近 14 天动态");
    expect(r.text).toMatch(/<svg class="adm-chart-wide" viewBox="0 0 720 240" role="img" aria-label="最近 14 天动态：新增用户 \d+/);
    expect((r.text.match(/<rect /g) ?? []).length).toBeGreaterThan(0);
    expect(r.text).toContain("友情链接");
    expect(r.text).toContain('data-island="AdminSysInfo"');
  });
});
