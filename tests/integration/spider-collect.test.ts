import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq, inArray } from "drizzle-orm";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getDb, getSqlite } from "#db/client.ts";
import { document } from "#db/schema/documents.ts";
import { jobs } from "#db/schema/jobs.ts";
import { attachment } from "#db/schema/site.ts";
import { spiderDocument, spiderUrl } from "#db/schema/spider.ts";
import { originalPath } from "#src/features/documents/paths.ts";
import { invalidateSettings } from "#src/features/settings/service.ts";
import { setSpiderResolver, setSpiderTestCa } from "#src/features/spider/fetch.ts";
import { clearRobotsCache } from "#src/features/spider/robots.ts";
import { startWorker } from "#src/jobs/worker.ts";
import "#src/features/spider/jobs.ts";
import "#src/features/convert/job.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { DEEP_FILE, DUPLICATE, sample, SITE_FILES, startSpiderSite, type SpiderSite } from "../helpers/spiderSite.ts";
import { fileForm, makeCategory, useDocumentsDir } from "./documents-fixtures.ts";

const t = setupTestApp();
useDocumentsDir();
let site: SpiderSite;
let categoryId = 0;
let libraryDocId = 0;

function setSpider(values: Record<string, string | number | boolean>) {
  const q = getSqlite().query("INSERT INTO config (category, name, value) VALUES ('spider', ?, ?) ON CONFLICT(category, name) DO UPDATE SET value = excluded.value");
  for (const [k, v] of Object.entries(values)) q.run(k, String(v));
  invalidateSettings();
}

const KINDS = ["spider.collect", "spider.download", "spider.publish", "document.convert"];
/** Runs a worker in this process until no spider or conversion job is waiting. */
async function drain(timeoutMs = 150_000) {
  const worker = startWorker({ concurrency: 4, pollMs: 20 });
  const deadline = Date.now() + timeoutMs;
  try {
    while (getDb().select({ id: jobs.id }).from(jobs).where(and(inArray(jobs.kind, KINDS), inArray(jobs.status, ["queued", "running"]))).all().length) {
      if (Date.now() > deadline) throw new Error("spider jobs did not finish in time");
      await Bun.sleep(25);
    }
  } finally {
    await worker.stop();
  }
}

const docByPath = (path: string) => getDb().select().from(spiderDocument).where(eq(spiderDocument.url, site.url + path)).get();

beforeAll(async () => {
  site = startSpiderSite();
  setSpider({ allow_private_addresses: true, delay_ms: 0, timeout: 20 });
  categoryId = makeCategory("采集资料").id;
  // The library already holds the spreadsheet the site also offers (an upload by the root user).
  const up = await t.req("POST", "/api/v1/upload/document", { token: t.rootToken, body: fileForm(sample(DUPLICATE.sample), "销售数据表.xlsx") });
  expect(up.status).toBe(200);
  const created = await t.req("POST", "/api/v1/document", { token: t.rootToken, body: { category_id: [categoryId], document: [{ title: "销售数据表（已有）", attachment_id: up.body.id }] } });
  expect(created.status).toBe(200);
  libraryDocId = (created.body.document ?? created.body)[0]?.id ?? getDb().select().from(document).get()!.id;
});
afterAll(() => {
  site?.stop();
  setSpiderResolver(null);
  clearRobotsCache();
});

describe("spider against a loopback site", () => {
  test("collects, refuses the traps, de-duplicates, publishes and converts", async () => {
    const r = await t.req("POST", "/api/v1/spider/url", {
      token: t.rootToken,
      body: { urls: `${site.url}/\n`, category_id: categoryId, user_id: t.rootId, depth: 1, same_site: true, exts: ["pdf", "doc", "docx", "xlsx", "epub", "txt"], max_size: 1, price: 3 },
    });
    expect(r.status).toBe(200);
    expect(r.body.message).toContain("已提交 1 个网址");
    await drain();

    const task = getDb().select().from(spiderUrl).get()!;
    expect(task.status).toBe(2);
    expect(task.message).toContain("发现");
    // Every same-site document link, the one a level down included; the other site's link is not recorded.
    const all = getDb().select().from(spiderDocument).all();
    expect(all.some((d) => d.url.includes("other.example"))).toBe(false);
    for (const p of [...Object.keys(SITE_FILES), DEEP_FILE.path]) {
      const d = docByPath(p)!;
      expect(d.status, `${p}: ${d.message}`).toBe(3);
      expect(d.attachment_id).toBeGreaterThan(0);
      expect(existsSync(originalPath(d.hash, d.ext))).toBe(true);
    }
    expect(docByPath("/files/summary.docx")!.ext).toBe("docx");
    expect(docByPath(DEEP_FILE.path)!.ext).toBe("epub");

    const redirect = docByPath("/trap/redirect.pdf")!;
    expect(redirect.status).toBe(4);
    expect(redirect.message).toContain("重定向被拒绝");
    expect(redirect.message).toContain("169.254.169.254");
    const huge = docByPath("/trap/huge.pdf")!;
    expect(huge.status).toBe(4);
    expect(huge.message).toContain("文件过大");
    const fake = docByPath("/trap/fake.pdf")!;
    expect(fake.status).toBe(4);
    expect(fake.message).toContain("网页（HTML）");
    expect(docByPath("/private/secret.pdf")!.message).toContain("robots.txt");
    expect(site.hits.get("/private/secret.pdf") ?? 0).toBe(0);
    expect(docByPath("/trap/missing.doc")!.message).toContain("HTTP 404");

    // The duplicate is marked with the library's document and not stored a second time.
    const dup = docByPath(DUPLICATE.path)!;
    expect(dup.status).toBe(3);
    expect(dup.duplicate).toBe(true);
    expect(dup.document_id).toBe(libraryDocId);
    expect(dup.attachment_id).toBe(0);
    expect(dup.message).toContain("文库中已有相同文档");
    expect(getDb().select().from(attachment).where(eq(attachment.hash, dup.hash)).all().every((a) => a.type !== 8)).toBe(true);
    expect(getDb().select().from(attachment).where(eq(attachment.type, 8)).all()).toHaveLength(4);

    // Publish everything picked: only the four downloads qualify.
    const pub = await t.req("PUT", "/api/v1/spider/document/publish", { token: t.rootToken, body: { id: all.map((d) => d.id) } });
    expect(pub.status).toBe(200);
    expect(pub.body.publish).toBe(4);
    await drain();
    for (const p of [...Object.keys(SITE_FILES), DEEP_FILE.path]) {
      const d = docByPath(p)!;
      expect(d.status, `${p}: ${d.message}`).toBe(7);
      const doc = getDb().select().from(document).where(eq(document.id, d.document_id)).get()!;
      expect(doc.category_id).toBe(categoryId);
      expect(doc.user_id).toBe(t.rootId);
      expect(doc.price).toBe(3);
      expect(doc.status, `${p} conversion`).toBe(2);
      expect(doc.pages).toBeGreaterThan(0);
    }
    // Publishing again is refused: nothing left to publish among them.
    const again = await t.req("PUT", "/api/v1/spider/document/publish", { token: t.rootToken, body: { id: all.map((d) => d.id) } });
    expect(again.status).toBe(400);
    expect(again.body.message).toContain("没有可发布的");
  }, 200_000);

  test("retry puts failed downloads back in the queue; they fail again with the same reason", async () => {
    const fake = docByPath("/trap/fake.pdf")!;
    const r = await t.req("PUT", "/api/v1/spider/document/retry", { token: t.rootToken, body: { id: [fake.id] } });
    expect(r.status).toBe(200);
    expect(docByPath("/trap/fake.pdf")!.status).toBe(1);
    await drain();
    expect(docByPath("/trap/fake.pdf")!.status).toBe(4);
    const none = await t.req("PUT", "/api/v1/spider/document/retry", { token: t.rootToken, body: { id: [docByPath("/files/poems.txt")!.id] } });
    expect(none.status).toBe(400);
  }, 60_000);

  test("deleting a URL removes its records and unused files; published documents stay", async () => {
    const txt = docByPath("/files/poems.txt")!;
    const task = getDb().select().from(spiderUrl).get()!;
    const r = await t.req("DELETE", `/api/v1/spider/url?id=${task.id}`, { token: t.rootToken });
    expect(r.status).toBe(200);
    expect(getDb().select().from(spiderDocument).all()).toHaveLength(0);
    expect(getDb().select().from(attachment).where(eq(attachment.type, 8)).all()).toHaveLength(0);
    // The published document still uses the original.
    expect(getDb().select().from(document).where(eq(document.id, txt.document_id)).get()).toBeTruthy();
    expect(existsSync(originalPath(txt.hash, txt.ext))).toBe(true);
  });
});

describe("time-outs", () => {
  test("a download that stalls is cut off by the time-out, retried, then marked failed", async () => {
    setSpider({ timeout: 1 });
    const r = await t.req("POST", "/api/v1/spider/url", { token: t.rootToken, body: { urls: `${site.url}/slow/stalled.pdf`, category_id: categoryId, user_id: t.rootId } });
    expect(r.status).toBe(200);
    await drain(60_000);
    const d = docByPath("/slow/stalled.pdf")!;
    expect(d.status).toBe(4);
    expect(d.message).toContain("请求超时");
    expect(getDb().select().from(jobs).where(eq(jobs.kind, "spider.download")).all().at(-1)!.attempts).toBe(3);
    setSpider({ timeout: 20 });
  }, 60_000);
});

describe("HTTPS to the pinned address", () => {
  test("the certificate is checked against the name while the connection goes to the resolved IP", async () => {
    const dir = mkdtempSync(join(tmpdir(), "wk-spider-tls-"));
    const made = Bun.spawnSync(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", join(dir, "k.pem"), "-out", join(dir, "c.pem"), "-days", "2",
      "-subj", "/CN=docs.test", "-addext", "subjectAltName=DNS:docs.test"], { stderr: "pipe" });
    expect(made.exitCode).toBe(0);
    const cert = readFileSync(join(dir, "c.pem"), "utf8");
    const pdf = sample("高中物理公式.pdf");
    const tls = Bun.serve({ hostname: "127.0.0.1", port: 0, tls: { cert, key: readFileSync(join(dir, "k.pem"), "utf8") },
      fetch: (req) => (new URL(req.url).pathname === "/robots.txt" ? new Response("", { status: 404 }) : new Response(Buffer.concat([pdf, Buffer.from("\n% tls\n")]))) });
    setSpiderTestCa(cert);
    setSpiderResolver(async (host) => (host === "docs.test" || host === "wrong.test" ? ["127.0.0.1"] : []));
    try {
      const ok = await t.req("POST", "/api/v1/spider/url", { token: t.rootToken, body: { urls: `https://docs.test:${tls.port}/a.pdf\nhttps://wrong.test:${tls.port}/b.pdf`, category_id: categoryId, user_id: t.rootId } });
      expect(ok.status).toBe(200);
      await drain(60_000);
      const good = getDb().select().from(spiderDocument).where(eq(spiderDocument.url, `https://docs.test:${tls.port}/a.pdf`)).get()!;
      expect(good.status, good.message).toBe(3);
      expect(good.ext).toBe("pdf");
      const bad = getDb().select().from(spiderDocument).where(eq(spiderDocument.url, `https://wrong.test:${tls.port}/b.pdf`)).get()!;
      expect(bad.status).toBe(4);
      expect(bad.message).toContain("证书校验失败");
    } finally {
      setSpiderTestCa(null);
      setSpiderResolver(null);
      tls.stop(true);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("SSRF refusals with private addresses not allowed", () => {
  test("a literal loopback URL is a 400 at submit; a name resolving to loopback fails the collection", async () => {
    setSpider({ allow_private_addresses: false });
    const before = getDb().select().from(jobs).all().length;
    const lit = await t.req("POST", "/api/v1/spider/url", { token: t.rootToken, body: { urls: `${site.url}/`, category_id: categoryId, user_id: t.rootId } });
    expect(lit.status).toBe(400);
    expect(lit.body.message).toContain("本机回环地址");
    for (const u of ["http://2130706433/", "http://0x7f.0.0.1/", "http://[::ffff:127.0.0.1]/", "http://169.254.169.254/latest/"]) {
      const r = await t.req("POST", "/api/v1/spider/url", { token: t.rootToken, body: { urls: u, category_id: categoryId, user_id: t.rootId } });
      expect(r.status, u).toBe(400);
    }
    expect(getDb().select().from(jobs).all().length).toBe(before);

    setSpiderResolver(async (host) => (host === "docs.internal.test" ? ["127.0.0.1"] : []));
    const named = await t.req("POST", "/api/v1/spider/url", { token: t.rootToken, body: { urls: `http://docs.internal.test:${site.port}/`, category_id: categoryId, user_id: t.rootId } });
    expect(named.status).toBe(200);
    const hitsBefore = site.hits.get("/") ?? 0;
    await drain();
    const row = getDb().select().from(spiderUrl).where(eq(spiderUrl.id, named.body.spider_url[0].id)).get()!;
    expect(row.status).toBe(3);
    expect(row.message).toContain("解析到本机回环地址");
    expect(site.hits.get("/") ?? 0).toBe(hitsBefore);
    setSpiderResolver(null);
    setSpider({ allow_private_addresses: true });
  });
});

describe("bad input", () => {
  test("clear 400s, nothing written", async () => {
    const base = { category_id: categoryId, user_id: t.rootId };
    const count = () => [getDb().select().from(spiderUrl).all().length, getDb().select().from(jobs).all().length];
    const before = count();
    const cases: [unknown, string][] = [
      [{ ...base, urls: "" }, "请输入要采集的网址"],
      [{ ...base, urls: `${site.url}/\nnot a url` }, "第 2 行"],
      [{ ...base, urls: "ftp://example.com/a.pdf" }, "只支持 http 和 https"],
      [{ ...base, urls: Array.from({ length: 101 }, (_, i) => `https://example.com/${i}`).join("\n") }, "最多提交 100 个网址"],
      [{ ...base, urls: `${site.url}/`, category_id: 9999 }, "文档分类不存在"],
      [{ ...base, urls: `${site.url}/`, user_id: 9999 }, "所有者用户不存在"],
      [{ ...base, urls: `${site.url}/`, depth: 3 }, "采集深度"],
      [{ ...base, urls: `${site.url}/`, exts: ["exe"] }, "文件类型"],
      [{ ...base, urls: `${site.url}/`, max_size: 5000 }, "文件大小上限"],
      [{ ...base, urls: `${site.url}/`, price: -1 }, "价格"],
    ];
    for (const [body, message] of cases) {
      const r = await t.req("POST", "/api/v1/spider/url", { token: t.rootToken, body });
      expect(r.status, message).toBe(400);
      expect(r.body.message, message).toContain(message);
    }
    expect(count()).toEqual(before);
    const badIds = await t.req("PUT", "/api/v1/spider/document/publish", { token: t.rootToken, body: { id: [] } });
    expect(badIds.status).toBe(400);
    expect(badIds.body.message).toContain("请选择");
  });
});

describe("permissions", () => {
  const routes: [string, string][] = [
    ["POST", "/api/v1/spider/url"], ["GET", "/api/v1/spider/url/list"], ["PUT", "/api/v1/spider/url/retry"], ["DELETE", "/api/v1/spider/url?id=1"],
    ["GET", "/api/v1/spider/document/list"], ["PUT", "/api/v1/spider/document/retry"], ["PUT", "/api/v1/spider/document/publish"], ["DELETE", "/api/v1/spider/document?id=1"],
  ];
  test("anonymous 401, members 403, root 200 on the lists", async () => {
    for (const [m, p] of routes) {
      expect((await t.req(m, p, { body: m === "GET" || m === "DELETE" ? undefined : { id: [1] } })).status, `${m} ${p}`).toBe(401);
      expect((await t.req(m, p, { token: t.userToken, body: m === "GET" || m === "DELETE" ? undefined : { id: [1] } })).status, `${m} ${p}`).toBe(403);
    }
    const list = await t.req("GET", "/api/v1/spider/document/list", { token: t.rootToken });
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body.spider_document)).toBe(true);
  });
  test("admin pages: anonymous to login, members home, root sees both screens in the menu", async () => {
    expect((await t.req("GET", "/admin/spider/url")).res.headers.get("location")).toContain("/login");
    expect((await t.req("GET", "/admin/spider/document", { token: t.userToken })).res.headers.get("location")).toBe("/");
    for (const p of ["/admin/spider/url", "/admin/spider/document"]) {
      const r = await t.req("GET", p, { token: t.rootToken });
      expect(r.status).toBe(200);
      expect(r.text).toContain("蜘蛛采集");
      expect(r.text).toContain("采集网址");
      expect(r.text).toContain("采集文档");
    }
    const cfg = await t.req("GET", "/admin/config/spider", { token: t.rootToken });
    expect(cfg.status).toBe(200);
    expect(cfg.text).toContain("允许采集内网与本机地址");
  });
});
