// Date ranges of the admin lists (spec §9 quick ranges). Pure, so the AdminDateRange picker in the
// browser and the list APIs on the server agree on what "最近一周" and a YYYY-MM-DD day mean.
// Days are Asia/Shanghai calendar days (design §5: times stored UTC, shown Asia/Shanghai).

export const DAY_MS = 86_400_000;
const SHANGHAI_MS = 8 * 3_600_000;

export const QUICK_RANGES = [
  { key: "day", label: "今天" },
  { key: "week", label: "最近一周" },
  { key: "month", label: "最近一月" },
  { key: "quarter", label: "最近三月" },
  { key: "halfyear", label: "最近半年" },
  { key: "year", label: "最近一年" },
] as const;

export type QuickRange = (typeof QUICK_RANGES)[number]["key"];

/** The Asia/Shanghai calendar day of an instant, as YYYY-MM-DD. */
export const shanghaiDay = (ms: number) => new Date(ms + SHANGHAI_MS).toISOString().slice(0, 10);

/**
 * A quick range as inclusive days ending today: "day" is today, "week" the last 7 days, "month",
 * "quarter", "halfyear" and "year" go back 1, 3, 6 and 12 calendar months (the day after that
 * date, so a month is e.g. 06-16 … 07-15).
 */
export function quickRange(key: QuickRange, now = Date.now()): { start: string; end: string } {
  const end = shanghaiDay(now);
  const d = new Date(`${end}T00:00:00Z`);
  if (key === "week") d.setUTCDate(d.getUTCDate() - 6);
  else if (key !== "day") {
    const months = { month: 1, quarter: 3, halfyear: 6, year: 12 }[key];
    const day = d.getUTCDate();
    d.setUTCDate(1);
    d.setUTCMonth(d.getUTCMonth() - months);
    // 03-31 minus a month is the last day of February, not 03-03.
    const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
    d.setUTCDate(Math.min(day, last) + 1);
  }
  return { start: d.toISOString().slice(0, 10), end };
}

/** Which quick range a start/end pair is (for the picker's select), or "" when it is custom. */
export function quickRangeOf(start: string, end: string, now = Date.now()): QuickRange | "" {
  return QUICK_RANGES.find((r) => {
    const q = quickRange(r.key, now);
    return q.start === start && q.end === end;
  })?.key ?? "";
}

/**
 * The first millisecond of an Asia/Shanghai day given as YYYY-MM-DD, or null when the text is not
 * a real date (2024-02-30 does not round-trip, so it is rejected).
 */
export function dayStartMs(v: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m) return null;
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) - SHANGHAI_MS;
  return Number.isFinite(t) && shanghaiDay(t) === v ? t : null;
}
