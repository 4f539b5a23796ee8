// Money and clock formats the gateways speak. Amounts stay integer fen; a yuan string ("19.99") is
// converted digit by digit, never through a float, so "0.29" is 29 fen and not 28.999….
// Both gateways think in Beijing time (UTC+8) whatever the server's time zone is.

/** 1999 -> "19.99"; only a non-negative safe integer is accepted. */
export function fenToYuan(fen: number): string {
  if (!Number.isSafeInteger(fen) || fen < 0) throw new RangeError(`金额必须是非负整数分：${fen}`);
  return `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, "0")}`;
}

/** "19.99" -> 1999, "95" -> 9500, "0.5" -> 50; anything else (sign, exponent, three decimals) -> null. */
export function yuanToFen(yuan: unknown): number | null {
  if (typeof yuan !== "string" && typeof yuan !== "number") return null;
  const text = String(yuan).trim();
  const m = /^(\d{1,13})(?:\.(\d{1,2}))?$/.exec(text);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
}

const BEIJING_OFFSET_MS = 8 * 3600_000;
const two = (n: number) => String(n).padStart(2, "0");

function beijingParts(ms: number) {
  const d = new Date(Math.floor(ms / 1000) * 1000 + BEIJING_OFFSET_MS);
  const date = `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}`;
  const time = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
  return { date, time };
}

/** RFC 3339 in Beijing time, as WeChat Pay wants it: 2024-05-01T08:30:00+08:00. */
export function rfc3339Beijing(ms: number): string {
  const { date, time } = beijingParts(ms);
  return `${date}T${time}+08:00`;
}

/** Alipay's "yyyy-MM-dd HH:mm:ss", Beijing time. */
export function beijingDateTime(ms: number): string {
  const { date, time } = beijingParts(ms);
  return `${date} ${time}`;
}

/** Alipay's "yyyy-MM-dd HH:mm:ss" (Beijing time) back to epoch ms; null when it does not parse. */
export function parseBeijingDateTime(text: unknown): number | null {
  if (typeof text !== "string" || !/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(text)) return null;
  const ms = Date.parse(`${text.replace(" ", "T")}+08:00`);
  return Number.isFinite(ms) ? ms : null;
}

/** An RFC 3339 time with its own offset (WeChat's success_time) to epoch ms; null when it does not parse. */
export function parseRfc3339(text: unknown): number | null {
  if (typeof text !== "string" || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : null;
}
