import { eq, lt, sql } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { session, user } from "#db/schema/users.ts";

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

// Prepared once per database: the lookup runs on every request that carries a token.
const lookups = new WeakMap<object, ReturnType<typeof prepareLookup>>();
function prepareLookup() {
  return getDb()
    .select({ session_id: session.id, id: user.id, username: user.username, avatar: user.avatar, is_root: user.is_root, status: user.status, vip_until: user.vip_until, expires_at: session.expires_at })
    .from(session)
    .innerJoin(user, eq(user.id, session.user_id))
    .where(eq(session.token_hash, sql.placeholder("h")))
    .prepare();
}

export function lookupSession(token: string): (SessionUser & { session_id: number }) | null {
  if (!token || token.length > 128) return null;
  const db = getDb();
  let stmt = lookups.get(db);
  if (!stmt) lookups.set(db, (stmt = prepareLookup()));
  const row = stmt.get({ h: sha256(token) });
  if (!row || row.expires_at <= Date.now()) return null;
  const { expires_at: _e, vip_until, ...rest } = row;
  return { ...rest, is_vip: vip_until !== null && vip_until > Date.now() };
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
