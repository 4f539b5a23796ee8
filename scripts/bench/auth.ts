// Accounts numbers (issue 3): argon2id login cost on this machine, and what a session costs a
// request. One run, loopback only, bounded durations.
import { closeDatabase, configureDatabase, openDatabase } from "#db/client.ts";
import { createSession, lookupSession } from "#src/features/auth/sessions.ts";
import { hashPassword, verifyPassword } from "#src/features/auth/passwords.ts";
import { getDb } from "#db/client.ts";
import { user } from "#db/schema/users.ts";
import { join } from "node:path";
import { fmt, loadRun, login, prepareDirs, printMachine, saveResult, startServer, verdict } from "./lib.ts";

printMachine();

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

// 1. argon2id verify: p50 of one login check, and checks per second with both cores busy.
const hash = await hashPassword("bench-password-123");
const single: number[] = [];
for (let i = 0; i < 30; i++) {
  const t0 = performance.now();
  await verifyPassword("bench-password-123", hash);
  single.push(performance.now() - t0);
}
let verified = 0;
const until = performance.now() + 3000;
await Promise.all(Array.from({ length: 4 }, async () => {
  while (performance.now() < until) {
    await verifyPassword("bench-password-123", hash);
    verified++;
  }
}));
const loginsPerSec = verified / 3;

// 2. Session lookup in-process on a database holding 10,000 sessions.
const dirs = await prepareDirs({ seed: true });
configureDatabase(() => openDatabase(join(dirs.dataDir, "lookup.db")));
const u = getDb().insert(user).values({ username: "bench", password: hash }).returning().get();
const tokens = Array.from({ length: 10_000 }, () => createSession(u.id).token);
const lookups: number[] = [];
for (let i = 0; i < 20_000; i++) {
  const t0 = performance.now();
  lookupSession(tokens[i % tokens.length]!);
  lookups.push(performance.now() - t0);
}
closeDatabase();

// 3. Over HTTP: the same small API answer with and without a bearer session.
const server = await startServer(dirs);
const token = await login(server.url);
const anon = await loadRun(`${server.url}/api/v1/settings`, { connections: 16, durationMs: 3000 });
const authed = await loadRun(`${server.url}/api/v1/settings`, { connections: 16, durationMs: 3000, headers: { authorization: `Bearer ${token}` } });
const e2eLogin: number[] = [];
for (let i = 0; i < 5; i++) {
  const t0 = performance.now();
  await login(server.url);
  e2eLogin.push(performance.now() - t0);
}
await server.stop();
dirs.cleanup();

console.log(`
argon2id verify (m=19 MiB, t=2, p=1)        p50 ${fmt(pct(single, 50), 1)} ms   p99 ${fmt(pct(single, 99), 1)} ms
login checks per second (4 in flight, 3 s)     ${fmt(loginsPerSec, 1)}/s
POST /api/v1/user/login end to end            p50 ${fmt(pct(e2eLogin, 50), 1)} ms (5 logins)
session lookup in-process (10k sessions)      p50 ${fmt(pct(lookups, 50) * 1000, 1)} µs   p99 ${fmt(pct(lookups, 99) * 1000, 1)} µs
GET /api/v1/settings anonymous                 ${fmt(anon.rps)} req/s   p50 ${fmt(anon.p50, 2)} ms
GET /api/v1/settings with a session            ${fmt(authed.rps)} req/s   p50 ${fmt(authed.p50, 2)} ms
session overhead at p50 over HTTP              ${fmt(authed.p50 - anon.p50, 3)} ms`);

const ok = verdict([
  { target: "session lookup overhead < 1 ms p50 (in-process)", value: `${fmt(pct(lookups, 50) * 1000, 1)} µs`, ok: pct(lookups, 50) < 1 },
  { target: "session overhead < 1 ms p50 (HTTP, with vs without)", value: `${fmt(authed.p50 - anon.p50, 3)} ms`, ok: authed.p50 - anon.p50 < 1 },
]);
saveResult("auth", {
  argon2id_ms: { p50: pct(single, 50), p99: pct(single, 99) }, logins_per_s: loginsPerSec, login_http_ms_p50: pct(e2eLogin, 50),
  session_lookup_us: { p50: pct(lookups, 50) * 1000, p99: pct(lookups, 99) * 1000 },
  settings_anonymous: { rps: anon.rps, p50: anon.p50, p95: anon.p95, p99: anon.p99 }, settings_with_session: { rps: authed.rps, p50: authed.p50, p95: authed.p95, p99: authed.p99 },
});
process.exitCode = ok ? 0 : 1;
