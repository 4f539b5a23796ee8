// Issue 13 items 6 and 7 and the reliability gaps around documents: upload awards paid only when a
// document becomes public (once per file), instant upload only from public or one's own files,
// activity lines about unpublished documents hidden from others, a conversion whose attempts run
// out ends as failed with a Chinese reason, unused uploads are purged after a grace period, and
// admin images are cut off while they stream.
import { beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getDb, getSqlite } from "#db/client.ts";
import { document } from "#db/schema/documents.ts";
import { attachment } from "#db/schema/site.ts";
import { user } from "#db/schema/users.ts";
import { setStorageRoot } from "#src/features/admin/attachment/storage.ts";
import "#src/features/convert/job.ts";
import { applyFailure, applySuccess } from "#src/features/convert/store.ts";
import { purgeUnusedUploads } from "#src/features/documents/orphans.ts";
import { originalPath } from "#src/features/documents/paths.ts";
import { listDynamic } from "#src/features/me/dynamic.ts";
import { claim, fail } from "#src/jobs/queue.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { joinGroup, makeCategory, md5, pdfBytes, REVIEWED_GROUP, setConfig, trustedGroup, upload, useDocumentsDir } from "./documents-fixtures.ts";

const t = setupTestApp();
useDocumentsDir();
let leaf: number;
let alice: { token: string; id: number };
let bob: { token: string; id: number };
let trusted: { token: string; id: number };

beforeAll(async () => {
  leaf = makeCategory("资料").id;
  const a = await t.createUser("alice");
  const b = await t.createUser("bob");
  const tr = await t.createUser("trusted");
  for (const u of [a, b, tr]) joinGroup(u.user.id, REVIEWED_GROUP);
  joinGroup(tr.user.id, trustedGroup());
  alice = { token: a.token, id: a.user.id };
  bob = { token: b.token, id: b.user.id };
  trusted = { token: tr.token, id: tr.user.id };
  setConfig("score", "document", 5);
  setConfig("score", "document_limit", 3);
});

const balance = (id: number) => getDb().select().from(user).where(eq(user.id, id)).get()!.credit_count;
const row = (id: number) => getDb().select().from(document).where(eq(document.id, id)).get()!;
const awards = (id: number) => getSqlite().query("select count(*) as n from credit_log where user_id = ? and kind = 'document'").get(id) as { n: number };
const create = (token: string, item: Record<string, unknown>) =>
  t.req("POST", "/api/v1/document", { token, body: { document: [{ category_id: leaf, price: 0, ...item }] } });
const check = (id: number, status: number) => t.req("PUT", "/api/v1/document/check", { token: t.rootToken, body: { id: [id], status } });
/** What a successful conversion commits (the converter itself is tested elsewhere). */
const converted = (id: number) => {
  getSqlite().run("update jobs set status = 'done' where kind = 'document.convert' and json_extract(payload, '$.document_id') = ?", [id]);
  applySuccess(id, { pages: 2, preview: 2, width: 800, height: 1100, texts: ["一", "二"], description: "", keywords: [] });
};
async function uploadAndCreate(token: string, bytes: Uint8Array, title: string) {
  const up = await upload(t, token, bytes, `${title}.pdf`);
  expect(up.status).toBe(200);
  const r = await create(token, { title, attachment_id: up.body.id });
  expect(r.status).toBe(200);
  return r.body.document[0] as { id: number; status: number; hash: string };
}

describe("upload awards (issue 13 item 6)", () => {
  test("six pending copies of one file earn nothing; approval of a converted one pays once, copies never", async () => {
    const bytes = pdfBytes("farmed-file");
    const docs = [];
    for (let i = 0; i < 6; i++) docs.push(await uploadAndCreate(alice.token, bytes, `副本${i}`));
    expect(docs.every((d) => d.status === 6)).toBe(true);
    expect(balance(alice.id)).toBe(0);
    // Converted but still in review: not public, nothing paid.
    for (const d of docs) converted(d.id);
    expect(balance(alice.id)).toBe(0);
    // Approval makes the first public: paid once.
    expect((await check(docs[0]!.id, 2)).status).toBe(200);
    expect(row(docs[0]!.id).status).toBe(2);
    expect(balance(alice.id)).toBe(5);
    // The other copies of the same file become public too, but the file was already awarded.
    for (const d of docs.slice(1)) await check(d.id, 2);
    expect(balance(alice.id)).toBe(5);
    expect(awards(alice.id).n).toBe(1);
    // Someone else publishing the same file earns nothing either.
    const copy = await uploadAndCreate(bob.token, bytes, "别人的副本");
    converted(copy.id);
    await check(copy.id, 2);
    expect(balance(bob.id)).toBe(0);
  });

  test("failed and rejected documents earn nothing; a document public without review is paid at conversion", async () => {
    const failed = await uploadAndCreate(bob.token, pdfBytes("broken"), "坏文件");
    applyFailure(failed.id, "文件已损坏");
    const rejected = await uploadAndCreate(bob.token, pdfBytes("rejected"), "拒绝");
    converted(rejected.id);
    await check(rejected.id, 7);
    expect(row(rejected.id).status).toBe(7);
    expect(balance(bob.id)).toBe(0);
    const direct = await uploadAndCreate(trusted.token, pdfBytes("trusted-file"), "免审");
    expect(direct.status).toBe(0);
    expect(balance(trusted.id)).toBe(0);
    converted(direct.id);
    expect(row(direct.id).status).toBe(2);
    expect(balance(trusted.id)).toBe(5);
  });

  test("capped by score.document_limit per day", async () => {
    setConfig("score", "document_limit", 2);
    try {
      for (let i = 0; i < 3; i++) converted((await uploadAndCreate(trusted.token, pdfBytes(`cap-${i}`), `上限${i}`)).id);
      // One award earlier today (previous test) + one now = the limit of 2.
      expect(awards(trusted.id).n).toBe(2);
    } finally {
      setConfig("score", "document_limit", 3);
    }
  });
});

describe("instant upload and the activity feed (issue 13 item 7)", () => {
  test("an MD5 of someone else's pending upload is unknown; one's own or a public document's is known", async () => {
    const bytes = pdfBytes("secret-pending");
    const hash = md5(bytes);
    const d = await uploadAndCreate(alice.token, bytes, "审核中的秘密");
    const exists = (token: string) => t.req("GET", `/api/v1/upload/document/exists?hash=${hash}`, { token });
    expect((await exists(bob.token)).body).toEqual({ exists: false });
    const steal = await create(bob.token, { title: "秒传别人的", hash });
    expect([steal.status, steal.body.message]).toEqual([400, "服务器上没有该文件，请重新上传"]);
    expect((await exists(alice.token)).body).toEqual({ exists: true });
    expect((await create(alice.token, { title: "自己的秒传", hash })).status).toBe(200);
    // Rejected stays unknown to others.
    converted(d.id);
    await check(d.id, 7);
    expect((await exists(bob.token)).body).toEqual({ exists: false });
    // Public: anyone may instant-upload it.
    const pub = await uploadAndCreate(trusted.token, pdfBytes("public-file"), "公开文件");
    converted(pub.id);
    expect((await exists(bob.token)).body).toEqual({ exists: false }); // not bob's and...
    const pubHash = pub.hash;
    expect((await t.req("GET", `/api/v1/upload/document/exists?hash=${pubHash}`, { token: bob.token })).body).toEqual({ exists: true });
    expect((await create(bob.token, { title: "公开文件的秒传", hash: pubHash })).status).toBe(200);
  });

  test("others see upload lines only for public documents; the owner sees all of them", async () => {
    const d = await uploadAndCreate(alice.token, pdfBytes("feed-pending"), "还在审核的标题");
    const line = "上传了文档《还在审核的标题》";
    const seenBy = async (token?: string) => ((await t.req("GET", `/api/v1/user/dynamic?id=${alice.id}&size=50`, { token })).body.dynamic as { content: string }[]).map((x) => x.content);
    expect(await seenBy()).not.toContain(line);
    expect(await seenBy(bob.token)).not.toContain(line);
    expect(listDynamic(alice.id, 1, 50, alice.id).dynamic.map((x) => x.content)).toContain(line);
    converted(d.id);
    await check(d.id, 2);
    expect(await seenBy(bob.token)).toContain(line);
  });
});

describe("a conversion out of attempts ends as failed (reliability)", () => {
  test("worker killed on every attempt: the next claim fails the job and the document becomes 3 with a Chinese reason", async () => {
    const d = await uploadAndCreate(trusted.token, pdfBytes("always-killed"), "总被杀");
    getSqlite().run("update jobs set status = 'done' where kind = 'document.convert' and json_extract(payload, '$.document_id') != ?", [d.id]);
    // What repeated kill -9 leaves after restart recovery: queued again with every attempt used.
    getSqlite().run("update jobs set status = 'queued', attempts = max_attempts, run_after = 0 where kind = 'document.convert' and json_extract(payload, '$.document_id') = ?", [d.id]);
    getDb().update(document).set({ status: 1 }).where(eq(document.id, d.id)).run();
    expect(claim(["document.convert"])).toBeNull();
    const after = row(d.id);
    expect(after.status).toBe(3);
    expect(after.convert_error).toContain("转换失败");
    const own = await t.req("GET", `/api/v1/document?id=${d.id}`, { token: trusted.token });
    expect(own.body.convert_error).toContain("转换失败");
    const admin = await t.req("GET", `/api/v1/document?id=${d.id}`, { token: t.rootToken });
    expect(admin.body.convert_error).toBe(after.convert_error);
  });

  test("a last attempt that times out (worker abort) fails the document too", async () => {
    const d = await uploadAndCreate(trusted.token, pdfBytes("always-timeout"), "总超时");
    getSqlite().run("update jobs set status = 'done' where kind = 'document.convert' and json_extract(payload, '$.document_id') != ?", [d.id]);
    getSqlite().run("update jobs set run_after = 0, attempts = max_attempts - 1 where kind = 'document.convert' and json_extract(payload, '$.document_id') = ?", [d.id]);
    const job = claim(["document.convert"]);
    expect(JSON.parse(job!.payload).document_id).toBe(d.id);
    getDb().update(document).set({ status: 1 }).where(eq(document.id, d.id)).run();
    expect(fail(job!.id, "任务超时")).toBe(true);
    expect(row(d.id).status).toBe(3);
    expect(row(d.id).convert_error).toContain("任务超时");
  });
});

describe("unused uploads are purged after a grace period (reliability)", () => {
  test("an upload never turned into a document goes with its file; files a document uses stay", async () => {
    const lonely = await upload(t, alice.token, pdfBytes("never-submitted"), "没提交.pdf");
    const young = await upload(t, alice.token, pdfBytes("just-uploaded"), "刚上传.pdf");
    const shared = pdfBytes("shared-file");
    const used = await uploadAndCreate(bob.token, shared, "有文档");
    const spare = await upload(t, alice.token, shared, "同一文件.pdf");
    const dayAgo = Date.now() - 25 * 3600_000;
    for (const id of [lonely.body.id, spare.body.id, row(used.id).attachment_id]) getDb().update(attachment).set({ created_at: dayAgo }).where(eq(attachment.id, id)).run();
    const r = purgeUnusedUploads();
    expect(r.attachments).toBe(2);
    const ids = getDb().select({ id: attachment.id }).from(attachment).all().map((a) => a.id);
    expect(ids).not.toContain(lonely.body.id);
    expect(ids).not.toContain(spare.body.id);
    expect(ids).toContain(young.body.id);
    expect(ids).toContain(row(used.id).attachment_id);
    expect(existsSync(originalPath(lonely.body.hash, "pdf"))).toBe(false);
    expect(existsSync(originalPath(young.body.hash, "pdf"))).toBe(true);
    expect(existsSync(originalPath(md5(shared), "pdf"))).toBe(true);
  });
});

describe("admin image uploads stream with a running limit (issue 13 item 7)", () => {
  test("a chunked body of 200 MB without Content-Length is cut off at 5 MB with a Chinese 413", async () => {
    const dir = mkdtempSync(join(tmpdir(), "wk-img-"));
    setStorageRoot(join(dir, "uploads"));
    try {
      const boundary = "----wkimg";
      const head = new TextEncoder().encode(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.png"\r\nContent-Type: image/png\r\n\r\n`);
      const chunk = new Uint8Array(256 * 1024);
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(ctl) {
          if (sent === 0) ctl.enqueue(head);
          if (sent >= 200 * 1024 * 1024) return ctl.close();
          sent += chunk.length;
          ctl.enqueue(chunk);
        },
      });
      const res = await t.app.request("/api/v1/upload/banner", {
        method: "POST", body, duplex: "half", headers: { authorization: `Bearer ${t.rootToken}`, "content-type": `multipart/form-data; boundary=${boundary}` },
      } as RequestInit);
      expect(res.status).toBe(413);
      expect(((await res.json()) as { message: string }).message).toBe("图片大小不能超过 5 MB");
      expect(sent).toBeLessThan(8 * 1024 * 1024);
      const tmp = join(dir, "tmp", "uploads");
      expect(existsSync(tmp) ? [...new Bun.Glob("*").scanSync(tmp)] : []).toEqual([]);
    } finally {
      setStorageRoot(null);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
