import { eq, lt } from "drizzle-orm";
import { getDb, getSqlite } from "#db/client.ts";
import { epochMemo } from "#db/epoch.ts";
import { prepared } from "#db/prepared.ts";
import { session } from "#db/schema/users.ts";

export const SESSION_COOKIE = "wk_token";
export const SESSION_TTL_MS = 30 * 86400_000;

export interface SessionUser {
  id: number;
  username: string;
  avatar: string;
  is_root: boolean;
  status: number;
  /** spec §3 is_vip: VIP membership has not ended (user.vip_until in the future); VIPs see no ads */
  is_vip?: boolean;
}

const sha256 = (s: string) => new Bun.CryptoHasher("sha256").update(s).digest("hex");

/** Creates a session and returns the only copy of its token (the table keeps its hash). */
export function createSession(userId: number, ip = "", userAgent = ""): { token: string; expires_at: number } {
  const token = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  const expires_at = Date.now() + SESSION_TTL_MS;
  getDb().insert(session).values({ user_id: userId, token_hash: sha256(token), expires_at, ip, user_agent: userAgent.slice(0, 255) }).run();
  return { token, expires_at };
}

// The lookup runs on every request that carries a token; under load its read (a SQLite read
// transaction) was a third of a signed-in member's server CPU. So rows read by token hash are kept
// per connection while the database cannot have changed them (db/epoch.ts): any write of this
// process (a logout, a disabled or edited account, a new VIP date) is seen by the very next request,
// another process's commit (`bun scripts/admin.ts password` ending sessions) within 100 ms. Expiry
// (of the session and of VIP) is compared with the clock on every request, never kept.
// The user's columns are read by primary key in subqueries rather than through a join: the
// bundled SQLite (3.54) spends ~8 µs more on the two-table join than on these lookups.
type LookupRow = { session_id: number; id: number; username: string | null; avatar: string; is_root: number; status: number; vip_until: number | null; expires_at: number };
const userCol = (c: string) => `(SELECT ${c} FROM user WHERE id = s.user_id) AS ${c}`;
const kept = epochMemo<LookupRow | null>();

/** The session row of a token hash, from the kept rows when nothing can have changed it. */
function sessionRow(hash: string): LookupRow | null {
  const stmt = prepared("session.lookup", () => getSqlite().query<LookupRow, [string]>(
    `SELECT s.id AS session_id, s.user_id AS id, ${["username", "avatar", "is_root", "status", "vip_until"].map(userCol).join(", ")}, s.expires_at FROM session s WHERE s.token_hash = ?`,
  ));
  return kept(hash, () => stmt.get(hash) ?? null);
}

/** The signed-in user of a token (a new object each call), or null. */
export function lookupSession(token: string): (SessionUser & { session_id: number }) | null {
  if (!token || token.length > 128) return null;
  const row = sessionRow(sha256(token));
  const now = Date.now();
  if (!row || row.username === null || row.expires_at <= now) return null;
  return {
    session_id: row.session_id, id: row.id, username: row.username, avatar: row.avatar, is_root: !!row.is_root, status: row.status,
    is_vip: row.vip_until !== null && row.vip_until > now,
  };
}

export function revokeSession(token: string) {
  getDb().delete(session).where(eq(session.token_hash, sha256(token))).run();
}

export function revokeUserSessions(userId: number) {
  getDb().delete(session).where(eq(session.user_id, userId)).run();
}

export function purgeExpiredSessions() {
  getDb().delete(session).where(lt(session.expires_at, Date.now())).run();
}
