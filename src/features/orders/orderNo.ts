// Order numbers: the Asia/Shanghai date and time of creation, then 12 digits from the system's
// cryptographic random source — sortable by time for people, not guessable by anyone (26 digits,
// within WeChat Pay's 32 and Alipay's 64 characters).

const SHANGHAI_OFFSET_MS = 8 * 3_600_000;

export function datePrefix(now: number): string {
  const d = new Date(now + SHANGHAI_OFFSET_MS);
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`;
}

export function newOrderNo(now = Date.now()): string {
  const bytes = crypto.getRandomValues(new BigUint64Array(1));
  // 2^64 / 10^12 ≈ 1.8e7 full cycles: the modulo bias is below one in ten million.
  const digits = (bytes[0]! % 1_000_000_000_000n).toString().padStart(12, "0");
  return datePrefix(now) + digits;
}

export const ORDER_NO_RE = /^\d{20,32}$/;
