// The signed link GET /download/{uuid}: signature and expiry, the streamed original with a Chinese
// file name (RFC 6266/5987), ranges; the user's download list (API and /me/download); the island.
import { describe, expect, test } from "bun:test";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { document } from "#db/schema/documents.ts";
import DownloadButton, { type DownloadButtonProps } from "#islands/reader/DownloadButton.tsx";
import { signDownloadUrl } from "#src/features/downloads/signing.ts";
import { setupDownloads, starName } from "./downloads-fixtures.ts";

const d = setupDownloads();
const { t } = d;
const html = { accept: "text/html" };

async function linkFor(opts: Parameters<typeof d.doc>[1] = {}) {
  const owner = await d.member();
  const u = await d.member(100);
  const doc = d.doc(owner.id, opts);
  const r = await d.post({ id: doc.id }, u.token);
  expect(r.status).toBe(200);
  return { doc, u, url: r.body.url as string };
}

describe("GET /download/{uuid}", () => {
  test("streams the original with type, length and an attachment name that parses back to the Chinese title", async () => {
    const bytes = new Uint8Array(300_000).map((_, i) => (i * 7) % 251);
    const { doc, url } = await linkFor({ title: "2024年度报告：文库测试", ext: "docx", content: bytes });
    const r = await t.req("GET", url, { headers: { "accept-encoding": "gzip" } });
    expect(r.status).toBe(200);
    expect(r.res.headers.get("content-type")).toBe("application/vnd.openxmlformats-officedocument.wordprocessingml.document");
    expect(r.res.headers.get("content-length")).toBe(String(bytes.length));
    expect(r.res.headers.get("content-encoding")).toBeNull();
    expect(r.res.headers.get("cache-control")).toContain("no-store");
    const cd = r.res.headers.get("content-disposition")!;
    expect(cd).toStartWith('attachment; filename="2024.docx"; ');
    expect(starName(cd)).toBe("2024年度报告：文库测试.docx");
    expect(/^[\x20-\x7e]*$/.test(cd)).toBe(true);
    // The body is the stored file, byte for byte (req() decoded it as text, so fetch again raw).
    const raw = await t.app.request(url);
    expect(new Uint8Array(await raw.arrayBuffer())).toEqual(bytes);
    expect(doc.size).toBe(bytes.length);
  });

  test("names with quotes, slashes, control characters and an extension already in the title stay safe", async () => {
    const { url } = await linkFor({ title: '合同/范本 "最终版"\u0007.pdf', ext: "pdf" });
    const cd = (await t.app.request(url)).headers.get("content-disposition")!;
    expect(starName(cd)).toBe("合同_范本 _最终版_.pdf");
    expect(cd).toContain('filename="document.pdf"');
    const plain = await linkFor({ title: "Annual (report) 'v2'!", ext: "txt", content: "纯文本" });
    // Text is compressible, but the download keeps its exact length: no gzip on the way out.
    const res = await t.app.request(plain.url, { headers: { "accept-encoding": "gzip, br" } });
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(res.headers.get("content-length")).toBe(String(new TextEncoder().encode("纯文本").length));
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="Annual (report) 'v2'!.txt"; filename*=UTF-8''Annual%20%28report%29%20%27v2%27%21.txt`);
    expect(starName(res.headers.get("content-disposition"))).toBe("Annual (report) 'v2'!.txt");
  });

  test("a byte range answers 206 with Content-Range; an unsatisfiable one 416", async () => {
    const { url } = await linkFor({ content: "0123456789abcdef", ext: "txt" });
    const part = await t.app.request(url, { headers: { range: "bytes=4-9" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe("bytes 4-9/16");
    expect(await part.text()).toBe("456789");
    const tail = await t.app.request(url, { headers: { range: "bytes=-3" } });
    expect(await tail.text()).toBe("def");
    expect((await t.app.request(url, { headers: { range: "bytes=99-" } })).status).toBe(416);
  });

  test("a tampered signature, user, document or expiry, a missing part, or an expired link → 403 下载链接已失效", async () => {
    const { doc, url, u } = await linkFor();
    const other = d.doc(u.id);
    const q = new URL(url, "http://x").searchParams;
    const sig = q.get("sig")!;
    const flip = (s: string) => s.slice(0, -1) + (s.endsWith("0") ? "1" : "0");
    const bad = [
      url.replace(sig, flip(sig)),
      url.replace(`u=${u.id}`, `u=${u.id + 1}`),
      url.replace(doc.uuid, other.uuid),
      url.replace(`expires=${q.get("expires")}`, `expires=${Number(q.get("expires")) + 3600}`),
      url.replace(/&sig=[0-9a-f]+/, ""),
      url.replace(/&u=\d+/, ""),
      url.replace(`sig=${sig}`, `sig=${sig.toUpperCase()}`),
      signDownloadUrl(doc.uuid, u.id, Date.now() - 3_600_000).url,
      `/download/${doc.uuid}`,
      `/download/..%2F..%2Fetc?expires=1&sig=${sig}&u=1`,
    ];
    for (const b of bad) {
      const r = await t.req("GET", b);
      expect([b, r.status]).toEqual([b, 403]);
      expect(r.body.message).toBe("下载链接已失效，请返回文档页面重新下载");
    }
    // A browser navigation gets the Chinese error page.
    const page = await t.req("GET", bad[0]!, { headers: html });
    expect(page.status).toBe(403);
    expect(page.text).toContain("下载链接已失效");
    // The genuine link still works.
    expect((await t.app.request(url)).status).toBe(200);
  });

  test("a link stops working when its document is disabled or deleted; a missing file is 404", async () => {
    const { doc, url } = await linkFor();
    getDb().update(document).set({ status: 4 }).where(eq(document.id, doc.id)).run();
    expect((await t.req("GET", url)).status).toBe(404);
    const gone = await linkFor();
    getDb().update(document).set({ deleted_at: Date.now() }).where(eq(document.id, gone.doc.id)).run();
    expect((await t.req("GET", gone.url)).status).toBe(404);
    const lost = await linkFor();
    getDb().update(document).set({ hash: "0".repeat(32) }).where(eq(document.id, lost.doc.id)).run();
    const r = await t.req("GET", lost.url);
    expect(r.status).toBe(404);
    expect(r.body.message).toBe("文件不存在，请联系管理员");
  });
});

describe("GET /api/v1/user/download and /me/download", () => {
  test("guests get 401; a user sees their own downloads, newest first, paged", async () => {
    expect((await t.req("GET", "/api/v1/user/download")).status).toBe(401);
    const owner = await d.member();
    const me = await d.member(100);
    const a = d.doc(owner.id, { title: "第一份文档", price: 10, ext: "pptx" });
    const b = d.doc(owner.id, { title: "第二份文档" });
    const other = await d.member();
    expect((await d.post({ id: a.id }, me.token)).status).toBe(200);
    expect((await d.post({ id: b.id }, me.token)).status).toBe(200);
    expect((await d.post({ id: b.id }, other.token)).status).toBe(200);
    const r = await t.req("GET", "/api/v1/user/download?page=1&size=1", { token: me.token });
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(2);
    expect(r.body.download).toHaveLength(1);
    expect(r.body.download[0]).toMatchObject({ price: 0, document: { uuid: b.uuid, title: "第二份文档", ext: "pdf", pages: 3, size: b.size, available: true } });
    const p2 = await t.req("GET", "/api/v1/user/download?page=2&size=1", { token: me.token });
    // A paid download bought the document: downloading it again costs nothing (commerce issue).
    expect(p2.body.download[0]).toMatchObject({ price: 10, redownload_price: 0, document: { uuid: a.uuid, title: "第一份文档", ext: "pptx" } });
    expect(typeof p2.body.download[0].id).toBe("number");
    expect(typeof p2.body.download[0].created_at).toBe("number");
    for (const bad of ["page=0", "size=51", "page=abc", "size=-1"]) {
      const x = await t.req("GET", `/api/v1/user/download?${bad}`, { token: me.token });
      expect([bad, x.status]).toEqual([bad, 400]);
      expect(x.body.message).toMatch(/[\u4e00-\u9fa5]/);
    }
  });

  test("/me/download lists titles with re-download buttons; a removed document shows 已下架", async () => {
    const owner = await d.member();
    const me = await d.member(100);
    const live = d.doc(owner.id, { title: "可再次下载的文档", price: 8 });
    const removed = d.doc(owner.id, { title: "后来下架的文档" });
    await d.post({ id: live.id }, me.token);
    await d.post({ id: removed.id }, me.token);
    getDb().update(document).set({ status: 4 }).where(eq(document.id, removed.id)).run();
    const page = await t.req("GET", "/me/download", { token: me.token, headers: html });
    expect(page.status).toBe(200);
    expect(page.text).toContain("可再次下载的文档");
    expect(page.text).toContain(`href="/document/${live.uuid}"`);
    expect(page.text).toContain("后来下架的文档");
    expect(page.text).toContain("已下架");
    expect(page.text).toContain('data-island="DownloadButton"');
    expect(page.text).toContain("8 魔豆");
    const empty = await d.member();
    const none = await t.req("GET", "/me/download", { token: empty.token, headers: html });
    expect(none.text).toContain("还没有下载记录");
  });
});

describe("islands/DownloadButton (server render, before hydration)", () => {
  const render = (p: Partial<DownloadButtonProps>) =>
    renderToString(createElement(DownloadButton, { uuid: "abc123", price: 0, ext: "pdf", sizeText: "2.00 KB", creditName: "魔豆", loggedIn: true, ...p }));

  test("a member sees the price and a button that waits for hydration", () => {
    const html = render({ price: 10 });
    expect(html).toContain("10 魔豆");
    expect(html).toContain("PDF · 2.00 KB");
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>下载（10 魔豆）<\/button>/);
    expect(render({})).toContain("免费下载");
  });

  test("a guest gets a login link back to the document unless guest download covers this free file", () => {
    const link = 'href="/login?redirect=%2Fdocument%2Fabc123"';
    expect(render({ loggedIn: false })).toContain(link);
    expect(render({ loggedIn: false })).toContain("登录后下载");
    expect(render({ loggedIn: false, guestDownload: true, price: 5 })).toContain(link);
    const free = render({ loggedIn: false, guestDownload: true });
    expect(free).not.toContain("/login");
    expect(free).toContain("免费下载");
  });

  test("the compact list variant is just the re-download button", () => {
    const html = render({ compact: true, price: 3 });
    expect(html).toContain("再次下载（3 魔豆）");
    expect(html).not.toContain("download-meta");
  });
});
