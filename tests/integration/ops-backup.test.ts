// Backups: one taken while another process keeps writing restores (through the admin command
// line) to a database that passes integrity_check and holds every row committed before it began;
// hostile names never reach the file system; the schedule and retention; restore refusals.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync, copyFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { getSqlite } from "#db/client.ts";
import { setDocumentsRoot } from "#src/features/documents/paths.ts";
import { setStorageRoot } from "#src/features/admin/attachment/storage.ts";
import { listBackups, pruneBackups, scheduledBackupDue, setBackupsDir } from "#src/features/ops/backup.ts";
import { backupAndPrune, scheduledRun } from "#src/features/ops/jobs.ts";
import { updateConfig } from "#src/features/settings/service.ts";
import { startWorker } from "#src/jobs/worker.ts";
import { setupTestApp } from "#tests/helpers/testApp.ts";

const t = setupTestApp();
const root = mkdtempSync(join(tmpdir(), "wk-ops-backup-"));
const backups = join(root, "backups");
const DOC = "documents/ab/abcdef0123456789abcdef0123456789/original.txt";
const IMG = "uploads/banner/2026/11/0f.png";

beforeAll(() => {
  setDocumentsRoot(join(root, "documents"));
  setStorageRoot(join(root, "uploads"));
  setBackupsDir(backups);
  for (const [rel, body] of [[DOC, "文档原文"], [IMG, "PNG-BYTES"]] as const) {
    mkdirSync(join(root, rel, ".."), { recursive: true });
    writeFileSync(join(root, rel), body);
  }
  getSqlite().exec("CREATE TABLE probe (id INTEGER PRIMARY KEY, v TEXT NOT NULL, at INTEGER NOT NULL)");
});
afterAll(() => {
  setDocumentsRoot(null);
  setStorageRoot(null);
  setBackupsDir(null);
  rmSync(root, { recursive: true, force: true });
});

const dbFile = () => getSqlite().filename;
const count = (db: Database, sql: string) => (db.query(sql).get() as { n: number }).n;

async function restoreCli(file: string, dataDir: string) {
  const p = Bun.spawn(["bun", "scripts/admin.ts", "restore", file], { env: { ...process.env, DATA_DIR: dataDir }, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { out, err, code };
}

describe("backup under concurrent writes, then restore", () => {
  let archive = "";
  let before = 0;

  test("POST /backup runs as a job while a second process writes; the archive lists", async () => {
    const stop = join(root, "stop-writer");
    const writer = Bun.spawn(["bun", "tests/integration/ops-writer.worker.ts"], { env: { ...process.env, DB_FILE: dbFile(), STOP_FILE: stop }, stdout: "pipe", stderr: "inherit" });
    const worker = startWorker({ concurrency: 1, pollMs: 50 });
    try {
      while (count(getSqlite(), "SELECT count(*) AS n FROM probe") < 500) await Bun.sleep(10);
      // Every row committed up to here must be in the backup.
      before = count(getSqlite(), "SELECT max(id) AS n FROM probe");
      const r = await t.req("POST", "/api/v1/backup", { token: t.rootToken });
      expect(r.status).toBe(200);
      expect(r.body.job.status).toBe("queued");
      let list: any;
      for (let i = 0; i < 600; i++) {
        list = (await t.req("GET", "/api/v1/backup/list", { token: t.rootToken })).body;
        if (list.job?.status === "done" || list.job?.status === "failed") break;
        await Bun.sleep(50);
      }
      expect(list.job.error).toBe("");
      expect(list.job.status).toBe("done");
      expect(list.total).toBe(1);
      archive = join(backups, list.backup[0].name);
      expect(list.backup[0].manifest.db.integrity).toBe("ok");
      expect(list.backup[0].manifest.files.count).toBe(2);
    } finally {
      writeFileSync(stop, "");
      await writer.exited;
      await worker.stop();
    }
    const written = JSON.parse((await new Response(writer.stdout).text()).trim().split("\n").at(-1)!).committed;
    // The writer kept committing during the backup: the snapshot is strictly a prefix of the rows.
    expect(written).toBeGreaterThan(before);
  }, 120_000);

  test("admin.ts restore puts back a database that passes integrity_check with every earlier row, and the files", async () => {
    const target = mkdtempSync(join(tmpdir(), "wk-ops-restore-"));
    try {
      // Data already there is moved aside, not lost.
      writeFileSync(join(target, "wenku.db"), "old database");
      const r = await restoreCli(archive, target);
      expect(r.err).toBe("");
      expect(r.code).toBe(0);
      expect(r.out).toContain("恢复完成");
      const db = new Database(join(target, "wenku.db"), { readonly: true });
      try {
        expect((db.query("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check).toBe("ok");
        const restored = count(db, "SELECT count(*) AS n FROM probe");
        expect(count(db, `SELECT count(*) AS n FROM probe WHERE id <= ${before}`)).toBe(before);
        // A consistent snapshot: no gaps, so it is exactly the rows committed at one instant.
        expect(count(db, "SELECT max(id) AS n FROM probe")).toBe(restored);
        expect(restored).toBeLessThanOrEqual(count(getSqlite(), "SELECT count(*) AS n FROM probe"));
        expect(count(db, "SELECT count(*) AS n FROM user")).toBe(count(getSqlite(), "SELECT count(*) AS n FROM user"));
      } finally {
        db.close();
      }
      expect(readFileSync(join(target, DOC), "utf8")).toBe("文档原文");
      expect(readFileSync(join(target, IMG), "utf8")).toBe("PNG-BYTES");
      const previous = /原有数据已移到 (\S+)，/.exec(r.out)![1]!;
      expect(readFileSync(join(previous, "wenku.db"), "utf8")).toBe("old database");
    } finally {
      rmSync(target, { recursive: true, force: true });
    }
  }, 60_000);

  test("restore refuses while a server runs on that DATA_DIR, and a damaged archive changes nothing", async () => {
    const target = mkdtempSync(join(tmpdir(), "wk-ops-restore-"));
    try {
      writeFileSync(join(target, "wenku.db"), "live database");
      writeFileSync(join(target, "server.pid"), `${process.pid}\n${hostname()}\n`);
      const running = await restoreCli(archive, target);
      expect(running.code).toBe(1);
      expect(running.err).toContain("网站服务正在运行");
      rmSync(join(target, "server.pid"));

      const broken = join(target, "broken.tar.gz");
      copyFileSync(archive, broken);
      truncateSync(broken, 300);
      const bad = await restoreCli(broken, target);
      expect(bad.code).toBe(1);
      expect(bad.err).toContain("恢复失败");
      expect(readFileSync(join(target, "wenku.db"), "utf8")).toBe("live database");

      const missing = await restoreCli(join(target, "nope.tar.gz"), target);
      expect(missing.code).toBe(1);
      expect(missing.err).toContain("备份文件不存在");
    } finally {
      rmSync(target, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("download and delete", () => {
  test("an archive downloads as gzip for the root administrator", async () => {
    const name = listBackups()[0]!.name;
    const r = await t.app.request(`/api/v1/backup/download?name=${name}`, { headers: { authorization: `Bearer ${t.rootToken}` } });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-disposition")).toContain(name);
    const bytes = new Uint8Array(await r.arrayBuffer());
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
  });

  test("hostile or foreign names are refused before touching the disk", async () => {
    writeFileSync(join(backups, "notes.txt"), "not a backup");
    writeFileSync(join(root, "secret.tar.gz"), "outside");
    const hostile = ["../wenku.db", "../secret.tar.gz", "/etc/passwd", "notes.txt", "..%2Fsecret.tar.gz", "wenku-backup-20261124-101010-abcd.tar.gz/../../secret.tar.gz", "wenku-backup-20261124-101010-abcd.tar.gz\0"];
    for (const name of hostile) {
      const d = await t.req("GET", `/api/v1/backup/download?name=${encodeURIComponent(name)}`, { token: t.rootToken });
      expect(d.status).toBe(400);
      expect(d.body.message).toBe("备份文件名不合法");
      const x = await t.req("DELETE", `/api/v1/backup?name=${encodeURIComponent(name)}`, { token: t.rootToken });
      expect(x.status).toBe(400);
    }
    expect(existsSync(join(root, "secret.tar.gz"))).toBe(true);
    const none = await t.req("GET", "/api/v1/backup/download?name=wenku-backup-20000101-000000-zzzz.tar.gz", { token: t.rootToken });
    expect(none.status).toBe(404);
    expect(none.body.message).toBe("备份不存在或已删除");
    // Only our own archives are listed.
    const list = await t.req("GET", "/api/v1/backup/list", { token: t.rootToken });
    expect(list.body.backup.every((b: { name: string }) => b.name.startsWith("wenku-backup-"))).toBe(true);
  });

  test("members get 403 and visitors 401 on every backup call", async () => {
    const name = listBackups()[0]!.name;
    for (const [m, p] of [["GET", "/api/v1/backup/list"], ["POST", "/api/v1/backup"], ["GET", `/api/v1/backup/download?name=${name}`], ["DELETE", `/api/v1/backup?name=${name}`]] as const) {
      expect((await t.req(m, p)).status).toBe(401);
      expect((await t.req(m, p, { token: t.userToken })).status).toBe(403);
    }
  });

  test("DELETE removes the archive and its summary", async () => {
    const name = listBackups()[0]!.name;
    const r = await t.req("DELETE", `/api/v1/backup?name=${name}`, { token: t.rootToken });
    expect(r.status).toBe(200);
    expect(existsSync(join(backups, name))).toBe(false);
    expect(existsSync(join(backups, `${name}.json`))).toBe(false);
    expect(listBackups()).toHaveLength(0);
  });
});

describe("schedule and retention", () => {
  test("off by default; when on, due with no backup or an old one; retention keeps the newest", async () => {
    expect(scheduledBackupDue()).toBe(false);
    expect(await scheduledRun()).toEqual({ skipped: true });
    updateConfig([
      { category: "backup", name: "enable", value: true },
      { category: "backup", name: "interval_hours", value: 1 },
      { category: "backup", name: "retention", value: 2 },
    ]);
    expect(scheduledBackupDue()).toBe(true);
    const first = await scheduledRun();
    expect("name" in first && first.name).toBeTruthy();
    // Just taken: not due again until the interval has passed.
    expect(scheduledBackupDue()).toBe(false);
    expect(await scheduledRun()).toEqual({ skipped: true });
    expect(scheduledBackupDue(Date.now() + 3600_000 + 1000)).toBe(true);
    await Bun.sleep(1100);
    await backupAndPrune();
    await Bun.sleep(1100);
    const third = await backupAndPrune();
    const names = listBackups().map((b) => b.name);
    expect(names).toHaveLength(2);
    expect(names[0]).toBe(third.name);
    expect(names).not.toContain("name" in first ? first.name : "");
    expect(third.pruned).toHaveLength(1);
    expect(pruneBackups(1)).toHaveLength(1);
  }, 60_000);

  test("the settings are validated like every other group and live on the backup screen", async () => {
    const bad = await t.req("PUT", "/api/v1/config", { token: t.rootToken, body: { config: [{ category: "backup", name: "retention", value: 0 }] } });
    expect(bad.status).toBe(400);
    const page = await t.req("GET", "/admin/config/backup", { token: t.rootToken });
    expect(page.status).toBe(302);
    expect(page.res.headers.get("location")).toBe("/admin/system/backup");
    const screen = await t.req("GET", "/admin/system/backup", { token: t.rootToken, headers: { accept: "text/html" } });
    expect(screen.status).toBe(200);
    expect(screen.text).toContain("立即备份");
    expect(screen.text).toContain("保留最近的备份份数");
  });
});
