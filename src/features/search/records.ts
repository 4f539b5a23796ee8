// Search records: every search is logged, but never on the request path. Rows are buffered in
// memory and written in one transaction per second (or per 1,000 rows, or at exit). Under load a
// transaction's commit, not its inserts, was most of a flush: 1,000 rows a commit rather than 200 took
// /search served from the page cache from 18.9 to 17.8 µs a request for a member (in-process).
import type { Statement } from "bun:sqlite";
import { and, desc, eq, gt, gte, inArray, lt, lte, sql, type SQL } from "drizzle-orm";
import { getDb, handle, type DbHandle } from "#db/client.ts";
import { searchRecord } from "#db/schema/search.ts";
import { user } from "#db/schema/users.ts";
import { setting } from "#src/features/settings/service.ts";
import { log } from "#src/http/requestLog.ts";

export interface SearchRecordInput {
  keywords: string;
  /** 0 documents, 1 articles */
  type: number;
  total: number;
  page: number;
  spend_ms: number;
  user_id?: number | null;
  ip?: string | null;
  user_agent?: string | null;
}

type Row = typeof searchRecord.$inferInsert;

const FLUSH_MS = 1000;
const FLUSH_ROWS = 1000;
// A database that stays unavailable must not grow the buffer without bound.
const MAX_BUFFER = 10_000;

let buffer: Row[] = [];
let timer: Timer | null = null;
// The database the buffered rows belong to: when tests switch databases, rows never land in the
// next one (a closed handle makes the flush fail and the rows are dropped).
let target: DbHandle | null = null;

const int = (v: unknown, min = 0) => {
  const n = Math.trunc(Number(v));
  return Number.isFinite(n) ? Math.max(min, n) : min;
};

/** Queues one search for logging; returns at once and never throws. */
export function recordSearch(input: SearchRecordInput): void {
  try {
    const keywords = String(input.keywords ?? "").trim().slice(0, 64);
    if (!keywords) return;
    if (buffer.length >= MAX_BUFFER) return;
    // Rows buffered for another database (a test that switched databases) are never written here.
    const into = handle();
    if (buffer.length && target !== into) buffer = [];
    if (!buffer.length) target = into;
    buffer.push({
      keywords,
      type: int(input.type) === 1 ? 1 : 0,
      total: int(input.total),
      page: int(input.page, 1),
      spend_ms: int(input.spend_ms),
      user_id: int(input.user_id),
      ip: String(input.ip ?? "").slice(0, 64),
      user_agent: String(input.user_agent ?? "").slice(0, 255),
      created_at: Date.now(),
    });
    if (buffer.length >= FLUSH_ROWS) queueMicrotask(flushSearchRecords);
    else if (!timer) {
      timer = setTimeout(flushSearchRecords, FLUSH_MS);
      // A pending flush alone must not keep a script or test process alive.
      timer.unref?.();
    }
  } catch (err) {
    log("warn", "search record dropped", { error: String(err) });
  }
}

/** Writes buffered rows in one transaction; returns how many were written. */
export function flushSearchRecords(): number {
  if (timer) clearTimeout(timer);
  timer = null;
  if (!buffer.length) return 0;
  const rows = buffer;
  const into = target;
  buffer = [];
  target = null;
  try {
    if (!into) return 0;
    // One prepared insert per row: drizzle rebuilt a 100-row statement each time (the flush ran
    // ~40 times a second under load, a few % of the CPU of a /search served from the page cache).
    const insert = insertOf(into);
    into.sqlite.transaction(() => {
      for (const r of rows) insert.run(r.keywords, r.type ?? 0, r.total ?? 0, r.page ?? 1, r.spend_ms ?? 0, r.user_id ?? 0, r.ip ?? "", r.user_agent ?? "", r.created_at ?? Date.now());
    })();
    return rows.length;
  } catch (err) {
    // Losing a second of search statistics beats failing or blocking searches.
    log("warn", "search records not written", { count: rows.length, error: String(err) });
    return 0;
  }
}

const inserts = new WeakMap<DbHandle, Statement>();
function insertOf(h: DbHandle): Statement {
  let st = inserts.get(h);
  if (!st) {
    st = h.sqlite.query("INSERT INTO search_record (keywords, type, total, page, spend_ms, user_id, ip, user_agent, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    inserts.set(h, st);
  }
  return st;
}

/** Rows waiting in memory (tests, status). */
export const pendingSearchRecords = () => buffer.length;

/** Drops buffered rows without writing them (tests switching databases). */
export function discardSearchRecords() {
  if (timer) clearTimeout(timer);
  timer = null;
  buffer = [];
  target = null;
}

process.on("beforeExit", () => flushSearchRecords());
process.on("exit", () => flushSearchRecords());

// drizzle's bun-sqlite driver types run() as void, but it returns bun:sqlite's Changes.
const changes = (res: unknown) => (res as { changes: number }).changes;

/** Deletes records older than security.search_record_retention_days; returns the count. */
export function purgeSearchRecords(now = Date.now()): number {
  const days = Math.max(1, Number(setting<number>("security", "search_record_retention_days")) || 90);
  return changes(getDb().delete(searchRecord).where(lt(searchRecord.created_at, now - days * 86_400_000)).run());
}

export interface SearchRecordFilter {
  keyword?: string;
  type?: number;
  /** true: only searches that found nothing; false: only those that found something */
  zero?: boolean;
  start?: number;
  end?: number;
  page: number;
  size: number;
}

/** Admin listing, newest first, with the searching user's name. */
export function listSearchRecords(f: SearchRecordFilter) {
  flushSearchRecords();
  const where: SQL[] = [];
  const kw = f.keyword?.trim();
  if (kw) where.push(sql`instr(${searchRecord.keywords}, ${kw}) > 0`);
  if (f.type === 0 || f.type === 1) where.push(eq(searchRecord.type, f.type));
  if (f.zero === true) where.push(eq(searchRecord.total, 0));
  if (f.zero === false) where.push(gt(searchRecord.total, 0));
  if (f.start) where.push(gte(searchRecord.created_at, f.start));
  if (f.end) where.push(lte(searchRecord.created_at, f.end));
  const cond = where.length ? and(...where) : undefined;
  const db = getDb();
  const total = db.select({ n: sql<number>`count(*)` }).from(searchRecord).where(cond).get()!.n;
  const rows = db
    .select({
      id: searchRecord.id, keywords: searchRecord.keywords, type: searchRecord.type, total: searchRecord.total,
      page: searchRecord.page, spend_ms: searchRecord.spend_ms, user_id: searchRecord.user_id,
      username: sql<string | null>`${user.username}`, ip: searchRecord.ip, user_agent: searchRecord.user_agent,
      created_at: searchRecord.created_at,
    })
    .from(searchRecord)
    .leftJoin(user, eq(user.id, searchRecord.user_id))
    .where(cond)
    .orderBy(desc(searchRecord.created_at), desc(searchRecord.id))
    .limit(f.size)
    .offset((f.page - 1) * f.size)
    .all();
  return { total, search_record: rows.map((r) => ({ ...r, username: r.username ?? "" })) };
}

export function deleteSearchRecords(ids: number[]): number {
  if (!ids.length) return 0;
  flushSearchRecords();
  return changes(getDb().delete(searchRecord).where(inArray(searchRecord.id, ids)).run());
}

export interface QueryCount { keywords: string; count: number }

/** Most searched queries (and, with zero, the ones that found nothing) since `since`. */
export function topSearches(opts: { since: number; zero?: boolean; limit?: number }): QueryCount[] {
  flushSearchRecords();
  const cond = opts.zero ? and(gte(searchRecord.created_at, opts.since), eq(searchRecord.total, 0)) : gte(searchRecord.created_at, opts.since);
  return getDb()
    .select({ keywords: searchRecord.keywords, count: sql<number>`count(*)` })
    .from(searchRecord)
    .where(cond)
    .groupBy(searchRecord.keywords)
    .orderBy(desc(sql`count(*)`), searchRecord.keywords)
    .limit(opts.limit ?? 10)
    .all();
}

/** The dashboard's search panel: last 7 days. */
export function searchStats(now = Date.now()) {
  const since = now - 7 * 86_400_000;
  return { top: topSearches({ since }), zero: topSearches({ since, zero: true }) };
}
