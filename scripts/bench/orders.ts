// Orders benchmark (commerce issue), in one process against a fresh temp database: the app through
// app.request() (no sockets, so the numbers are ours), the WeChat Pay simulator on loopback.
//   · orders created per second: POST /api/v1/order (recharge) by many members, 16 in flight
//   · notify handling: POST /api/v1/payment/notify/wechatpay with the simulator's signed, encrypted
//     notifications (built beforehand), p50 / p99, each one paying an order and crediting it
//   · notification → GET /order/status answering paid (what the order page's poll sees)
// Prints a table, then one JSON line with the numbers, then the verdict.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fmt, printMachine, table, verdict } from "./lib.ts";

printMachine();

process.env.LOG_LEVEL ??= "warn";
const { closeDatabase, configureDatabase, getDb, openDatabase } = await import("#db/client.ts");
const { user } = await import("#db/schema/users.ts");
const { createApp } = await import("#src/app.ts");
const { createSession } = await import("#src/features/auth/sessions.ts");
const { updateConfig } = await import("#src/features/settings/service.ts");
const { startFakeWechatPay } = await import("../../tests/helpers/fakeWechatPay.ts");

const MEMBERS = 800;
const CREATE_MS = 3000;
const IN_FLIGHT = 16;
const NOTIFIES = 300;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

const dir = mkdtempSync(join(tmpdir(), "wk-bench-orders-"));
configureDatabase(() => openDatabase(join(dir, "wenku.db")));
const wx = await startFakeWechatPay();
try {
  updateConfig([
    ...wx.config(),
    ...Object.entries({ enable: true, credit_exchange: 10, recharge_discount: "100:0.95\n500:0.9" }).map(([name, value]) => ({ category: "recharge", name, value })),
  ]);
  const app = createApp();
  // Members straight into the table (no password hashing: they sign in with sessions).
  const tokens = Array.from({ length: MEMBERS }, (_, i) => {
    const u = getDb().insert(user).values({ username: `bench_buyer_${i}`, password: "-" }).returning({ id: user.id }).get();
    return createSession(u.id).token;
  });
  const call = async (method: string, path: string, token?: string, body?: unknown) => {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await app.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json().catch(() => null)) as any };
  };

  // 1. Orders created per second.
  let created = 0;
  let failed = 0;
  let next = 0;
  const createLat: number[] = [];
  const started = performance.now();
  const end = started + CREATE_MS;
  await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
    while (performance.now() < end) {
      const token = tokens[next++ % tokens.length]!;
      const t0 = performance.now();
      const r = await call("POST", "/api/v1/order", token, { order_type: 3, quantity: 1000 });
      createLat.push(performance.now() - t0);
      if (r.status === 200) created++;
      else failed++;
    }
  }));
  const createdPerSec = created / ((performance.now() - started) / 1000);

  // 2. Orders started at the simulator, then one signed notification each, timed through the app.
  const orders: { no: string; token: string }[] = [];
  for (let i = 0; i < NOTIFIES; i++) {
    const token = tokens[i % tokens.length]!;
    const c = await call("POST", "/api/v1/order", token, { order_type: 3, quantity: 100 });
    const p = await call("POST", "/api/v1/order/pay", token, { order_no: c.body.order_no, payment_type: 1 });
    if (p.status !== 200) throw new Error(`pay failed: ${p.status} ${JSON.stringify(p.body)}`);
    orders.push({ no: c.body.order_no, token });
  }
  const requests = orders.map((o) => ({ ...o, req: wx.notifyRequest(o.no) }));
  const notifyLat: number[] = [];
  const toPaid: number[] = [];
  let accepted = 0;
  for (const r of requests) {
    const t0 = performance.now();
    const res = await app.request("/api/v1/payment/notify/wechatpay", { method: "POST", headers: r.req.headers, body: r.req.body });
    await res.arrayBuffer();
    const t1 = performance.now();
    if (res.status < 300) accepted++;
    const s = await call("GET", `/api/v1/order/status?order_no=${r.no}`, r.token);
    if (s.body?.status === 2) toPaid.push(performance.now() - t0);
    notifyLat.push(t1 - t0);
  }

  console.log(`machine: ${navigator.hardwareConcurrency} cores · ${MEMBERS} members · in-process app.request, WeChat Pay simulator on loopback`);
  table(["", "count", "rate / p50", "p99"], [
    ["POST /order (recharge), 16 in flight", String(created), `${fmt(createdPerSec)} /s`, `${fmt(pct(createLat, 99), 2)} ms`],
    ["POST /payment/notify/wechatpay", `${accepted}/${NOTIFIES}`, `${fmt(pct(notifyLat, 50), 2)} ms`, `${fmt(pct(notifyLat, 99), 2)} ms`],
    ["notification → status shows paid", `${toPaid.length}/${NOTIFIES}`, `${fmt(pct(toPaid, 50), 2)} ms`, `${fmt(pct(toPaid, 99), 2)} ms`],
  ]);
  const summary = {
    bench: "orders", orders_created: created, orders_failed: failed, orders_per_sec: Math.round(createdPerSec),
    notify_count: NOTIFIES, notify_accepted: accepted, notify_p50_ms: +pct(notifyLat, 50).toFixed(3), notify_p99_ms: +pct(notifyLat, 99).toFixed(3),
    notify_to_paid_p50_ms: +pct(toPaid, 50).toFixed(3),
  };
  console.log(JSON.stringify(summary));
  const ok = verdict([
    { target: "orders created ≥ 300/s (in-process)", value: `${fmt(createdPerSec)}/s`, ok: createdPerSec >= 300 && failed === 0 },
    { target: "every notification accepted, credited once", value: `${accepted}/${NOTIFIES}`, ok: accepted === NOTIFIES && toPaid.length === NOTIFIES },
    { target: "notify handling p99 < 50 ms", value: `${fmt(pct(notifyLat, 99), 2)} ms`, ok: pct(notifyLat, 99) < 50 },
  ]);
  process.exitCode = ok ? 0 : 1;
} finally {
  wx.stop();
  closeDatabase();
  rmSync(dir, { recursive: true, force: true });
}
