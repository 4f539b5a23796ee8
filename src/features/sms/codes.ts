// SMS verification codes: issuing (limits, hashed storage, provider call, status) and checking
// (newest live code, attempt limit, single use). Rows live in verify_code with channel "mobile".
import { and, desc, eq, gte, inArray, isNull, sql } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { verifyCode } from "#db/schema/accounts.ts";
import { getSettings } from "#src/features/settings/service.ts";
import { AppError, badRequest, tooManyRequests } from "#src/lib/errors.ts";
import { providerFor } from "./providers/registry.ts";
import type { SendResult, SmsConfig, SmsType } from "./providers/types.ts";
import { hashCode, sameHash } from "#src/features/auth/codeHash.ts";

export const CHANNEL = "mobile";
export const MAX_ATTEMPTS = 5;
export const STATUS = { sending: 0, sent: 1, failed: 2 } as const;

const DAY_MS = 86_400_000;
const SHANGHAI_OFFSET_MS = 8 * 3_600_000;
/** Start of today in Asia/Shanghai: "今日" caps reset at local midnight. */
export const startOfShanghaiDay = (now: number) => now - ((now + SHANGHAI_OFFSET_MS) % DAY_MS);

export const smsConfig = (): SmsConfig => getSettings().sms ?? {};
const num = (cfg: SmsConfig, key: string, def: number) => {
  const n = Number(cfg[key]);
  return Number.isFinite(n) && n > 0 ? n : def;
};

/** Keyed hash binding the code to its number and purpose (auth/codeHash.ts). */
export const hashMobileCode = (mobile: string, type: SmsType, code: string) => hashCode("mobile", mobile, type, code);

function randomCode(length: number): string {
  let out = "";
  // Rejection sampling keeps every digit uniform (256 is not a multiple of 10).
  while (out.length < length) {
    for (const b of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (b < 250 && out.length < length) out += String(b % 10);
    }
  }
  return out;
}

type Tx = Parameters<Parameters<ReturnType<typeof getDb>["transaction"]>[0]>[0];
const count = (tx: Tx, ...conds: ReturnType<typeof eq>[]) =>
  tx.select({ n: sql<number>`count(*)` }).from(verifyCode).where(and(eq(verifyCode.channel, CHANNEL), ...conds)).get()!.n;

/** Resend interval, hourly and daily caps per number, daily cap per IP; 429 with a Chinese message. */
function assertWithinLimits(tx: Tx, cfg: SmsConfig, mobile: string, ip: string, now: number) {
  const interval = num(cfg, "resend_interval", 60) * 1000;
  const last = tx.select({ at: verifyCode.created_at }).from(verifyCode)
    .where(and(eq(verifyCode.channel, CHANNEL), eq(verifyCode.target, mobile))).orderBy(desc(verifyCode.created_at)).limit(1).get();
  if (last && now - last.at < interval) throw tooManyRequests(`发送过于频繁，请 ${Math.ceil((interval - (now - last.at)) / 1000)} 秒后再试`);
  const hourly = num(cfg, "mobile_hourly_limit", 5);
  if (count(tx, eq(verifyCode.target, mobile), gte(verifyCode.created_at, now - 3_600_000)) >= hourly) {
    throw tooManyRequests(`该手机号 1 小时内最多获取 ${hourly} 次验证码，请稍后再试`);
  }
  const today = startOfShanghaiDay(now);
  const daily = num(cfg, "mobile_daily_limit", 10);
  if (count(tx, eq(verifyCode.target, mobile), gte(verifyCode.created_at, today)) >= daily) {
    throw tooManyRequests(`该手机号今日获取验证码次数已达上限（${daily} 次），请明天再试`);
  }
  const perIp = num(cfg, "ip_daily_limit", 20);
  if (ip && count(tx, eq(verifyCode.ip, ip), gte(verifyCode.created_at, today)) >= perIp) {
    throw tooManyRequests("当前网络今日获取验证码次数已达上限，请明天再试");
  }
}

/**
 * Issues a code: checks the limits and records the row (status 0, code hashed) in one synchronous
 * transaction, so concurrent requests cannot slip past a cap; then calls the provider and stores
 * status 1 or 2 with the provider's error. The code itself is never returned or stored in clear.
 */
export async function issueCode(mobile: string, type: SmsType, ip: string) {
  const cfg = smsConfig();
  const now = Date.now();
  const code = randomCode(Math.min(8, Math.max(4, num(cfg, "code_length", 6))));
  const codeHash = hashMobileCode(mobile, type, code);
  const provider = providerFor(cfg);
  const row = getDb().transaction((tx) => {
    assertWithinLimits(tx, cfg, mobile, ip, now);
    return tx.insert(verifyCode).values({
      channel: CHANNEL, target: mobile, type, code_hash: codeHash, status: STATUS.sending, provider: provider?.name ?? String(cfg.provider ?? ""),
      ip, expires_at: now + num(cfg, "code_duration", 5) * 60_000, created_at: now, updated_at: now,
    }).returning({ id: verifyCode.id }).get();
  });
  const result: SendResult = provider ? await provider.send({ mobile, code, type }) : { ok: false, error: `未知的短信服务商：${String(cfg.provider)}` };
  getDb().update(verifyCode).set({
    status: result.ok ? STATUS.sent : STATUS.failed, error: result.ok ? "" : String(result.error ?? "发送失败").slice(0, 500), updated_at: Date.now(),
  }).where(eq(verifyCode.id, row.id)).run();
  // Visitors get a plain message; the provider's reason is for admins in /admin/user/sms.
  if (!result.ok) throw new AppError(503, "sms_failed", "短信发送失败，请稍后重试");
  return { id: row.id, expires_in: num(cfg, "code_duration", 5) * 60, interval: num(cfg, "resend_interval", 60) };
}


/**
 * Checks a code against the newest code of that number and purpose that did not fail to send.
 * A wrong code counts an attempt; after MAX_ATTEMPTS the code is dead. Returns the row id for
 * consumeCode, which the caller runs inside the transaction of the action the code unlocks.
 */
export function checkCode(mobile: string, type: SmsType, code: string): number {
  const db = getDb();
  const row = db.select().from(verifyCode)
    .where(and(eq(verifyCode.channel, CHANNEL), eq(verifyCode.target, mobile), eq(verifyCode.type, type), inArray(verifyCode.status, [STATUS.sending, STATUS.sent])))
    .orderBy(desc(verifyCode.id)).limit(1).get();
  if (!row) throw badRequest("验证码错误");
  if (row.used_at) throw badRequest("验证码已使用");
  if (row.expires_at <= Date.now()) throw badRequest("验证码已过期");
  if (row.attempts >= MAX_ATTEMPTS) throw tooManyRequests("验证码错误次数过多，请重新获取");
  if (!sameHash(row.code_hash, hashMobileCode(mobile, type, code))) {
    db.update(verifyCode).set({ attempts: sql`${verifyCode.attempts} + 1`, updated_at: Date.now() }).where(eq(verifyCode.id, row.id)).run();
    throw badRequest("验证码错误");
  }
  return row.id;
}

/** Marks the code used; only one caller can win, whatever ran between check and consume. */
export function consumeCode(id: number, tx: Tx | ReturnType<typeof getDb> = getDb()) {
  const now = Date.now();
  const won = tx.update(verifyCode).set({ used_at: now, updated_at: now })
    .where(and(eq(verifyCode.id, id), isNull(verifyCode.used_at), sql`${verifyCode.attempts} < ${MAX_ATTEMPTS}`)).returning({ id: verifyCode.id }).get();
  if (!won) throw badRequest("验证码已使用");
}
