// 1,000 rapid login attempts from one address: the limit holds and the server keeps answering.
import { expect, test } from "bun:test";
import { resetAll } from "#src/lib/rateLimit.ts";
import { ROOT, setupTestApp } from "../helpers/testApp.ts";

const t = setupTestApp();

test("1,000 rapid logins from one IP: at most 20 are tried, the rest are 429, /healthz stays fast", async () => {
  resetAll();
  const ip = "192.0.2.77";
  const statuses = new Map<number, number>();
  const health: number[] = [];
  // 20 waves of 50 concurrent attempts (wrong passwords for many names), a health check after each.
  for (let wave = 0; wave < 20; wave++) {
    const batch = await Promise.all(Array.from({ length: 50 }, (_, i) =>
      t.req("POST", "/api/v1/user/login", { body: { username: `guess-${wave}-${i}`, password: "wrong-password" }, headers: { "x-forwarded-for": ip } })));
    for (const r of batch) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    const started = performance.now();
    const h = await t.req("GET", "/healthz");
    health.push(performance.now() - started);
    expect(h.status).toBe(200);
  }
  expect(statuses.get(429)).toBe(980);
  expect(statuses.get(401)).toBe(20);
  const limited = await t.req("POST", "/api/v1/user/login", { body: { username: ROOT.username, password: ROOT.password }, headers: { "x-forwarded-for": ip } });
  expect(limited.body.message).toBe("登录尝试过于频繁，请 15 分钟后再试");
  // Password hashing runs off the event loop: health checks never queue behind it.
  health.sort((a, b) => a - b);
  expect(health[health.length - 1]!).toBeLessThan(250);
  // Another address is unaffected.
  expect((await t.req("POST", "/api/v1/user/login", { body: { username: ROOT.username, password: ROOT.password }, headers: { "x-forwarded-for": "192.0.2.78" } })).status).toBe(200);
}, 60_000);

test("health answers while 20 slow password checks are in flight", async () => {
  resetAll();
  const inflight = Promise.all(Array.from({ length: 20 }, (_, i) =>
    t.req("POST", "/api/v1/user/login", { body: { username: ROOT.username, password: `wrong-${i}` }, headers: { "x-forwarded-for": `192.0.2.${100 + i}` } })));
  const started = performance.now();
  expect((await t.req("GET", "/healthz")).status).toBe(200);
  expect(performance.now() - started).toBeLessThan(250);
  await inflight;
}, 60_000);
