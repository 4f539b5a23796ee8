// Downloads: pricing through the credit ledger, the free re-download period, daily limits per user
// and per IP, guests, punishments, which documents may be downloaded, and input validation.
import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { download } from "#db/schema/documents.ts";
import { order } from "#db/schema/orders.ts";
import { user } from "#db/schema/users.ts";
import { shanghaiDayStart } from "#src/features/downloads/service.ts";
import { PUNISH } from "#src/features/users/punishments/types.ts";
import { setupDownloads } from "./downloads-fixtures.ts";

const d = setupDownloads();
const { t } = d;
const DAY = 86_400_000;
const ageDownloads = (documentId: number, ms: number) =>
  getDb().update(download).set({ created_at: Date.now() - ms }).where(eq(download.document_id, documentId)).run();

describe("POST /api/v1/document/download: prices and the ledger", () => {
  test("a free document: a signed link, a download row at price 0, the count goes up, no credits move", async () => {
    d.settings({ times_every_day: 20, times_every_ip: 50 });
    const owner = await d.member();
    const buyer = await d.member(5);
    const doc = d.doc(owner.id);
    const r = await d.post({ id: doc.id }, buyer.token);
    expect(r.status).toBe(200);
    expect(r.body.price).toBe(0);
    expect(r.body.url).toMatch(new RegExp(`^/download/${doc.uuid}\\?expires=\\d+&sig=[0-9a-f]{64}&u=${buyer.id}$`));
    expect(r.body.expires - Math.floor(Date.now() / 1000)).toBeGreaterThanOrEqual(59);
    expect(d.downloadsOf(doc.id)).toMatchObject([{ user_id: buyer.id, price: 0 }]);
    expect(d.downloadCount(doc.id)).toBe(1);
    expect([d.balance(buyer.id), d.balance(owner.id)]).toEqual([5, 0]);
    expect(d.ledger(buyer.id, "download")).toHaveLength(0);
    // uuid works as well as id
    expect((await d.post({ uuid: doc.uuid }, buyer.token)).status).toBe(200);
  });

  test("a paid document moves exactly the price from the downloader to the uploader, with ledger rows", async () => {
    const owner = await d.member(7);
    const buyer = await d.member(100);
    const doc = d.doc(owner.id, { price: 10, title: "付费的年度报告" });
    const r = await d.post({ id: doc.id }, buyer.token);
    expect(r.status).toBe(200);
    expect(r.body.price).toBe(10);
    expect([d.balance(buyer.id), d.balance(owner.id)]).toEqual([90, 17]);
    expect(d.ledger(buyer.id, "download")).toMatchObject([{ amount: -10, balance: 90, ref_id: doc.id, reason: "下载文档《付费的年度报告》" }]);
    expect(d.ledger(owner.id, "download_income")).toMatchObject([{ amount: 10, balance: 17, ref_id: doc.id }]);
    expect(d.downloadsOf(doc.id)).toMatchObject([{ user_id: buyer.id, price: 10 }]);
    expect(d.downloadCount(doc.id)).toBe(1);
  });

  test("sign-up credits cannot be moved to an uploader: a day-old account, or one from the uploader's address, earns them nothing", async () => {
    const owner = await d.member(0);
    const doc = d.doc(owner.id, { price: 10 });
    const fresh = await d.member(100, { fresh: true });
    expect((await d.post({ id: doc.id }, fresh.token)).status).toBe(200);
    expect([d.balance(fresh.id), d.balance(owner.id)]).toEqual([90, 0]);
    getDb().update(user).set({ register_ip: "203.0.113.7" }).where(eq(user.id, owner.id)).run();
    const sameNet = await d.member(100);
    getDb().update(user).set({ register_ip: "203.0.113.7" }).where(eq(user.id, sameNet.id)).run();
    expect((await d.post({ id: d.doc(owner.id, { price: 10 }).id }, sameNet.token)).status).toBe(200);
    expect(d.balance(owner.id)).toBe(0);
    const stranger = await d.member(100);
    expect((await d.post({ id: d.doc(owner.id, { price: 10 }).id }, stranger.token)).status).toBe(200);
    expect(d.balance(owner.id)).toBe(10);
  });

  test("the uploader downloads their own paid document free", async () => {
    const owner = await d.member(3);
    const doc = d.doc(owner.id, { price: 50 });
    const r = await d.post({ id: doc.id }, owner.token);
    expect(r.status).toBe(200);
    expect(r.body.price).toBe(0);
    expect(d.balance(owner.id)).toBe(3);
    expect(d.downloadsOf(doc.id)).toMatchObject([{ user_id: owner.id, price: 0 }]);
  });

  test("not enough credits: 400 naming the credit, and nothing is written", async () => {
    const owner = await d.member();
    const buyer = await d.member(9);
    const doc = d.doc(owner.id, { price: 10 });
    const r = await d.post({ id: doc.id }, buyer.token);
    expect(r.status).toBe(400);
    expect(r.body.message).toStartWith("魔豆不足");
    expect(r.body.message).toContain("当前余额 9");
    expect([d.balance(buyer.id), d.balance(owner.id)]).toEqual([9, 0]);
    expect(d.downloadsOf(doc.id)).toHaveLength(0);
    expect(d.downloadCount(doc.id)).toBe(0);
    expect(d.ledger(buyer.id, "download")).toHaveLength(0);
    d.settings({ credit_name: "金币" }, "system");
    expect((await d.post({ id: doc.id }, buyer.token)).body.message).toStartWith("金币不足");
    d.settings({ credit_name: "" }, "system");
  });

  // A charged download is a purchase (a paid document order, payment_type 5): a bought document
  // is never charged again, however long ago it was bought.
  test("a paid download records a paid credits order; the bought document is free for good, however long ago", async () => {
    const owner = await d.member();
    const buyer = await d.member(100);
    const doc = d.doc(owner.id, { price: 10 });
    expect((await d.post({ id: doc.id }, buyer.token)).body.price).toBe(10);
    const orders = getDb().select().from(order).where(and(eq(order.user_id, buyer.id), eq(order.product_id, doc.id))).all();
    expect(orders).toMatchObject([{ order_type: 1, payment_type: 5, status: 2, credit_price: 10, amount: 0, quantity: 1 }]);
    expect(orders[0]!.order_no).toMatch(/^\d{26}$/);
    const again = await d.post({ id: doc.id }, buyer.token);
    expect(again.body.price).toBe(0);
    expect([d.balance(buyer.id), d.balance(owner.id)]).toEqual([90, 10]);
    expect(d.downloadsOf(doc.id).map((r) => r.price)).toEqual([10, 0]);
    // The downloads now lie three days back: still free.
    ageDownloads(doc.id, 3 * DAY);
    expect((await d.post({ id: doc.id }, buyer.token)).body.price).toBe(0);
    expect([d.balance(buyer.id), d.balance(owner.id)]).toEqual([90, 10]);
    expect(d.ledger(buyer.id, "download").map((l) => l.amount)).toEqual([-10]);
    expect(getDb().select().from(order).where(eq(order.user_id, buyer.id)).all()).toHaveLength(1);
  });
});

describe("daily limits (Asia/Shanghai days)", () => {
  test("shanghaiDayStart: midnight in Beijing time is 16:00 UTC of the day before", () => {
    expect(shanghaiDayStart(Date.parse("2024-01-01T16:00:00Z"))).toBe(Date.parse("2024-01-01T16:00:00Z"));
    expect(shanghaiDayStart(Date.parse("2024-01-01T15:59:59Z"))).toBe(Date.parse("2023-12-31T16:00:00Z"));
    expect(shanghaiDayStart(Date.parse("2024-06-30T23:30:00Z"))).toBe(Date.parse("2024-06-30T16:00:00Z"));
  });

  test("times_every_day per user: the next one is 429 今日下载次数已用完 and charges nothing; yesterday's do not count", async () => {
    d.settings({ times_every_day: 2, times_every_ip: 0 });
    const owner = await d.member();
    const buyer = await d.member(100);
    const doc = d.doc(owner.id, { price: 5 });
    const free = d.doc(owner.id);
    expect((await d.post({ id: doc.id }, buyer.token)).status).toBe(200);
    expect((await d.post({ id: free.id }, buyer.token)).status).toBe(200);
    const third = await d.post({ id: doc.id }, buyer.token);
    expect(third.status).toBe(429);
    expect(third.body.message).toContain("今日下载次数已用完");
    expect(d.balance(buyer.id)).toBe(95);
    expect(d.downloadsOf(doc.id)).toHaveLength(1);
    // Another user is not affected.
    const other = await d.member();
    expect((await d.post({ id: free.id }, other.token)).status).toBe(200);
    // Move the buyer's downloads to just before today's Beijing midnight: a new day.
    getDb().update(download).set({ created_at: shanghaiDayStart(Date.now()) - 1 }).where(eq(download.user_id, buyer.id)).run();
    expect((await d.post({ id: free.id }, buyer.token)).status).toBe(200);
  });

  test("times_every_ip per address across users; another address is not affected", async () => {
    d.settings({ times_every_day: 0, times_every_ip: 2 });
    const owner = await d.member();
    const doc = d.doc(owner.id);
    const [a, b, c] = [await d.member(), await d.member(), await d.member()];
    expect((await d.post({ id: doc.id }, a.token, "203.0.113.7")).status).toBe(200);
    expect((await d.post({ id: doc.id }, b.token, "203.0.113.7")).status).toBe(200);
    const r = await d.post({ id: doc.id }, c.token, "203.0.113.7");
    expect(r.status).toBe(429);
    expect(r.body.message).toContain("今日下载次数已用完");
    expect((await d.post({ id: doc.id }, c.token, "198.51.100.9")).status).toBe(200);
    expect(d.downloadsOf(doc.id).map((x) => x.ip)).toEqual(["203.0.113.7", "203.0.113.7", "198.51.100.9"]);
    d.settings({ times_every_day: 20, times_every_ip: 50 });
  });
});

describe("who may download what", () => {
  test("guests: 401 while guest download is off; with it on, free documents only", async () => {
    const owner = await d.member();
    const free = d.doc(owner.id);
    const paid = d.doc(owner.id, { price: 3 });
    d.settings({ enable_guest_download: false });
    const off = await d.post({ id: free.id });
    expect(off.status).toBe(401);
    expect(off.body.message).toBe("请先登录后再下载");
    d.settings({ enable_guest_download: true });
    const on = await d.post({ id: free.id }, undefined, "192.0.2.44");
    expect(on.status).toBe(200);
    expect(on.body.url).toEndWith("&u=0");
    expect(d.downloadsOf(free.id)).toMatchObject([{ user_id: 0, ip: "192.0.2.44", price: 0 }]);
    const file = await t.req("GET", on.body.url);
    expect(file.status).toBe(200);
    const paidGuest = await d.post({ id: paid.id });
    expect(paidGuest.status).toBe(401);
    expect(paidGuest.body.message).toBe("付费文档请登录后下载");
    d.settings({ enable_guest_download: false });
  });

  test("a user banned from downloading gets 403 with the reason; nothing is written", async () => {
    const owner = await d.member();
    const banned = await d.member(50);
    const doc = d.doc(owner.id, { price: 5 });
    const p = await t.req("POST", "/api/v1/punishment", { token: t.rootToken, body: { user_id: banned.id, type: [PUNISH.DOWNLOAD], reason: "恶意批量下载" } });
    expect(p.status).toBe(200);
    const r = await d.post({ id: doc.id }, banned.token);
    expect(r.status).toBe(403);
    expect(r.body.message).toStartWith("您已被禁止下载文档：恶意批量下载");
    expect(d.balance(banned.id)).toBe(50);
    expect(d.downloadsOf(doc.id)).toHaveLength(0);
  });

  test("pending, converting, failed, disabled, in review, rejected or deleted documents are 404; so is an unknown one", async () => {
    const owner = await d.member();
    const user = await d.member(100);
    for (const status of [0, 1, 3, 4, 5, 6, 7]) {
      const doc = d.doc(owner.id, { status, price: 1 });
      const r = await d.post({ id: doc.id }, user.token);
      expect([status, r.status, r.body.message]).toEqual([status, 404, "文档不存在或暂不可下载"]);
      expect((await d.post({ uuid: doc.uuid }, user.token)).status).toBe(404);
    }
    const deleted = d.doc(owner.id, { deleted: true });
    expect((await d.post({ id: deleted.id }, owner.token)).status).toBe(404);
    expect((await d.post({ id: 2_000_000_000 }, user.token)).status).toBe(404);
    expect((await d.post({ uuid: crypto.randomUUID() }, user.token)).status).toBe(404);
    expect(d.balance(user.id)).toBe(100);
  });
});

describe("bad input", () => {
  const cases: [string, unknown][] = [
    ["id as a string", { id: "12" }],
    ["fractional id", { id: 1.5 }],
    ["negative id", { id: -3 }],
    ["zero id", { id: 0 }],
    ["huge id", { id: 1e20 }],
    ["id beyond 32 bits", { id: 2_147_483_648 }],
    ["boolean id", { id: true }],
    ["neither id nor uuid", {}],
    ["uuid as a number", { uuid: 123 }],
    ["uuid with a path", { uuid: "../../etc/passwd" }],
    ["over-long uuid", { uuid: "a".repeat(65) }],
    ["an array body", [1, 2]],
    ["null body", null],
  ];
  for (const [name, body] of cases) {
    test(`${name} → 400 with a Chinese message`, async () => {
      const u = await d.member();
      const r = await d.post(body, u.token);
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(/[\u4e00-\u9fa5]/);
    });
  }

  test("a body that is not JSON → 400 Chinese", async () => {
    const u = await d.member();
    const r = await t.req("POST", "/api/v1/document/download", { token: u.token, body: "{id:", headers: { "content-type": "application/json" } });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/[\u4e00-\u9fa5]/);
  });
});
