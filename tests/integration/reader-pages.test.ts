// Page images and covers: headers, gzip negotiation, validators, access rules and traversal attempts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { setDocumentsRoot } from "#src/features/documents/paths.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { makeDoc, setConfig, svgPage, useDocumentsRoot } from "./reader-fixtures.ts";

const t = setupTestApp();
let root = "";
beforeAll(() => void (root = useDocumentsRoot()));
afterAll(() => {
  setDocumentsRoot(null);
  rmSync(root, { recursive: true, force: true });
});

/** Raw response: app.request does not decode, so gzip bodies stay as sent. */
const raw = (path: string, headers: Record<string, string> = {}) => t.app.request(path, { headers });
const bytes = async (r: Response) => new Uint8Array(await r.arrayBuffer());
const text = async (r: Response) => new TextDecoder().decode(await bytes(r));

describe("page images", () => {
  test("an SVG page: type, long public cache, ETag and Last-Modified, the file's bytes", async () => {
    const d = makeDoc({ userId: t.userId, files: "svg" });
    const r = await raw(`/view/page/${d.uuid}/2.svg`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("image/svg+xml");
    expect(r.headers.get("cache-control")).toBe("public, max-age=2592000");
    expect(r.headers.get("etag")).toMatch(/^"[0-9a-f]{12}-2-[0-9a-z]+-[0-9a-z]+"$/);
    expect(new Date(r.headers.get("last-modified")!).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(r.headers.get("content-encoding")).toBeNull();
    expect(await text(r)).toBe(svgPage(2));
    // Without a suffix the page is the SVG one.
    expect(await text(await raw(`/view/page/${d.uuid}/2`))).toBe(svgPage(2));
  });

  test(".gzip.svg is the gzipped copy with Content-Encoding: gzip and image/svg+xml", async () => {
    const d = makeDoc({ userId: t.userId, files: "both" });
    const r = await raw(`/view/page/${d.uuid}/1.gzip.svg`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("image/svg+xml");
    expect(r.headers.get("content-encoding")).toBe("gzip");
    expect(new TextDecoder().decode(Bun.gunzipSync(await bytes(r)))).toBe(svgPage(1));
  });

  test(".svg negotiates: the stored gzip copy when accepted, plain otherwise, decompressed when only gzip exists", async () => {
    const both = makeDoc({ userId: t.userId, files: "both" });
    const gz = await raw(`/view/page/${both.uuid}/1.svg`, { "accept-encoding": "gzip, br" });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gz.headers.get("vary")).toContain("Accept-Encoding");
    expect(new TextDecoder().decode(Bun.gunzipSync(await bytes(gz)))).toBe(svgPage(1));
    const plain = await raw(`/view/page/${both.uuid}/1.svg`);
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await text(plain)).toBe(svgPage(1));
    expect(plain.headers.get("etag")).not.toBe(gz.headers.get("etag"));

    const only = makeDoc({ userId: t.userId, files: "gzip" });
    const dec = await raw(`/view/page/${only.uuid}/3.svg`, { "accept-encoding": "identity" });
    expect(dec.status).toBe(200);
    expect(dec.headers.get("content-encoding")).toBeNull();
    expect(await text(dec)).toBe(svgPage(3));
    const enc = await raw(`/view/page/${only.uuid}/3.svg`, { "accept-encoding": "gzip" });
    expect(enc.headers.get("content-encoding")).toBe("gzip");
    // A .gzip.svg link to a document converted without gzip still gets the page.
    const svgOnly = makeDoc({ userId: t.userId, files: "svg" });
    expect(await text(await raw(`/view/page/${svgOnly.uuid}/1.gzip.svg`, { "accept-encoding": "identity" }))).toBe(svgPage(1));
  });

  test("304 for a matching If-None-Match (also in a list or weak) and for If-Modified-Since", async () => {
    const d = makeDoc({ userId: t.userId, files: "svg" });
    const first = await raw(`/view/page/${d.uuid}/1.svg`);
    const etag = first.headers.get("etag")!;
    const again = await raw(`/view/page/${d.uuid}/1.svg`, { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect((await bytes(again)).length).toBe(0);
    expect((await raw(`/view/page/${d.uuid}/1.svg`, { "if-none-match": `"x", W/${etag}` })).status).toBe(304);
    expect((await raw(`/view/page/${d.uuid}/1.svg`, { "if-none-match": '"other"' })).status).toBe(200);
    expect((await raw(`/view/page/${d.uuid}/1.svg`, { "if-modified-since": first.headers.get("last-modified")! })).status).toBe(304);
    expect((await raw(`/view/page/${d.uuid}/1.svg`, { "if-modified-since": new Date(Date.now() - 86400_000).toUTCString() })).status).toBe(200);
    // A different page of the same document has its own validator.
    expect((await raw(`/view/page/${d.uuid}/2.svg`, { "if-none-match": etag })).status).toBe(200);
  });

  test("PNG and WebP pages when the conversion made those; no SVG for them", async () => {
    const png = makeDoc({ userId: t.userId, files: "png" });
    const r = await raw(`/view/page/${png.uuid}/1.png`);
    expect([r.status, r.headers.get("content-type")]).toEqual([200, "image/png"]);
    expect((await raw(`/view/page/${png.uuid}/1.svg`)).status).toBe(404);
    expect((await raw(`/view/page/${png.uuid}/1.webp`)).status).toBe(404);
    const webp = makeDoc({ userId: t.userId, files: "webp" });
    expect((await raw(`/view/page/${webp.uuid}/2.webp`)).headers.get("content-type")).toBe("image/webp");
  });

  test("pages beyond the preview limit are not served even when the file exists; missing files are 404", async () => {
    const d = makeDoc({ userId: t.userId, pages: 6, preview: 3, onDisk: 6 });
    expect((await raw(`/view/page/${d.uuid}/3.svg`)).status).toBe(200);
    expect((await raw(`/view/page/${d.uuid}/4.svg`)).status).toBe(404);
    const partial = makeDoc({ userId: t.userId, pages: 5, preview: 5, onDisk: 2 });
    expect((await raw(`/view/page/${partial.uuid}/3.svg`)).status).toBe(404);
  });

  test("traversal and malformed names never reach the disk", async () => {
    const d = makeDoc({ userId: t.userId });
    const bad = [
      `/view/page/${d.uuid}/..%2f..%2f..%2fetc%2fpasswd`,
      `/view/page/${d.uuid}/..%2F1.svg`,
      `/view/page/${d.uuid}/1.svg%2f..%2f..%2foriginal.pdf`,
      `/view/page/..%2f..%2f${d.uuid}/1.svg`,
      `/view/page/${d.uuid}%2f..%2f/1.svg`,
      `/view/page/${d.uuid}/%2e%2e/1.svg`,
      `/view/page/${d.uuid}/../../original.pdf`,
      `/view/page/${d.uuid}/original.pdf`,
      `/view/page/${d.uuid}/0.svg`,
      `/view/page/${d.uuid}/01.svg`,
      `/view/page/${d.uuid}/-1.svg`,
      `/view/page/${d.uuid}/1e3.svg`,
      `/view/page/${d.uuid}/1.SVG`,
      `/view/page/${d.uuid}/1.svg.bak`,
      `/view/page/${d.uuid}/1.gz.svg`,
      `/view/page/${d.uuid}/1.jpg`,
      `/view/page/${d.uuid}/99999999999999999999.svg`,
      `/view/page/${d.uuid}/999999.svg`,
      `/view/page/${d.uuid}/1%00.svg`,
      `/view/page/${d.uuid.toUpperCase()}x/1.svg`,
      `/view/page/${"a".repeat(80)}/1.svg`,
      `/view/cover/..%2f${d.uuid}.png`,
      `/view/cover/${d.uuid}.svg`,
    ];
    for (const path of bad) {
      const r = await raw(path);
      expect({ path, status: r.status }).toEqual({ path, status: 404 });
    }
  });

  test("documents visitors cannot see: no pages for them; the owner and admins get them, privately cached", async () => {
    const other = await t.createUser("reader_pages_other");
    for (const status of [0, 1, 3, 4, 5, 6, 7]) {
      const d = makeDoc({ userId: t.userId, status });
      expect((await raw(`/view/page/${d.uuid}/1.svg`)).status).toBe(404);
      expect((await t.req("GET", `/view/page/${d.uuid}/1.svg`, { token: other.token })).status).toBe(404);
      const own = await t.req("GET", `/view/page/${d.uuid}/1.svg`, { token: t.userToken });
      expect(own.status).toBe(200);
      expect(own.res.headers.get("cache-control")).toBe("private, no-cache");
      expect((await t.req("GET", `/view/page/${d.uuid}/1.svg`, { token: t.rootToken })).status).toBe(200);
    }
    const deleted = makeDoc({ userId: t.userId, deleted: true });
    expect((await raw(`/view/page/${deleted.uuid}/1.svg`)).status).toBe(404);
    expect((await t.req("GET", `/view/page/${deleted.uuid}/1.svg`, { token: t.userToken })).status).toBe(404);
    expect((await raw(`/view/page/nosuchdocument/1.svg`)).status).toBe(404);
  });

  test("the cover: served for visible documents with validators, 404 when absent or hidden", async () => {
    const d = makeDoc({ userId: t.userId, cover: true });
    const r = await raw(`/view/cover/${d.uuid}.png`);
    expect([r.status, r.headers.get("content-type"), r.headers.get("cache-control")]).toEqual([200, "image/png", "public, max-age=2592000"]);
    expect((await raw(`/view/cover/${d.uuid}.png`, { "if-none-match": r.headers.get("etag")! })).status).toBe(304);
    expect((await raw(`/view/cover/${makeDoc({ userId: t.userId }).uuid}.png`)).status).toBe(404);
    expect((await raw(`/view/cover/${makeDoc({ userId: t.userId, status: 4, cover: true }).uuid}.png`)).status).toBe(404);
  });

  test("a site that requires login or is closed keeps its page images from anonymous visitors", async () => {
    const d = makeDoc({ userId: t.userId });
    setConfig([["security", "login_required", true]]);
    const anon = await raw(`/view/page/${d.uuid}/1.svg`);
    expect(anon.status).toBe(302);
    expect(anon.headers.get("location")).toStartWith("/login?redirect=");
    expect((await t.req("GET", `/view/page/${d.uuid}/1.svg`, { token: t.userToken })).status).toBe(200);
    setConfig([["security", "login_required", false], ["security", "is_close", true]]);
    expect((await raw(`/view/cover/${d.uuid}.png`)).status).toBe(302);
    expect((await t.req("GET", `/view/page/${d.uuid}/1.svg`, { token: t.userToken })).status).toBe(302);
    expect((await t.req("GET", `/view/page/${d.uuid}/1.svg`, { token: t.rootToken })).status).toBe(200);
    setConfig([["security", "is_close", false]]);
    expect((await raw(`/view/page/${d.uuid}/1.svg`)).status).toBe(200);
  });

  test("HEAD answers the headers without a body", async () => {
    const d = makeDoc({ userId: t.userId });
    const r = await t.app.request(`/view/page/${d.uuid}/1.svg`, { method: "HEAD" });
    expect(r.status).toBe(200);
    expect(r.headers.get("etag")).toBeTruthy();
    expect((await bytes(r)).length).toBe(0);
  });
});
