import { describe, expect, test } from "bun:test";
import { copyrightYears, discountBadge, formatBytes, formatPrice, isMobile, timeAgo } from "./format.ts";

describe("formatBytes", () => {
  test("B through YB, base 1024, two decimals", () => {
    expect(formatBytes(0)).toBe("0.00 B");
    expect(formatBytes(512)).toBe("512.00 B");
    expect(formatBytes(1024)).toBe("1.00 KB");
    expect(formatBytes(1536)).toBe("1.50 KB");
    expect(formatBytes(1024 ** 2 * 3.25)).toBe("3.25 MB");
    expect(formatBytes(1024 ** 3)).toBe("1.00 GB");
    expect(formatBytes(1024 ** 4)).toBe("1.00 TB");
    expect(formatBytes(1024 ** 5)).toBe("1.00 PB");
    expect(formatBytes(1024 ** 6)).toBe("1.00 EB");
    expect(formatBytes(1024 ** 7)).toBe("1.00 ZB");
    expect(formatBytes(1024 ** 8)).toBe("1.00 YB");
    expect(formatBytes(1024 ** 9)).toBe("1024.00 YB");
    expect(formatBytes(-5)).toBe("0.00 B");
  });
});

describe("timeAgo", () => {
  const now = Date.UTC(2026, 10, 21, 12);
  test("just now under a minute", () => {
    expect(timeAgo(now, now)).toBe("刚刚");
    expect(timeAgo(now - 59_000, now)).toBe("刚刚");
  });
  test("minutes, hours, days", () => {
    expect(timeAgo(now - 60_000, now)).toBe("1分钟前");
    expect(timeAgo(now - 59 * 60_000, now)).toBe("59分钟前");
    expect(timeAgo(now - 3600_000, now)).toBe("1小时前");
    expect(timeAgo(now - 23 * 3600_000, now)).toBe("23小时前");
    expect(timeAgo(now - 24 * 3600_000, now)).toBe("1天前");
    expect(timeAgo(now - 29 * 86400_000, now)).toBe("29天前");
  });
  test("months are 30 days, then years", () => {
    expect(timeAgo(now - 30 * 86400_000, now)).toBe("1个月前");
    expect(timeAgo(now - 59 * 86400_000, now)).toBe("1个月前");
    expect(timeAgo(now - 60 * 86400_000, now)).toBe("2个月前");
    expect(timeAgo(now - 360 * 86400_000, now)).toBe("1年前");
    expect(timeAgo(now - 800 * 86400_000, now)).toBe("2年前");
  });
  test("future times read as just now", () => expect(timeAgo(now + 5000, now)).toBe("刚刚"));
});

test("discount badge is discount × 10 to one decimal + 折", () => {
  expect(discountBadge(0.85)).toBe("8.5折");
  expect(discountBadge(0.9)).toBe("9.0折");
  expect(discountBadge(0.5)).toBe("5.0折");
  expect(discountBadge(0.888)).toBe("8.9折");
});

test("prices in fen show two decimals", () => {
  expect(formatPrice(0)).toBe("0.00");
  expect(formatPrice(1)).toBe("0.01");
  expect(formatPrice(1999)).toBe("19.99");
  expect(formatPrice(10000)).toBe("100.00");
});

test("copyright year or range", () => {
  const d = new Date(Date.UTC(2026, 5, 1));
  expect(copyrightYears("2019", d)).toBe("2019-2026");
  expect(copyrightYears(2026, d)).toBe("2026");
  expect(copyrightYears("", d)).toBe("2026");
  expect(copyrightYears("abc", d)).toBe("2026");
  expect(copyrightYears("2030", d)).toBe("2026");
  // New Year in Shanghai comes before New Year in UTC.
  expect(copyrightYears("2020", new Date(Date.UTC(2026, 11, 31, 17)))).toBe("2020-2027");
});

test("mobile number rule", () => {
  expect(isMobile("13800138000")).toBe(true);
  expect(isMobile("19912345678")).toBe(true);
  expect(isMobile("12800138000")).toBe(false);
  expect(isMobile("23800138000")).toBe(false);
  expect(isMobile("1380013800")).toBe(false);
  expect(isMobile("138001380001")).toBe(false);
  expect(isMobile("1380013800a")).toBe(false);
  expect(isMobile(" 13800138000")).toBe(false);
});
