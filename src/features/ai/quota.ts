import { getSqlite } from "#db/client.ts";
import { setting } from "#src/features/settings/service.ts";
import { badRequest, notFound } from "#src/lib/errors.ts";

// AI quotas: questions per Asia/Shanghai day and tokens per Asia/Shanghai month. A user's own
// limits (ai_quota, set by an admin) win; else the largest of their groups', and of the VIP
// defaults while they are VIP. -1 means unlimited. Usage is summed from ai_usage, one row per
// answered question written with the message (refused questions have none; stopped and failed
// ones count) and kept when the message is deleted.

export const UNLIMITED = -1;

export interface Quota {
  questions_per_day: number;
  tokens_per_month: number;
  questions_used: number;
  tokens_used: number;
  questions_remaining: number;
  tokens_remaining: number;
  /** where the limits come from: user (own), group, vip, root */
  source: "user" | "group" | "vip" | "root";
  /** the user's own limits as an admin set them (null: inherited) */
  own: { questions_per_day: number | null; tokens_per_month: number | null };
}

const SHANGHAI = 8 * 3600_000;
/** Start of the Asia/Shanghai day of `now`, in ms. */
export const dayStart = (now = Date.now()) => Math.floor((now + SHANGHAI) / 86400_000) * 86400_000 - SHANGHAI;
/** Start of the Asia/Shanghai month of `now`, in ms. */
export function monthStart(now = Date.now()) {
  const d = new Date(now + SHANGHAI);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) - SHANGHAI;
}

const larger = (a: number, b: number) => (a === UNLIMITED || b === UNLIMITED ? UNLIMITED : Math.max(a, b));

function limitsOf(userId: number): Pick<Quota, "questions_per_day" | "tokens_per_month" | "source" | "own"> {
  const db = getSqlite();
  const u = db.query<{ is_root: number; vip_until: number | null }, [number]>("SELECT is_root, vip_until FROM user WHERE id = ?").get(userId);
  if (!u) throw notFound("用户不存在");
  const own = db.query<{ questions_per_day: number | null; tokens_per_month: number | null }, [number]>("SELECT questions_per_day, tokens_per_month FROM ai_quota WHERE user_id = ?").get(userId);
  const ownLimits = { questions_per_day: own?.questions_per_day ?? null, tokens_per_month: own?.tokens_per_month ?? null };
  if (u.is_root) return { questions_per_day: UNLIMITED, tokens_per_month: UNLIMITED, source: "root", own: ownLimits };
  // A user in no group gets the default group's limits (the group new users join).
  let groups = db.query<{ q: number; t: number }, [number]>("SELECT g.ai_questions_per_day AS q, g.ai_tokens_per_month AS t FROM user_group ug JOIN `group` g ON g.id = ug.group_id WHERE ug.user_id = ?").all(userId);
  if (!groups.length) groups = db.query<{ q: number; t: number }, []>("SELECT ai_questions_per_day AS q, ai_tokens_per_month AS t FROM `group` WHERE is_default = 1").all();
  let q = groups.length ? groups.map((g) => g.q).reduce(larger) : 0;
  let t = groups.length ? groups.map((g) => g.t).reduce(larger) : 0;
  let source: Quota["source"] = "group";
  if (u.vip_until && u.vip_until > Date.now()) {
    const vq = Math.floor(Number(setting("vip", "ai_questions_per_day")));
    const vt = Math.floor(Number(setting("vip", "ai_tokens_per_month")));
    if (larger(q, vq) !== q || larger(t, vt) !== t) source = "vip";
    q = larger(q, vq);
    t = larger(t, vt);
  }
  if (own?.questions_per_day != null || own?.tokens_per_month != null) source = "user";
  return { questions_per_day: own?.questions_per_day ?? q, tokens_per_month: own?.tokens_per_month ?? t, source, own: ownLimits };
}

/** Questions asked today and tokens used this month, from the usage rows (deleting a conversation gives nothing back). */
export function usageOf(userId: number, now = Date.now()) {
  const db = getSqlite();
  const questions = db.query<{ n: number }, [number, number]>("SELECT count(*) AS n FROM ai_usage WHERE user_id = ? AND created_at >= ?").get(userId, dayStart(now))!.n;
  const tokens = db.query<{ n: number }, [number, number]>("SELECT coalesce(sum(tokens), 0) AS n FROM ai_usage WHERE user_id = ? AND created_at >= ?").get(userId, monthStart(now))!.n;
  return { questions, tokens };
}

const remaining = (limit: number, used: number) => (limit === UNLIMITED ? UNLIMITED : Math.max(0, limit - used));

export function quotaOf(userId: number, now = Date.now()): Quota {
  const l = limitsOf(userId);
  const u = usageOf(userId, now);
  return {
    questions_per_day: l.questions_per_day, tokens_per_month: l.tokens_per_month,
    questions_used: u.questions, tokens_used: u.tokens,
    questions_remaining: remaining(l.questions_per_day, u.questions), tokens_remaining: remaining(l.tokens_per_month, u.tokens),
    source: l.source, own: l.own,
  };
}

/** Why this user may not ask now, or null. */
export function quotaRefusal(q: Quota): string | null {
  if (q.questions_remaining === 0) return `今日 AI 提问次数已用完（每日 ${q.questions_per_day} 次），请明天再来`;
  if (q.tokens_remaining === 0) return `本月 AI 用量已用完（每月 ${q.tokens_per_month} token），请下月再来或联系管理员`;
  return null;
}

/** An admin sets a user's own limits; null clears one (inherit from groups/VIP again). */
export function setUserQuota(userId: number, input: { questions_per_day: number | null; tokens_per_month: number | null }) {
  const db = getSqlite();
  if (!db.query("SELECT 1 FROM user WHERE id = ?").get(userId)) throw notFound("用户不存在");
  for (const v of [input.questions_per_day, input.tokens_per_month]) if (v !== null && (!Number.isInteger(v) || v < UNLIMITED)) throw badRequest("额度必须是不小于 -1 的整数（-1 表示不限）");
  if (input.questions_per_day === null && input.tokens_per_month === null) db.query("DELETE FROM ai_quota WHERE user_id = ?").run(userId);
  else db.query(`INSERT INTO ai_quota (user_id, questions_per_day, tokens_per_month) VALUES (?, ?, ?)
    ON CONFLICT(user_id) DO UPDATE SET questions_per_day = excluded.questions_per_day, tokens_per_month = excluded.tokens_per_month, updated_at = unixepoch('subsec') * 1000`)
    .run(userId, input.questions_per_day, input.tokens_per_month);
  return quotaOf(userId);
}
