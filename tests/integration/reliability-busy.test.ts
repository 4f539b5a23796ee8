// Issue 13 item 5: another process holding SQLite's write lock must not freeze the server.
// A real server process (src/server.ts, job worker included) on a temp DATA_DIR; a second process
// opens the same file and holds BEGIN IMMEDIATE + a write for ~5 s. Meanwhile reads (/healthz,
// a rendered page, an API read) stay fast and a write API answers a Chinese 503 within a second.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";

const root = join(import.meta.dir, "../..");
const dataDir = mkdtempSync(join(tmpdir(), "wk-busy-"));
const dbFile = join(dataDir, "wenku.db");
const port = 20000 + Math.floor(Math.random() * 20000);
const base = `http://127.0.0.1:${port}`;
let server: Subprocess | null = null;
let token = "";

async function waitFor(url: string, ms = 20_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await Bun.sleep(50);
  }
  throw new Error(`server did not answer ${url}`);
}

beforeAll(async () => {
  server = Bun.spawn(["bun", "src/server.ts"], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "test", DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "silent", ADMIN_USERNAME: "admin", ADMIN_PASSWORD: "admin-pass-123" },
    stdout: "ignore", stderr: "inherit",
  });
  await waitFor(`${base}/healthz`);
  const login = await fetch(`${base}/api/v1/user/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: "admin", password: "admin-pass-123" }) });
  const body = (await login.json()) as { token?: string };
  token = body.token ?? "";
  expect(token).not.toBe("");
}, 30_000);

afterAll(async () => {
  server?.kill();
  await server?.exited;
  rmSync(dataDir, { recursive: true, force: true });
});

/** Another process that takes the write lock, writes, holds it for `ms`, then commits. */
async function holdWriteLock(ms: number) {
  const script = `
    const { Database } = require("bun:sqlite");
    const db = new Database(${JSON.stringify(dbFile)});
    db.exec("PRAGMA busy_timeout = 5000");
    db.exec("BEGIN IMMEDIATE");
    db.exec("INSERT INTO jobs (kind, payload) VALUES ('test.lock', '{}')");
    console.log("locked");
    await Bun.sleep(${ms});
    db.exec("COMMIT");
    console.log("released");
  `;
  const p = Bun.spawn(["bun", "-e", script], { stdout: "pipe", stderr: "inherit" });
  const reader = p.stdout.getReader();
  let seen = "";
  while (!seen.includes("locked")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("lock holder exited early");
    seen += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return p;
}

async function timed(path: string, init: RequestInit = {}) {
  const t0 = performance.now();
  const res = await fetch(`${base}${path}`, init);
  const text = await res.text();
  return { ms: performance.now() - t0, status: res.status, text };
}

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.95) - 1]!;

test("while another process holds the write lock, reads stay fast and a write answers 503 quickly", async () => {
  const auth = { authorization: `Bearer ${token}` };
  // Warm up each path once (first render compiles, first query prepares).
  await timed("/healthz");
  await timed("/", { headers: { ...auth, accept: "text/html" } });
  await timed("/api/v1/settings");

  const holder = await holdWriteLock(5_000);
  const started = Date.now();
  const times: Record<string, number[]> = { healthz: [], page: [], api: [] };
  let write: Awaited<ReturnType<typeof timed>> | null = null;
  try {
    while (Date.now() - started < 3_500) {
      const h = await timed("/healthz");
      const p = await timed("/", { headers: { ...auth, accept: "text/html" } });
      const a = await timed("/api/v1/settings");
      expect([h.status, p.status, a.status]).toEqual([200, 200, 200]);
      times.healthz!.push(h.ms);
      times.page!.push(p.ms);
      times.api!.push(a.ms);
      if (!write && Date.now() - started > 1_000) write = await timed("/api/v1/user/sign", { method: "PUT", headers: auth });
      await Bun.sleep(20);
    }
    expect(Date.now() - started).toBeLessThan(4_900); // the lock was still held throughout
  } finally {
    await holder.exited;
  }
  const summary = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, { n: v.length, p95: Math.round(p95(v)), max: Math.round(Math.max(...v)) }]));
  console.log("under an outside write lock:", JSON.stringify(summary), "write:", write && Math.round(write.ms), "ms", write?.status);
  for (const v of Object.values(times)) expect(p95(v)).toBeLessThan(100);
  expect(write).not.toBeNull();
  expect(write!.status).toBe(503);
  expect(write!.ms).toBeLessThan(1_000);
  expect(JSON.parse(write!.text)).toEqual({ code: "busy", message: "系统繁忙，请稍后重试" });

  // Once the lock is gone, the same write goes through.
  const after = await timed("/api/v1/user/sign", { method: "PUT", headers: auth });
  expect(after.status).toBe(200);
}, 30_000);

test("the lock holder really wrote (the database is shared, not copied)", () => {
  const db = new Database(dbFile, { readonly: true });
  try {
    expect((db.query("SELECT COUNT(*) AS n FROM jobs WHERE kind = 'test.lock'").get() as { n: number }).n).toBe(1);
  } finally {
    db.close();
  }
});
