// One user with credits for exactly three paid documents tries to download many (each a different
// document: a paid download buys the document, so repeating one would be free): exactly three
// succeed, the balance never goes below zero, the uploader receives exactly three prices and the
// ledger adds up. The race itself is only possible across separate processes on one database file
// (the second test): inside one process bun:sqlite is synchronous, so requests through the app never
// interleave — the first test is the same overdraft rule one request after another, named as such.
import { describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { asc, eq, sql } from "drizzle-orm";
import { getDb, getSqlite, handle } from "#db/client.ts";
import { creditLog } from "#db/schema/accounts.ts";
import { signDownloadUrl } from "#src/features/downloads/signing.ts";
import { setupDownloads } from "./downloads-fixtures.ts";

const d = setupDownloads();
const root = resolve(import.meta.dir, "../..");
const PRICE = 10;

/** Every ledger row's balance is the running sum of the amounts, and the sum is the balance now. */
function assertLedgerConsistent(userId: number) {
  const rows = getDb().select().from(creditLog).where(eq(creditLog.user_id, userId)).orderBy(asc(creditLog.id)).all();
  let running = 0;
  for (const r of rows) {
    running += r.amount;
    expect(r.balance).toBe(running);
    expect(r.balance).toBeGreaterThanOrEqual(0);
  }
  expect(running).toBe(d.balance(userId));
}

describe("concurrent paid downloads by one user", () => {
  test("10 requests one after another through the app (no race in one process): the first 3 succeed, the rest are 400 魔豆不足", async () => {
    d.settings({ times_every_day: 0, times_every_ip: 0 });
    const owner = await d.member(4);
    const buyer = await d.member(3 * PRICE);
    const docs = Array.from({ length: 10 }, () => d.doc(owner.id, { price: PRICE }));
    const results: Awaited<ReturnType<typeof d.post>>[] = [];
    for (const doc of docs) results.push(await d.post({ id: doc.id }, buyer.token));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 400, 400, 400, 400, 400, 400, 400]);
    for (const r of results.slice(3)) {
      expect(r.status).toBe(400);
      expect(r.body.message).toStartWith("魔豆不足");
    }
    expect(d.balance(buyer.id)).toBe(0);
    expect(d.balance(owner.id)).toBe(4 + 3 * PRICE);
    expect(docs.flatMap((doc) => d.downloadsOf(doc.id))).toHaveLength(3);
    expect(docs.reduce((n, doc) => n + d.downloadCount(doc.id), 0)).toBe(3);
    expect(d.ledger(buyer.id, "download")).toHaveLength(3);
    expect(d.ledger(owner.id, "download_income")).toHaveLength(3);
    assertLedgerConsistent(buyer.id);
    assertLedgerConsistent(owner.id);
  });

  test("4 separate processes × 5 attempts on the same database file: exactly 3 succeed", async () => {
    d.settings({ times_every_day: 0, times_every_ip: 0 });
    signDownloadUrl("warm-up", 0); // the signing secret exists before the racers start
    const owner = await d.member();
    const buyer = await d.member(3 * PRICE);
    const docs = Array.from({ length: 20 }, () => d.doc(owner.id, { price: PRICE }));
    const startAt = Date.now() + 1500;
    const procs = Array.from({ length: 4 }, (_, i) => Bun.spawn(["bun", "tests/integration/downloads-race.worker.ts"], {
      cwd: root,
      env: { ...process.env, DB_FILE: handle().file, USER_ID: String(buyer.id), DOC_IDS: docs.slice(i * 5, i * 5 + 5).map((doc) => doc.id).join(","), START_AT: String(startAt), LOG_LEVEL: "silent", NODE_ENV: "test" },
      stdin: "ignore", stdout: "pipe", stderr: "pipe",
    }));
    const outs = await Promise.all(procs.map(async (p) => {
      const [text, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
      expect(p.exitCode, err).toBe(0);
      return JSON.parse(text.trim()) as { ok: boolean; status?: number; message?: string; price?: number }[];
    }));
    const all = outs.flat();
    expect(all).toHaveLength(20);
    expect(all.filter((r) => r.ok)).toEqual([{ ok: true, price: PRICE }, { ok: true, price: PRICE }, { ok: true, price: PRICE }]);
    for (const r of all.filter((x) => !x.ok)) {
      expect(r.status).toBe(400);
      expect(r.message).toStartWith("魔豆不足");
    }
    expect(d.balance(buyer.id)).toBe(0);
    expect(d.balance(owner.id)).toBe(3 * PRICE);
    expect(docs.flatMap((doc) => d.downloadsOf(doc.id))).toHaveLength(3);
    expect(docs.reduce((n, doc) => n + d.downloadCount(doc.id), 0)).toBe(3);
    assertLedgerConsistent(buyer.id);
    assertLedgerConsistent(owner.id);
  }, 60_000);

  test("the database itself refuses a negative balance (CHECK credit_count >= 0)", async () => {
    const u = await d.member(5);
    expect(() => getSqlite().query("UPDATE user SET credit_count = credit_count - 6 WHERE id = ?").run(u.id)).toThrow(/CHECK constraint failed/);
    expect(d.balance(u.id)).toBe(5);
    expect(getDb().select({ n: sql<number>`count(*)` }).from(creditLog).where(eq(creditLog.user_id, u.id)).get()!.n).toBe(1);
  });
});
