// Restore's unpacking refuses archives it did not make: links, paths outside the folder, unknown
// top-level names, a tampered file, a manifest naming a path outside the archive.
import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as tar from "tar";
import { BACKUP_NAME, backupName, buildArchive, unpackAndVerify } from "./archive.ts";

const root = mkdtempSync(join(tmpdir(), "wk-archive-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function goodArchive() {
  const src = mkdtempSync(join(root, "src-"));
  const db = new Database(join(src, "wenku.db"));
  db.exec("CREATE TABLE t (v TEXT); INSERT INTO t VALUES ('一'), ('二')");
  db.close();
  mkdirSync(join(src, "documents", "ab"), { recursive: true });
  writeFileSync(join(src, "documents", "ab", "original.txt"), "原文");
  const name = backupName();
  const m = await buildArchive({ db: join(src, "wenku.db"), roots: { documents: join(src, "documents"), uploads: join(src, "uploads") }, dir: join(src, "out"), name, version: "t" });
  return { file: join(src, "out", name), manifest: m, src };
}

/** An archive with a manifest and a valid database plus `extra` entries written by hand. */
async function craft(extra: (dir: string) => string[], opts: { preservePaths?: boolean } = {}) {
  const { file, src } = await goodArchive();
  const stage = mkdtempSync(join(root, "craft-"));
  await tar.x({ file, cwd: stage });
  const names = ["manifest.json", "wenku.db", ...extra(stage)];
  const out = join(src, "crafted.tar.gz");
  await tar.c({ gzip: true, file: out, cwd: stage, preservePaths: opts.preservePaths }, names);
  return out;
}

describe("archives", () => {
  test("names follow the pattern the download check accepts", () => {
    for (let i = 0; i < 20; i++) expect(BACKUP_NAME.test(backupName())).toBe(true);
  });

  test("a good archive unpacks and verifies; the work folder stays inside the parent", async () => {
    const { file, manifest } = await goodArchive();
    expect(manifest.db.tables.t).toBe(2);
    expect(manifest.files.count).toBe(1);
    const parent = join(root, "p1");
    const { dir } = await unpackAndVerify(file, parent);
    expect(dir.startsWith(parent)).toBe(true);
    expect(existsSync(join(dir, "documents", "ab", "original.txt"))).toBe(true);
  });

  test("a symbolic link inside the archive is refused", async () => {
    const file = await craft((d) => {
      mkdirSync(join(d, "uploads"), { recursive: true });
      symlinkSync("/etc/passwd", join(d, "uploads", "evil.png"));
      return ["uploads/evil.png"];
    });
    const parent = join(root, "p2");
    await expect(unpackAndVerify(file, parent)).rejects.toThrow("不允许的条目");
    // Nothing is left behind on refusal.
    expect(readdirSync(parent)).toEqual([]);
  });

  test("an unknown top-level name is refused", async () => {
    const file = await craft((d) => {
      writeFileSync(join(d, "server.ts"), "evil");
      return ["server.ts"];
    });
    await expect(unpackAndVerify(file, join(root, "p3"))).rejects.toThrow("不允许的条目");
  });

  test("a path climbing out of the folder is refused", async () => {
    const file = await craft((d) => {
      mkdirSync(join(d, "documents"), { recursive: true });
      writeFileSync(join(root, "outside.txt"), "x");
      return ["documents/../../outside.txt"];
    }, { preservePaths: true });
    await expect(unpackAndVerify(file, join(root, "p4"))).rejects.toThrow();
  });

  test("a tampered file fails its checksum", async () => {
    const file = await craft((d) => {
      writeFileSync(join(d, "documents", "ab", "original.txt"), "被改过");
      return ["documents"];
    });
    await expect(unpackAndVerify(file, join(root, "p5"))).rejects.toThrow("文件校验和不符：documents/ab/original.txt");
  });
});
