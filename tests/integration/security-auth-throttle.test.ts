// Issue 13 items 2 and 3: the login throttle may slow a guesser, never lock the owner out from a
// new address; it counts failures only, per (account, address) and per address, with growing
// waits, in SQLite so a restart does not reset it. Plus the dashboard's TRUST_PROXY warning.
import { describe, expect, test } from "bun:test";
import { configureDatabase, getSqlite, handle, openDatabase } from "#db/client.ts";
import { createApp } from "#src/app.ts";
import { env } from "#src/env.ts";
import { addressKey, beginLoginAttempt, loginSucceeded, THROTTLE } from "#src/features/auth/throttle.ts";
import { clearProxyObservation } from "#src/http/context.ts";
import { resetAll } from "#src/lib/rateLimit.ts";
import { ROOT, setupTestApp } from "../helpers/testApp.ts";

const t = setupTestApp();
async function login(username: string, password: string, ip: string, app = t.app) {
  const r = await app.request("/api/v1/user/login", { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": ip }, body: JSON.stringify({ username, password }) });
  return { status: r.status, body: (await r.json()) as { message?: string }, res: r };
}

describe("no lock-out of the owner", () => {
  test("11 wrong passwords for the root from one address: the right one from another address signs in", async () => {
    resetAll();
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push((await login(ROOT.username, `wrong-${i}`, "198.51.100.66")).status);
    // 5 are tried, then the pair (root, that address) waits: 30 s after the fifth failure.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429, 429, 429]);
    expect((await login(ROOT.username, ROOT.password, "198.51.100.66")).status).toBe(429);
    expect((await login(ROOT.username, ROOT.password, "203.0.113.7")).status).toBe(200);
  });

  test("attempts on alice do not touch ALICE (a different account) even from the same address", async () => {
    resetAll();
    await t.createUser("alice", { password: "alice-pass-1" });
    await t.createUser("ALICE", { password: "ALICE-pass-1" });
    for (let i = 0; i < 6; i++) await login("alice", `wrong-${i}`, "198.51.100.70");
    expect((await login("alice", "alice-pass-1", "198.51.100.70")).status).toBe(429);
    expect((await login("ALICE", "ALICE-pass-1", "198.51.100.70")).status).toBe(200);
  });

  test("many addresses guessing one account never close it for a fresh address", async () => {
    resetAll();
    for (let i = 0; i < 40; i++) await login(ROOT.username, `wrong-${i}`, `192.0.2.${i + 1}`);
    expect((await login(ROOT.username, ROOT.password, "192.0.2.200")).status).toBe(200);
  });
});

describe("only failures count", () => {
  test("30 correct logins from one address all succeed", async () => {
    resetAll();
    for (let i = 0; i < 30; i++) expect((await login(ROOT.username, ROOT.password, "198.51.100.80")).status).toBe(200);
  }, 30_000);

  test("a real login does not wash an address: 19 failures, a success, 1 failure → closed", async () => {
    resetAll();
    const ip = "198.51.100.81";
    for (let i = 0; i < 19; i++) expect((await login(`nobody-${i}`, "wrong-password", ip)).status).toBe(401);
    expect((await login(ROOT.username, ROOT.password, ip)).status).toBe(200);
    expect((await login("nobody-x", "wrong-password", ip)).status).toBe(401);
    const closed = await login(ROOT.username, ROOT.password, ip);
    expect(closed.status).toBe(429);
    expect(closed.body.message).toBe("登录尝试过于频繁，请 15 分钟后再试");
  }, 30_000);

  test("a success at an address clears that account's pair there", async () => {
    resetAll();
    const ip = "198.51.100.82";
    for (let i = 0; i < 4; i++) await login(ROOT.username, `wrong-${i}`, ip);
    expect((await login(ROOT.username, ROOT.password, ip)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await login(ROOT.username, `wrong-${i}`, ip)).status).toBe(401);
    expect((await login(ROOT.username, ROOT.password, ip)).status).toBe(200);
  });
});

describe("growing waits", () => {
  test("(account, address): 5 free, then 30 s, 60 s, 120 s … at most an hour", () => {
    resetAll();
    let now = 1_000_000;
    for (let i = 0; i < 4; i++) beginLoginAttempt("u1", "192.0.2.9", now);
    const waits: number[] = [];
    for (let i = 0; i < 10; i++) {
      beginLoginAttempt("u1", "192.0.2.9", now);
      const row = getSqlite().query("SELECT blocked_until FROM login_throttle WHERE key = 'pair:u1|192.0.2.9'").get() as { blocked_until: number };
      waits.push(row.blocked_until - now);
      expect(() => beginLoginAttempt("u1", "192.0.2.9", row.blocked_until - 1)).toThrow("登录尝试过于频繁");
      now = row.blocked_until;
    }
    expect(waits.map((w) => w / 1000)).toEqual([30, 60, 120, 240, 480, 960, 1920, 3600, 3600, 3600]);
  });

  test("address: 20 free, then 15 min, 30 min, 1 h …", () => {
    resetAll();
    let now = 5_000_000;
    for (let i = 0; i < 19; i++) beginLoginAttempt(`n:x${i}`, "192.0.2.10", now);
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      beginLoginAttempt(`n:y${i}`, "192.0.2.10", now);
      const row = getSqlite().query("SELECT blocked_until FROM login_throttle WHERE key = 'ip:192.0.2.10'").get() as { blocked_until: number };
      waits.push((row.blocked_until - now) / 60_000);
      now = row.blocked_until;
    }
    expect(waits).toEqual([15, 30, 60]);
    // A day without failures forgets it.
    expect(() => beginLoginAttempt("n:z", "192.0.2.10", now + THROTTLE.forgetMs + 1)).not.toThrow();
  });

  test("a success undoes only its own charge", () => {
    resetAll();
    const a = beginLoginAttempt("u7", "192.0.2.11", 10_000);
    loginSucceeded(a);
    const rows = getSqlite().query("SELECT key, failures, blocked_until FROM login_throttle ORDER BY key").all();
    expect(rows).toEqual([{ key: "ip:192.0.2.11", failures: 0, blocked_until: 0 }]);
  });

  test("IPv6 addresses count per /64; IPv4-mapped ones as IPv4", () => {
    expect(addressKey("2001:db8:1:2:aaaa::1")).toBe(addressKey("2001:DB8:1:2:bbbb:cccc:dddd:2"));
    expect(addressKey("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8:1:3::1")).not.toBe(addressKey("2001:db8:1:2::1"));
    expect(addressKey("::ffff:192.0.2.1")).toBe("192.0.2.1");
  });
});

describe("persisted", () => {
  test("counters live in SQLite: a restart (database reopened, new app) keeps the address closed", async () => {
    resetAll();
    const ip = "198.51.100.90";
    for (let i = 0; i < 5; i++) await login(ROOT.username, `wrong-${i}`, ip);
    expect((await login(ROOT.username, ROOT.password, ip)).status).toBe(429);
    const file = handle().file;
    configureDatabase(() => openDatabase(file));
    const restarted = createApp();
    expect((await login(ROOT.username, ROOT.password, ip, restarted)).status).toBe(429);
    expect((await login(ROOT.username, ROOT.password, "198.51.100.91", restarted)).status).toBe(200);
  });
});

describe("TRUST_PROXY warning", () => {
  test("the dashboard warns once X-Forwarded-For arrived while TRUST_PROXY is off", async () => {
    const dashboard = () => t.req("GET", "/admin", { token: t.rootToken, headers: { accept: "text/html" } });
    const trusted = env.trustProxy;
    clearProxyObservation();
    try {
      env.trustProxy = false;
      expect((await dashboard()).text).not.toContain("TRUST_PROXY");
      await t.req("GET", "/healthz", { headers: { "x-forwarded-for": "203.0.113.9" } });
      const page = await dashboard();
      expect(page.status).toBe(200);
      expect(page.text).toContain("未设置 TRUST_PROXY=1");
      // With the proxy trusted the header is expected: no warning is recorded.
      clearProxyObservation();
      env.trustProxy = true;
      await t.req("GET", "/healthz", { headers: { "x-forwarded-for": "203.0.113.9" } });
      expect((await dashboard()).text).not.toContain("TRUST_PROXY");
    } finally {
      env.trustProxy = trusted;
      clearProxyObservation();
    }
  });
});
