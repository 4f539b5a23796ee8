// The migration that turns past paid downloads into paid document orders: a database migrated up to
// just before it holds paid, free and guest downloads; after it, each paid download is an order
// (type 1, credits, paid) and the document is the buyer's for good.
import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { closeDatabase, configureDatabase, getSqlite, openDatabase } from "#db/client.ts";
import { hasBought } from "#src/features/orders/ownership.ts";
import { invalidateSettings } from "#src/features/settings/service.ts";

const dir = mkdtempSync(join(tmpdir(), "wk-backfill-"));
afterAll(() => {
  closeDatabase();
  rmSync(dir, { recursive: true, force: true });
});

const TAG = "orders_from_downloads";

test("each paid download becomes one paid credits order; free and guest downloads do not", () => {
  const real = resolve(import.meta.dir, "../../db/migrations");
  const before = join(dir, "migrations");
  cpSync(real, before, { recursive: true });
  const journal = JSON.parse(readFileSync(join(before, "meta/_journal.json"), "utf8")) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag.endsWith(TAG));
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(join(before, "meta/_journal.json"), JSON.stringify(journal));

  const file = join(dir, "wenku.db");
  const old = new Database(file, { create: true, strict: true });
  migrate(drizzle(old), { migrationsFolder: before });
  const q = (sql: string, ...args: (string | number)[]) => old.query(sql).get(...args) as Record<string, number>;
  const buyer = q("INSERT INTO user (username, password) VALUES ('buyer', 'x') RETURNING id").id!;
  const other = q("INSERT INTO user (username, password) VALUES ('other', 'x') RETURNING id").id!;
  const doc = (title: string, price: number) =>
    q("INSERT INTO document (uuid, title, user_id, hash, ext, price, status) VALUES (?, ?, ?, ?, 'pdf', ?, 2) RETURNING id", crypto.randomUUID(), title, other, crypto.randomUUID(), price).id!;
  const paid = doc("付费文档", 12);
  const free = doc("免费文档", 0);
  const t0 = Date.parse("2024-03-05T01:02:03Z");
  old.query("INSERT INTO download (user_id, document_id, ip, price, created_at, updated_at) VALUES (?, ?, '10.0.0.1', 12, ?, ?)").run(buyer, paid, t0, t0);
  old.query("INSERT INTO download (user_id, document_id, ip, price, created_at, updated_at) VALUES (?, ?, '10.0.0.1', 0, ?, ?)").run(buyer, paid, t0 + 1, t0 + 1);
  old.query("INSERT INTO download (user_id, document_id, ip, price, created_at, updated_at) VALUES (?, ?, '', 0, ?, ?)").run(buyer, free, t0, t0);
  old.query("INSERT INTO download (user_id, document_id, ip, price, created_at, updated_at) VALUES (0, ?, '', 0, ?, ?)").run(free, t0, t0);
  old.close();

  configureDatabase(() => openDatabase(file));
  invalidateSettings();
  const orders = getSqlite().query("SELECT * FROM `order`").all() as Record<string, unknown>[];
  expect(orders).toHaveLength(1);
  expect(orders[0]).toMatchObject({
    user_id: buyer, order_type: 1, product_id: paid, product_title: "付费文档", quantity: 1, amount: 0, credit_price: 12, payment_type: 5, status: 2,
    paid_at: t0, created_at: t0, ip: "10.0.0.1",
  });
  // Beijing time of the download, then 4 random digits and the download id.
  expect(String(orders[0]!.order_no)).toMatch(/^20240305090203\d{4}00000001$/);
  expect(hasBought(buyer, paid)).toBe(true);
  expect(hasBought(buyer, free)).toBe(false);
  expect(getSqlite().query("SELECT event, payment_type FROM payment_log").all()).toEqual([{ event: "paid", payment_type: 5 }]);
});
