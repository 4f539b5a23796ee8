// View counting: once per (document, visitor) per 24 h, crawlers and prefetches never, written in
// batches off the request path.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { document } from "#db/schema/documents.ts";
import { setDocumentsRoot } from "#src/features/documents/paths.ts";
import { flushViews, isBot, recordView, resetViews, VIEW_TTL_MS } from "#src/features/reader/views.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { makeDoc, useDocumentsRoot } from "./reader-fixtures.ts";

const t = setupTestApp();
let root = "";
beforeAll(() => {
  root = useDocumentsRoot();
  resetViews();
});
afterAll(() => {
  setDocumentsRoot(null);
  rmSync(root, { recursive: true, force: true });
});

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
const SAFARI = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const views = (id: number) => getDb().select({ v: document.view_count }).from(document).where(eq(document.id, id)).get()!.v;

/** What the reader's sendBeacon sends: a text/plain JSON body. */
const beacon = (uuid: string, opts: { ua?: string; ip?: string; token?: string; headers?: Record<string, string> } = {}) =>
  t.req("POST", "/api/v1/document/view", {
    body: JSON.stringify({ uuid }), token: opts.token,
    headers: { "content-type": "text/plain;charset=UTF-8", "user-agent": opts.ua ?? CHROME, "x-forwarded-for": opts.ip ?? "203.0.113.7", ...opts.headers },
  });

describe("view counting", () => {
  test("the same visitor twice counts once; another browser or address counts again; written on flush", async () => {
    const d = makeDoc({ userId: t.userId });
    expect((await beacon(d.uuid)).body).toEqual({ counted: true });
    expect((await beacon(d.uuid)).body).toEqual({ counted: false });
    expect(views(d.id)).toBe(0);
    expect((await beacon(d.uuid, { ua: SAFARI })).body.counted).toBe(true);
    expect((await beacon(d.uuid, { ip: "198.51.100.4" })).body.counted).toBe(true);
    expect(flushViews()).toBe(1);
    expect(views(d.id)).toBe(3);
    expect(flushViews()).toBe(0);
  });

  test("a signed-in reader counts once whatever address or browser they use", async () => {
    const d = makeDoc({ userId: t.userId });
    const counted = [];
    for (const [ua, ip] of [[CHROME, "192.0.2.1"], [SAFARI, "192.0.2.2"], [CHROME, "192.0.2.3"]] as const) counted.push((await beacon(d.uuid, { token: t.userToken, ua, ip })).body.counted);
    expect(counted).toEqual([true, false, false]);
    flushViews();
    expect(views(d.id)).toBe(1);
  });

  test("crawlers, scripts, headless browsers, empty agents and prefetches never count", async () => {
    const d = makeDoc({ userId: t.userId });
    const bots = [
      "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
      "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)",
      "Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)",
      "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
      "Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)",
      "curl/8.5.0", "Wget/1.21.4", "python-requests/2.32.3", "Go-http-client/1.1", "okhttp/4.12.0",
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36",
      "", "Mozilla",
    ];
    for (const [i, ua] of bots.entries()) {
      const r = await beacon(d.uuid, { ua, ip: `10.0.0.${i + 1}` });
      expect({ ua, counted: r.body.counted }).toEqual({ ua, counted: false });
    }
    expect((await beacon(d.uuid, { ip: "10.9.9.9", headers: { "sec-purpose": "prefetch" } })).body.counted).toBe(false);
    flushViews();
    expect(views(d.id)).toBe(0);
    expect(isBot(CHROME)).toBe(false);
    expect(isBot(SAFARI)).toBe(false);
  });

  test("after 24 hours the same visitor counts again", () => {
    const d = makeDoc({ userId: t.userId });
    const now = Date.now();
    expect(recordView(d.id, "visitor-x", now)).toBe(true);
    expect(recordView(d.id, "visitor-x", now + VIEW_TTL_MS - 1)).toBe(false);
    expect(recordView(d.id, "visitor-x", now + VIEW_TTL_MS + 1)).toBe(true);
    flushViews();
    expect(views(d.id)).toBe(2);
  });

  test("hidden or unknown documents and malformed bodies are refused without counting", async () => {
    const hidden = makeDoc({ userId: t.userId, status: 0 });
    expect((await beacon(hidden.uuid)).status).toBe(404);
    expect((await beacon("nosuchdocument")).status).toBe(404);
    const bad = await t.req("POST", "/api/v1/document/view", { body: "not json", headers: { "content-type": "text/plain", "user-agent": CHROME } });
    expect(bad.status).toBe(400);
    flushViews();
    expect(views(hidden.id)).toBe(0);
  });

  test("reading the page itself never counts (cached pages count through the beacon only)", async () => {
    const d = makeDoc({ userId: t.userId });
    for (let i = 0; i < 3; i++) await t.req("GET", `/document/${d.uuid}`, { headers: { accept: "text/html", "user-agent": CHROME } });
    flushViews();
    expect(views(d.id)).toBe(0);
  });
});
