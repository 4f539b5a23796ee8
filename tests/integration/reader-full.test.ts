// A bought document's pages past the preview (issue 10 item 6): paying queues one full render per
// document, the reader and the page images give every rendered page to the owner, a buyer and an
// admin with document permissions — privately — and the preview to everyone else, as before.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq, sql } from "drizzle-orm";
import { rmSync } from "node:fs";
import { getDb } from "#db/client.ts";
import { group, groupPermission, permission, userGroup } from "#db/schema/accounts.ts";
import { document } from "#db/schema/documents.ts";
import { jobs } from "#db/schema/jobs.ts";
import { RENDER_FULL_JOB, requestFullRender } from "#src/features/convert/enqueue.ts";
import "#src/features/convert/renderFull.ts";
import { setDocumentsRoot } from "#src/features/documents/paths.ts";
import { invalidatePermissions } from "#src/features/permissions/service.ts";
import { startWorker } from "#src/jobs/worker.ts";
import { setupOrders } from "./orders-fixtures.ts";
import { makeDoc, svgPage, useDocumentsRoot } from "./reader-fixtures.ts";
import { islandProps } from "#tests/helpers/islandProps.ts";

const o = setupOrders();
const { t } = o;
let root = "";
beforeAll(() => {
  root = useDocumentsRoot();
  o.settings("recharge", { credit_exchange: 10 });
});
afterAll(() => {
  setDocumentsRoot(null);
  rmSync(root, { recursive: true, force: true });
});

const html = { accept: "text/html" };
const readerPage = (uuid: string, token?: string, query = "") => t.req("GET", `/document/${uuid}${query}`, { headers: html, token });
const pageImage = (uuid: string, n: number, token?: string) => t.req("GET", `/view/page/${uuid}/${n}.svg`, { token });
const renderJobs = (documentId: number) => getDb().select().from(jobs)
  .where(and(eq(jobs.kind, RENDER_FULL_JOB), sql`json_extract(${jobs.payload}, '$.document_id') = ${documentId}`)).all();
const rendered = (id: number) => getDb().select({ r: document.rendered_pages }).from(document).where(eq(document.id, id)).get()!.r;

/** A visible paid document of `pages` pages whose files exist through `onDisk`, rendered (as recorded) through the preview. */
function paidDoc(ownerId: number, pages: number, preview: number, onDisk: number, price = 10) {
  const d = makeDoc({ userId: ownerId, pages, preview, onDisk, title: `全文阅读测试 ${pages}-${preview}` });
  getDb().update(document).set({ price, rendered_pages: preview }).where(eq(document.id, d.id)).run();
  return d;
}

/** Runs the queued full renders in this process until none is waiting or running. */
async function runRenders() {
  const worker = startWorker({ concurrency: 2, pollMs: 20 });
  const deadline = Date.now() + 60_000;
  try {
    while (getDb().select({ id: jobs.id }).from(jobs).where(and(eq(jobs.kind, RENDER_FULL_JOB), sql`${jobs.status} IN ('queued', 'running')`)).all().length) {
      if (Date.now() > deadline) throw new Error("full renders did not finish in time");
      await Bun.sleep(20);
    }
  } finally {
    await worker.stop();
  }
}

async function buyWithCredits(token: string, documentId: number) {
  const no = await o.create(token, { order_type: 1, product_id: documentId, quantity: 1 });
  const r = await t.req("POST", "/api/v1/order/pay", { token, body: { order_no: no, payment_type: 5 } });
  expect(r.body).toEqual({ payment_type: 5, status: 2 });
}

describe("reading a bought document whole", () => {
  test("a buyer after paying: one render queued, then every page privately; a stranger and visitors keep the preview", async () => {
    const owner = await o.member();
    const buyer = await o.member(100);
    const stranger = await o.member(100);
    // Pages 3–6 are on disk as a finished render would leave them, but not yet recorded as rendered.
    const d = paidDoc(owner.id, 6, 2, 6);
    expect((await pageImage(d.uuid, 3, buyer.token)).status).toBe(404);
    const before = await readerPage(d.uuid, buyer.token);
    expect(before.text).toContain("剩余 <strong>4</strong> 页未能预览，购买后即可阅读全文");
    expect(renderJobs(d.id)).toHaveLength(0);

    await buyWithCredits(buyer.token, d.id);
    expect(renderJobs(d.id)).toMatchObject([{ status: "queued" }]);
    // Opening the document while its render waits neither doubles the job nor shows unrendered pages.
    const waiting = await readerPage(d.uuid, buyer.token);
    expect(renderJobs(d.id)).toHaveLength(1);
    expect(islandProps(waiting.text, "ReaderPages")).toMatchObject({ preview: 2 });
    expect(waiting.text).toContain("其余 <strong>4</strong> 页正在生成，请稍后刷新");
    expect(waiting.text).not.toContain("购买后即可阅读全文");
    expect((await pageImage(d.uuid, 3, buyer.token)).status).toBe(404);

    await runRenders();
    expect(renderJobs(d.id)).toMatchObject([{ status: "done" }]);
    expect(JSON.parse(renderJobs(d.id)[0]!.result)).toMatchObject({ document_id: d.id, pages: 6, rendered: 0 });
    expect(rendered(d.id)).toBe(6);

    for (let n = 3; n <= 6; n++) {
      const r = await pageImage(d.uuid, n, buyer.token);
      expect([n, r.status, r.res.headers.get("cache-control")]).toEqual([n, 200, "private, max-age=86400"]);
      expect(r.text).toBe(svgPage(n));
    }
    expect((await pageImage(d.uuid, 7, buyer.token)).status).toBe(404);
    // The preview stays public and long-cached, for the buyer as for anyone.
    expect((await pageImage(d.uuid, 2, buyer.token)).res.headers.get("cache-control")).toBe("public, max-age=2592000");
    expect((await pageImage(d.uuid, 2)).res.headers.get("cache-control")).toBe("public, max-age=2592000");
    // The same file, asked for by anyone who has not bought it: as if it did not exist.
    for (const token of [stranger.token, undefined]) {
      const r = await pageImage(d.uuid, 3, token);
      expect([r.status, r.res.headers.get("cache-control")]).toEqual([404, "no-store"]);
      expect((await t.req("GET", `/view/page/${d.uuid}/3.gzip.svg`, { token })).status).toBe(404);
    }
    // The owner and the administrator read every page too.
    for (const token of [owner.token, t.rootToken]) {
      const r = await pageImage(d.uuid, 5, token);
      expect([r.status, r.res.headers.get("cache-control")]).toEqual([200, "private, max-age=86400"]);
    }

    const full = await readerPage(d.uuid, buyer.token);
    expect(islandProps(full.text, "ReaderPages")).toMatchObject({ preview: 6, initial: 5 });
    expect(full.text).toContain("已阅读完毕，全文共 6 页");
    expect(full.text).not.toContain("未能预览");
    expect(full.text).not.toContain("正在生成");
    const download = islandProps(full.text, "DownloadButton");
    expect(download).toMatchObject({ price: 0, note: "已购买" });
    expect(download.buy).toBeUndefined();
    expect(islandProps((await readerPage(d.uuid, buyer.token, "?page=6")).text, "ReaderPages")).toMatchObject({ preview: 6, initial: 6, focus: 6 });

    for (const token of [stranger.token, undefined]) {
      const other = await readerPage(d.uuid, token);
      expect(islandProps(other.text, "ReaderPages")).toMatchObject({ preview: 2, initial: 2 });
      expect(other.text).toContain("剩余 <strong>4</strong> 页未能预览，购买后即可阅读全文");
      expect(islandProps((await readerPage(d.uuid, token, "?page=6")).text, "ReaderPages")).toMatchObject({ preview: 2, focus: 2 });
    }
    // Nothing a member saw leaks into the anonymous page cache.
    const anonAgain = await readerPage(d.uuid);
    expect(anonAgain.text).not.toContain("已阅读完毕");
    expect(renderJobs(d.id)).toHaveLength(1);
  });

  test("the owner or an admin with document permissions opening it queues the render once; others queue nothing", async () => {
    const owner = await o.member();
    const stranger = await o.member();
    const staff = await o.member();
    const d = paidDoc(owner.id, 5, 2, 2);
    await readerPage(d.uuid, stranger.token);
    await readerPage(d.uuid);
    expect(renderJobs(d.id)).toHaveLength(0);

    // Any permission of the document pages lets a staff member manage documents.
    const perm = getDb().select().from(permission).where(and(eq(permission.page, "/admin/document"), eq(permission.method, "GET"))).get()!;
    const g = getDb().insert(group).values({ title: "文档管理员" }).returning().get();
    getDb().insert(groupPermission).values({ group_id: g.id, permission_id: perm.id }).run();
    getDb().insert(userGroup).values({ user_id: staff.id, group_id: g.id }).run();
    invalidatePermissions();
    const r = await readerPage(d.uuid, staff.token);
    expect(r.text).toContain("其余 <strong>3</strong> 页正在生成，请稍后刷新");
    expect(renderJobs(d.id)).toMatchObject([{ status: "queued" }]);
    await readerPage(d.uuid, owner.token);
    expect(renderJobs(d.id)).toHaveLength(1);
    // No original on disk: the render ends with the reason and is not started again by every visit.
    await runRenders();
    expect(JSON.parse(renderJobs(d.id)[0]!.result).error).toBe("原始文件不存在，请重新上传");
    expect(rendered(d.id)).toBe(2);
    expect((await pageImage(d.uuid, 3, owner.token)).status).toBe(404);
    await readerPage(d.uuid, owner.token);
    expect(requestFullRender(d.id)).toBe(false);
    expect(renderJobs(d.id)).toHaveLength(1);
  });

  test("a credit download is a purchase: the full render is queued for it", async () => {
    const owner = await o.member();
    const buyer = await o.member(50);
    const d = paidDoc(owner.id, 4, 1, 1, 5);
    const r = await t.req("POST", "/api/v1/document/download", { token: buyer.token, body: { id: d.id } });
    expect([r.status, r.body.price]).toEqual([200, 5]);
    expect(renderJobs(d.id)).toMatchObject([{ status: "queued" }]);
  });

  test("nothing is queued for documents whose pages are all rendered, unconverted or in the recycle bin", async () => {
    const owner = await o.member();
    const whole = paidDoc(owner.id, 3, 3, 3);
    const unconverted = paidDoc(owner.id, 0, 0, 0);
    const deleted = paidDoc(owner.id, 4, 1, 1);
    getDb().update(document).set({ deleted_at: Date.now() }).where(eq(document.id, deleted.id)).run();
    for (const d of [whole, unconverted, deleted]) {
      expect(requestFullRender(d.id)).toBe(false);
      expect(renderJobs(d.id)).toHaveLength(0);
    }
    await readerPage(whole.uuid, owner.token);
    expect(renderJobs(whole.id)).toHaveLength(0);
  });
});
