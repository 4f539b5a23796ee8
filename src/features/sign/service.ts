import { and, eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { sign } from "#db/schema/users.ts";
import { changeCredits } from "#src/features/credits/ledger.ts";
import { DYNAMIC_TYPES, recordDynamic } from "#src/features/me/dynamic.ts";
import { creditName, setting } from "#src/features/settings/service.ts";
import { conflict } from "#src/lib/errors.ts";

/** Today in Asia/Shanghai as YYYYMMDD. */
export function shanghaiDay(now = Date.now()): number {
  const d = new Date(now + 8 * 3600_000);
  return d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate();
}

export function todaySign(userId: number, now = Date.now()) {
  return getDb().select({ id: sign.id, award: sign.award, sign_at: sign.sign_at, created_at: sign.created_at }).from(sign)
    .where(and(eq(sign.user_id, userId), eq(sign.sign_at, shanghaiDay(now)))).get() ?? null;
}

/** Spec §8: sign-in succeeded, earning the award in the credit name (魔豆 unless configured). */
export const signMessage = (award: number) => `签到成功，获得 ${award} ${creditName()}奖励`;

/** Signs in for today and credits the award in one transaction; a second sign-in the same day is refused. */
export function signToday(userId: number, ip: string, now = Date.now()) {
  const award = Math.max(0, Math.floor(Number(setting("score", "sign_in")) || 0));
  return getDb().transaction((tx) => {
    const inserted = tx.insert(sign).values({ user_id: userId, sign_at: shanghaiDay(now), award, ip }).onConflictDoNothing().returning({ id: sign.id }).get();
    if (!inserted) throw conflict("今日已签到");
    if (award) changeCredits({ userId, amount: award, kind: "sign", reason: "每日签到奖励", refId: inserted.id }, tx);
    recordDynamic(userId, DYNAMIC_TYPES.sign, `签到成功，获得 ${award} ${creditName()}`, tx);
    return { id: inserted.id, award, sign_at: shanghaiDay(now), message: signMessage(award) };
  });
}
