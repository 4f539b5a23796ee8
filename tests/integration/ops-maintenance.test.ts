// PUT /sqlmode: SQLite upkeep steps with their results and times, VACUUM on request, the last
// run on the dashboard, and the gate.
import { describe, expect, test } from "bun:test";
import { getSqlite } from "#db/client.ts";
import { setupTestApp } from "#tests/helpers/testApp.ts";

const t = setupTestApp();

describe("PUT /api/v1/sqlmode", () => {
  test("runs integrity_check, optimize and a WAL checkpoint, each with its result and time", async () => {
    getSqlite().exec("CREATE TABLE filler (v TEXT); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO filler SELECT hex(randomblob(200)) FROM n");
    const r = await t.req("PUT", "/api/v1/sqlmode", { token: t.rootToken });
    expect(r.status).toBe(200);
    expect(r.body.ok).toBe(true);
    expect(r.body.vacuum).toBe(false);
    expect(r.body.steps.map((s: { name: string }) => s.name)).toEqual(["integrity_check", "optimize", "wal_checkpoint"]);
    expect(r.body.steps[0].result).toBe("ok");
    for (const s of r.body.steps) {
      expect(s.ok).toBe(true);
      expect(typeof s.ms).toBe("number");
      expect(s.label).toMatch(/[\u4e00-\u9fa5]/);
    }
    expect(r.body.steps[2].result).toContain("WAL 已截断");
  });

  test("{vacuum: true} adds VACUUM and reclaims the space of deleted rows", async () => {
    getSqlite().exec("DELETE FROM filler");
    const r = await t.req("PUT", "/api/v1/sqlmode", { token: t.rootToken, body: { vacuum: true } });
    expect(r.status).toBe(200);
    expect(r.body.steps.at(-1).name).toBe("vacuum");
    expect(r.body.steps.at(-1).ok).toBe(true);
    expect(r.body.size_after).toBeLessThan(r.body.size_before);
    // The server's own connection keeps working after another connection vacuumed the file.
    expect((getSqlite().query("SELECT count(*) AS n FROM user").get() as { n: number }).n).toBe(2);
  });

  test("a wrong body is a Chinese 400", async () => {
    const r = await t.req("PUT", "/api/v1/sqlmode", { token: t.rootToken, body: { vacuum: "yes" } });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe("vacuum 必须是布尔值");
  });

  test("the dashboard shows the last run with its button", async () => {
    const page = await t.req("GET", "/admin/dashboard", { token: t.rootToken, headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(page.text).toContain("数据库维护");
    expect(page.text).toContain("开始维护");
    expect(page.text).toContain("VACUUM 整理");
    // The release card sits beside it.
    expect(page.text).toContain("版本信息");
    expect(page.text).toContain("Apache-2.0");
  });

  test("visitors get 401, members 403", async () => {
    expect((await t.req("PUT", "/api/v1/sqlmode")).status).toBe(401);
    expect((await t.req("PUT", "/api/v1/sqlmode", { token: t.userToken })).status).toBe(403);
  });
});
