// VIP expiry arithmetic (pure). Months are calendar months on the Asia/Shanghai calendar: a month
// bought on 31 January runs to the last day of February, at the same time of day.

const SHANGHAI_OFFSET_MS = 8 * 3_600_000;

/** `from` plus `months` calendar months, the day clamped to the target month's last day. */
export function addCalendarMonths(from: number, months: number): number {
  const d = new Date(from + SHANGHAI_OFFSET_MS);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const day = Math.min(d.getUTCDate(), lastDay);
  const shifted = Date.UTC(y, m, day, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds());
  return shifted - SHANGHAI_OFFSET_MS;
}

/** A VIP purchase extends from the later of now and the current expiry. */
export const extendVip = (current: number | null, months: number, now: number): number =>
  addCalendarMonths(Math.max(now, current ?? 0), months);

export const isVipAt = (vipUntil: number | null | undefined, now = Date.now()): boolean => !!vipUntil && vipUntil > now;
