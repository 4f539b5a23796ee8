import { and, count, desc, eq, gt, inArray, isNotNull, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import { createdBetween } from "#src/features/admin/crud/service.ts";
import { getDb } from "#db/client.ts";
import { punishment } from "#db/schema/accounts.ts";
import { user } from "#db/schema/users.ts";
import { revokeUserSessions } from "#src/features/auth/sessions.ts";
import { bumpContentVersion } from "#src/lib/contentVersion.ts";
import { badRequest, forbidden, notFound } from "#src/lib/errors.ts";
import { formatDateTime } from "#src/lib/format.ts";
import { BANNED_TEXT, PUNISH } from "./types.ts";

export type PunishmentRow = typeof punishment.$inferSelect;
export interface Actor { id: number; username: string; is_root: boolean }

/** Enabled, started (no start means at once) and not yet ended (no end means permanent). */
const inForce = (now: number) =>
  and(
    eq(punishment.enable, true),
    or(isNull(punishment.start_time), lte(punishment.start_time, now)),
    or(isNull(punishment.end_time), gt(punishment.end_time, now)),
  );

/** The punishments in force for a user right now, newest first; other features check these. */
export function activePunishments(userId: number, now = Date.now()): PunishmentRow[] {
  return getDb().select().from(punishment).where(and(eq(punishment.user_id, userId), inForce(now))).orderBy(desc(punishment.id)).all();
}

export function punishedMessage(p: Pick<PunishmentRow, "type" | "reason" | "end_time">): string {
  const until = p.end_time ? formatDateTime(p.end_time) : "永久";
  return `${BANNED_TEXT[p.type] ?? "您已被限制此操作"}${p.reason ? `：${p.reason}` : ""}，解除时间：${until}`;
}

/** The punishment of a type that lasts longest (permanent ones first). */
function longest(rows: PunishmentRow[], type: number): PunishmentRow | undefined {
  const end = (r: PunishmentRow) => r.end_time ?? Number.MAX_SAFE_INTEGER;
  return rows.filter((r) => r.type === type).sort((a, b) => end(b) - end(a))[0];
}

/** Throws 403 with the reason and release time when a punishment of this type is in force. */
export function assertNotPunished(userId: number, type: number) {
  const p = longest(activePunishments(userId), type);
  if (p) throw forbidden(punishedMessage(p));
}

/** What a disabled account reads at login: the punishment's reason and end when there is one. */
export function disabledMessage(userId: number): string {
  const p = longest(activePunishments(userId), PUNISH.DISABLE);
  return p ? punishedMessage(p) : "账号已被禁用";
}

const disableInForce = (userId: number, now = Date.now()) =>
  !!getDb().select({ id: punishment.id }).from(punishment).where(and(eq(punishment.user_id, userId), eq(punishment.type, PUNISH.DISABLE), inForce(now))).get();

function setStatus(userId: number, status: 0 | 1) {
  getDb().update(user).set({ status, updated_at: Date.now() }).where(eq(user.id, userId)).run();
  if (status === 1) revokeUserSessions(userId);
}

/**
 * Runs a change to one user's punishments in a transaction and keeps user.status in step: a
 * disable in force sets status 1 (and ends sessions); the change that ends the last one sets 0.
 * A manual disable with no punishment behind it is left alone.
 */
function syncingStatus<T>(userId: number, change: () => T): T {
  return getDb().transaction(() => {
    const before = disableInForce(userId);
    const out = change();
    const after = disableInForce(userId);
    const u = getDb().select({ status: user.status }).from(user).where(eq(user.id, userId)).get();
    if (u && after && u.status !== 1) setStatus(userId, 1);
    else if (u && before && !after && u.status === 1) setStatus(userId, 0);
    return out;
  });
}

/**
 * Re-enables an account whose disable punishments have all run out; answers whether it did. The
 * expired rows are switched off so a later manual disable is not undone by them.
 */
export function liftExpiredDisable(userId: number, now = Date.now()): boolean {
  return getDb().transaction(() => {
    const u = getDb().select({ status: user.status }).from(user).where(eq(user.id, userId)).get();
    if (!u || u.status !== 1 || disableInForce(userId, now)) return false;
    const expired = and(eq(punishment.user_id, userId), eq(punishment.type, PUNISH.DISABLE), eq(punishment.enable, true), isNotNull(punishment.end_time), lte(punishment.end_time, now));
    if (!getDb().select({ id: punishment.id }).from(punishment).where(expired).get()) return false;
    getDb().update(punishment).set({ enable: false, updated_at: now }).where(expired).run();
    setStatus(userId, 0);
    return true;
  });
}

/** The periodic job: lifts expired disables and applies ones whose start time has come. */
export function syncDisabledAccounts(now = Date.now()): { lifted: number; applied: number } {
  const db = getDb();
  const expiredUsers = db.selectDistinct({ id: punishment.user_id }).from(punishment).innerJoin(user, eq(user.id, punishment.user_id))
    .where(and(eq(user.status, 1), eq(punishment.type, PUNISH.DISABLE), eq(punishment.enable, true), isNotNull(punishment.end_time), lte(punishment.end_time, now))).all();
  let lifted = 0;
  for (const u of expiredUsers) if (liftExpiredDisable(u.id, now)) lifted++;
  const due = db.selectDistinct({ id: punishment.user_id }).from(punishment).innerJoin(user, eq(user.id, punishment.user_id))
    .where(and(eq(user.status, 0), eq(punishment.type, PUNISH.DISABLE), inForce(now))).all();
  for (const u of due) setStatus(u.id, 1);
  return { lifted, applied: due.length };
}

/** An admin re-enabling an account ends the disable punishments in force on it. */
export function endDisablePunishments(userId: number) {
  const now = Date.now();
  getDb().update(punishment).set({ enable: false, updated_at: now })
    .where(and(eq(punishment.user_id, userId), eq(punishment.type, PUNISH.DISABLE), inForce(now))).run();
}

export interface PunishmentInput {
  user_id: number;
  type: number[];
  enable?: boolean;
  reason?: string;
  remark?: string;
  start_time?: number | null;
  end_time?: number | null;
}
export type PunishmentPatch = Partial<Omit<PunishmentInput, "user_id" | "type">>;

function checkWindow(start: number | null, end: number | null) {
  if (start !== null && end !== null && end <= start) throw badRequest("结束时间必须晚于开始时间");
}

const addOperator = (list: string, name: string) => [...new Set([...list.split(",").filter(Boolean), name])].join(",").slice(-255);

export function createPunishments(input: PunishmentInput, actor: Actor): PunishmentRow[] {
  const target = getDb().select({ id: user.id, is_root: user.is_root }).from(user).where(eq(user.id, input.user_id)).get();
  if (!target) throw notFound("用户不存在");
  if (target.is_root) throw badRequest("不能处罚超级管理员");
  if (target.id === actor.id) throw badRequest("不能处罚自己");
  const now = Date.now();
  const start = input.start_time ?? now;
  const end = input.end_time ?? null;
  if (end !== null && end <= now) throw badRequest("结束时间必须晚于当前时间");
  checkWindow(start, end);
  const rows = syncingStatus(target.id, () => [...new Set(input.type)].map((type) => getDb().insert(punishment).values({
    user_id: target.id, type, enable: input.enable ?? true, reason: input.reason ?? "", remark: input.remark ?? "", start_time: start, end_time: end, operators: actor.username,
  }).returning().get()));
  bumpContentVersion();
  return rows;
}

const mustGet = (id: number) => {
  const row = getDb().select().from(punishment).where(eq(punishment.id, id)).get();
  if (!row) throw notFound("处罚记录不存在");
  return row;
};

export function updatePunishment(id: number, patch: PunishmentPatch, actor: Actor): PunishmentRow {
  const row = mustGet(id);
  const start = patch.start_time === undefined ? row.start_time : patch.start_time;
  const end = patch.end_time === undefined ? row.end_time : patch.end_time;
  checkWindow(start, end);
  const set = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  const out = syncingStatus(row.user_id, () => getDb().update(punishment)
    .set({ ...set, operators: addOperator(row.operators, actor.username), updated_at: Date.now() })
    .where(eq(punishment.id, id)).returning().get()!);
  bumpContentVersion();
  return out;
}

export function deletePunishments(ids: number[]): number {
  const rows = ids.length ? getDb().select({ id: punishment.id, user_id: punishment.user_id }).from(punishment).where(inArray(punishment.id, ids)).all() : [];
  if (!rows.length) throw notFound("处罚记录不存在");
  for (const userId of new Set(rows.map((r) => r.user_id))) {
    const mine = rows.filter((r) => r.user_id === userId).map((r) => r.id);
    syncingStatus(userId, () => getDb().delete(punishment).where(inArray(punishment.id, mine)).run());
  }
  bumpContentVersion();
  return rows.length;
}

const COLUMNS = {
  id: punishment.id, user_id: punishment.user_id, type: punishment.type, enable: punishment.enable, operators: punishment.operators, reason: punishment.reason,
  remark: punishment.remark, start_time: punishment.start_time, end_time: punishment.end_time, created_at: punishment.created_at, updated_at: punishment.updated_at,
  username: sql<string>`coalesce(${user.username}, '')`,
};

export function getPunishment(id: number) {
  const row = getDb().select(COLUMNS).from(punishment).leftJoin(user, eq(user.id, punishment.user_id)).where(eq(punishment.id, id)).get();
  if (!row) throw notFound("处罚记录不存在");
  return row;
}

export interface PunishmentQuery { user_id?: number; type?: number; enable?: boolean; wd?: string; start?: number; end?: number; page: number; size: number }

export function listPunishments(q: PunishmentQuery) {
  const conds: (SQL | undefined)[] = [
    q.user_id ? eq(punishment.user_id, q.user_id) : undefined,
    q.type ? eq(punishment.type, q.type) : undefined,
    q.enable === undefined ? undefined : eq(punishment.enable, q.enable),
    q.wd ? or(sql`instr(lower(${user.username}), lower(${q.wd})) > 0`, sql`instr(lower(${punishment.reason}), lower(${q.wd})) > 0`) : undefined,
    createdBetween(punishment.created_at, q),
  ];
  const where = and(...conds);
  const db = getDb();
  const rows = db.select(COLUMNS).from(punishment).leftJoin(user, eq(user.id, punishment.user_id)).where(where)
    .orderBy(desc(punishment.id)).limit(q.size).offset((q.page - 1) * q.size).all();
  const total = db.select({ n: count() }).from(punishment).leftJoin(user, eq(user.id, punishment.user_id)).where(where).get()!.n;
  const now = Date.now();
  // in_force tells the admin which rows act right now (enabled, started, not ended).
  return { total, punishment: rows.map((r) => ({ ...r, in_force: r.enable && (r.start_time ?? 0) <= now && (r.end_time === null || r.end_time > now) })) };
}
