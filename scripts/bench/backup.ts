// Backup benchmark (issue 12), one run: builds a synthetic 100,000-document database itself
// (documents, three pages of Chinese text each, category links and the full-text index rows with
// space-joined two-character words as jieba would give), a sample of stored files, then times the
// production backup (child process: VACUUM INTO + integrity_check + checksums + tar.gz) and the
// restore's verification, and reports sizes. Usage: bun scripts/bench/backup.ts [documents=100000]
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeDatabase, configureDatabase, getSqlite, openDatabase } from "#db/client.ts";
import { backupName, unpackAndVerify } from "#src/features/ops/archive.ts";
import { runTask } from "#src/features/ops/taskRunner.ts";
import type { ManifestSummary } from "#src/features/ops/archive.ts";
import { fmt, printMachine, table } from "./lib.ts";

printMachine();

const N = Math.max(1000, Number(process.argv[2]) || 100_000);
const FILES = 2000;
const TARGET_SECONDS_PER_100K = 120;
const dir = mkdtempSync(join(tmpdir(), "wk-bench-backup-"));
const dbFile = join(dir, "wenku.db");
const mb = (b: number) => `${fmt(b / 1024 / 1024, 1)} MB`;

try {
  configureDatabase(() => openDatabase(dbFile));
  const db = getSqlite();
  // A fixed pseudo-random stream: the same database every run.
  let seed = 42;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const CHARS = "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严";
  const text = (len: number) => {
    let s = "";
    for (let i = 0; i < len; i++) s += CHARS[Math.floor(rnd() * CHARS.length)];
    return s;
  };
  const words = (s: string) => s.match(/.{1,2}/g)!.join(" ");
  const t0 = performance.now();
  db.exec("INSERT INTO user (username, password) VALUES ('bench-owner', 'x')");
  db.exec("INSERT INTO category (title, type) VALUES ('基准分类', 0)");
  const insDoc = db.query("INSERT INTO document (uuid, title, keywords, description, user_id, hash, ext, pages, size, status) VALUES (?, ?, ?, ?, 1, ?, '.pdf', 3, ?, 2)");
  const insPage = db.query("INSERT INTO document_page (document_id, page, text) VALUES (?, ?, ?)");
  const insCat = db.query("INSERT INTO document_category (document_id, category_id) VALUES (?, 1)");
  const insFts = db.query("INSERT INTO search_fts (rowid, title, keywords, description, body) VALUES (?, ?, ?, ?, ?)");
  for (let start = 0; start < N; start += 5000) {
    db.transaction(() => {
      for (let i = start; i < Math.min(N, start + 5000); i++) {
        const id = i + 1;
        const title = text(12);
        const desc = text(60);
        insDoc.run(crypto.randomUUID(), title, text(6), desc, (i.toString(16) + "0".repeat(32)).slice(0, 32), 100_000 + i);
        insCat.run(id);
        for (let p = 1; p <= 3; p++) {
          const body = text(500);
          insPage.run(id, p, body);
          insFts.run(id * 2 ** 20 + p, p === 1 ? words(title) : "", "", p === 1 ? words(desc) : "", words(body));
        }
      }
    })();
  }
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  closeDatabase();
  const buildSeconds = (performance.now() - t0) / 1000;
  // Stored files: a sample of originals and page images (the database, not the files, is what grows with N here).
  for (let i = 0; i < FILES; i++) {
    const h = (i.toString(16).padStart(4, "0") + "f".repeat(28)).slice(0, 32);
    const d = join(dir, "documents", h.slice(0, 2), h);
    mkdirSync(join(d, "pages"), { recursive: true });
    writeFileSync(join(d, "original.pdf"), text(4000));
    writeFileSync(join(d, "pages", "1.gzip.svg"), Bun.gzipSync(new TextEncoder().encode(`<svg>${text(3000)}</svg>`)));
  }
  mkdirSync(join(dir, "uploads"), { recursive: true });
  const dbSize = statSync(dbFile).size;

  const out = join(dir, "backups");
  const name = backupName();
  const b0 = performance.now();
  const manifest = await runTask<ManifestSummary>("backup", { db: dbFile, roots: { documents: join(dir, "documents"), uploads: join(dir, "uploads") }, dir: out, name, version: "bench" }, { timeoutMs: 3600_000 });
  const backupSeconds = (performance.now() - b0) / 1000;
  const archiveSize = statSync(join(out, name)).size;
  const v0 = performance.now();
  const { dir: unpacked } = await unpackAndVerify(join(out, name), join(dir, "restore"));
  const verifySeconds = (performance.now() - v0) / 1000;
  rmSync(unpacked, { recursive: true, force: true });

  const perHundredK = backupSeconds * (100_000 / N);
  console.log(`backup: ${N.toLocaleString("en")} documents (${N * 3} page texts + FTS rows), ${FILES * 2} stored files; database built in ${fmt(buildSeconds, 1)} s`);
  table(["what", "value"], [
    ["database file", mb(dbSize)],
    ["snapshot in archive", mb(manifest.db.size)],
    ["stored files", `${manifest.files.count} (${mb(manifest.files.bytes)})`],
    ["backup time (VACUUM INTO + integrity_check + sha256 + tar.gz)", `${fmt(backupSeconds, 1)} s`],
    ["archive size (tar.gz)", mb(archiveSize)],
    ["restore verification (unpack + checksums + integrity_check)", `${fmt(verifySeconds, 1)} s`],
  ]);
  const ok = perHundredK <= TARGET_SECONDS_PER_100K;
  console.log(`target: backup of 100k documents ≤ ${TARGET_SECONDS_PER_100K} s → ${fmt(perHundredK, 1)} s ${ok ? "met" : "MISSED"}`);
  process.exitCode = ok ? 0 : 1;
} finally {
  closeDatabase();
  rmSync(dir, { recursive: true, force: true });
}
