import { eq, lt } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { loginThrottle } from "#db/schema/throttle.ts";
import { AppError } from "#src/lib/errors.ts";
import { onResetAll } from "#src/lib/rateLimit.ts";

// Password-guessing throttle, counted in SQLite so a restart does not reset an attack.
//
// Only FAILED attempts count, under two keys:
//   pair:<account>|<address>  — the account as tried from one address: 5 failures free, then each
//                               further failure closes that pair for 30 s, 1, 2, 4 … at most 60 min;
//                               a successful sign-in from that address clears it.
//   ip:<address>              — everything tried from one address: 20 failures free, then 15 min,
//                               30 min, 1 h … at most 24 h; successes never clear it (an attacker
//                               with one real account must not be able to wash their address).
// No key is the account alone, so nobody can lock an owner out from an address they never used.
// An attempt is charged before the (slow) password check and refunded when it succeeds, so a burst
// of concurrent guesses cannot slip past the limit while the first ones are still being checked.
// IPv6 addresses count per /64, which one subscriber usually holds whole.

export const THROTTLE = {
  pair: { free: 5, baseMs: 30_000, maxMs: 60 * 60_000 },
  ip: { free: 20, baseMs: 15 * 60_000, maxMs: 24 * 3600_000 },
  /** a counter with no failure for this long starts again from zero */
  forgetMs: 24 * 3600_000,
} as const;

type Rule = { free: number; baseMs: number; maxMs: number };
interface Charged { key: string; prevFailures: number; prevBlocked: number; setBlocked: number; forgetOnSuccess: boolean }
export interface Attempt { charged: Charged[] }

/** The address as counted: IPv4 as is (also when IPv4-mapped), IPv6 by its /64 prefix. */
export function addressKey(ip: string): string {
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (v4) return v4[1]!;
  if (!ip.includes(":")) return ip;
  const [head = "", tail = ""] = ip.toLowerCase().split("%")[0]!.split("::");
  const h = head ? head.split(":") : [];
  const tl = tail ? tail.split(":") : [];
  const full = ip.includes("::") ? [...h, ...Array(Math.max(0, 8 - h.length - tl.length)).fill("0"), ...tl] : h;
  return `${full.slice(0, 4).map((x) => x.replace(/^0+(?=.)/, "")).join(":")}::/64`;
}

const waitText = (ms: number) => (ms >= 60_000 ? `${Math.ceil(ms / 60_000)} 分钟` : `${Math.max(1, Math.ceil(ms / 1000))} 秒`);

function tooSoon(ms: number) {
  const e = new AppError(429, "too_many_requests", `登录尝试过于频繁，请 ${waitText(ms)}后再试`);
  return Object.assign(e, { retryAfterSeconds: Math.ceil(ms / 1000) });
}

const delayFor = (rule: Rule, failures: number) =>
  failures < rule.free ? 0 : Math.min(rule.maxMs, rule.baseMs * 2 ** Math.min(30, failures - rule.free));

/**
 * Call before checking a password. Refuses with 429 (wait time in Chinese) while the account at this
 * address, or the address itself, is closed; otherwise charges one failure under both keys.
 * `account` identifies what was tried: the user's id when it exists, else the name exactly as typed.
 */
export function beginLoginAttempt(account: string, ip: string, now = Date.now()): Attempt {
  const addr = addressKey(ip);
  const keys: [string, Rule, boolean][] = [[`pair:${account}|${addr}`, THROTTLE.pair, true], [`ip:${addr}`, THROTTLE.ip, false]];
  const db = getDb();
  return db.transaction((tx) => {
    const rows = keys.map(([key]) => {
      const r = tx.select().from(loginThrottle).where(eq(loginThrottle.key, key)).get();
      return r && r.updated_at + THROTTLE.forgetMs > now ? r : undefined;
    });
    const wait = Math.max(0, ...rows.map((r) => (r ? r.blocked_until - now : 0)));
    if (wait > 0) throw tooSoon(wait);
    const charged = keys.map(([key, rule, forgetOnSuccess], i) => {
      const prevFailures = rows[i]?.failures ?? 0;
      const prevBlocked = rows[i]?.blocked_until ?? 0;
      const failures = prevFailures + 1;
      const delay = delayFor(rule, failures);
      const blocked = delay ? Math.max(prevBlocked, now + delay) : prevBlocked;
      tx.insert(loginThrottle).values({ key, failures, blocked_until: blocked, updated_at: now })
        .onConflictDoUpdate({ target: loginThrottle.key, set: { failures, blocked_until: blocked, updated_at: now } }).run();
      return { key, prevFailures, prevBlocked, setBlocked: blocked, forgetOnSuccess };
    });
    if (Math.random() < 0.01) tx.delete(loginThrottle).where(lt(loginThrottle.updated_at, now - THROTTLE.forgetMs)).run();
    return { charged };
  }, { behavior: "immediate" });
}

/** The password was right: this attempt was no failure. The account's own pair at this address starts over. */
export function loginSucceeded(attempt: Attempt) {
  const db = getDb();
  db.transaction((tx) => {
    for (const c of attempt.charged) {
      if (c.forgetOnSuccess) {
        tx.delete(loginThrottle).where(eq(loginThrottle.key, c.key)).run();
        continue;
      }
      const r = tx.select().from(loginThrottle).where(eq(loginThrottle.key, c.key)).get();
      if (!r) continue;
      // Undo this attempt's charge; a closure it caused goes, one set by other failures stays.
      const blocked = r.blocked_until === c.setBlocked && c.setBlocked !== c.prevBlocked ? c.prevBlocked : r.blocked_until;
      tx.update(loginThrottle).set({ failures: Math.max(0, r.failures - 1), blocked_until: blocked }).where(eq(loginThrottle.key, c.key)).run();
    }
  }, { behavior: "immediate" });
}

/** Forget every counter (tests, through resetAll; an admin CLI could call it too). */
export function clearLoginThrottle() {
  try {
    getDb().delete(loginThrottle).run();
  } catch {
    // no database configured yet: nothing to forget
  }
}
onResetAll(clearLoginThrottle);
