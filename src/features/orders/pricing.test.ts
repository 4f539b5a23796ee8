import { describe, expect, test } from "bun:test";
import { addCalendarMonths, extendVip } from "#src/features/vip/membership.ts";
import { datePrefix, newOrderNo, ORDER_NO_RE } from "./orderNo.ts";
import {
  discountBadge, discountFor, documentAmount, formatYuan, parseDiscountTiers, rechargeQuote, validRechargeQuantity, vipCreditPrice, vipQuote,
} from "./pricing.ts";

describe("parseDiscountTiers (recharge.recharge_discount)", () => {
  test("one amount:discount per line, sorted by amount; blank lines and spaces are fine", () => {
    expect(parseDiscountTiers("500:0.9\n100:0.95\n\n 1000 : 0.85 \r\n")).toEqual([
      { amount: 100, discount: 0.95 }, { amount: 500, discount: 0.9 }, { amount: 1000, discount: 0.85 },
    ]);
    expect(parseDiscountTiers("100:1")).toEqual([{ amount: 100, discount: 1 }]);
    expect(parseDiscountTiers("100:.5")).toEqual([{ amount: 100, discount: 0.5 }]);
    expect(parseDiscountTiers("")).toEqual([]);
    expect(parseDiscountTiers(undefined)).toEqual([]);
  });

  test("a single line that does not parse means no tiers at all", () => {
    for (const bad of [
      "100:0.95\nabc", "100:0", "100:1.5", "0:0.9", "-100:0.9", "100:-0.5", "100", "100:0.9:1", "1e3:0.9", "100：0.95", "100.5:0.9", "100:0.9折",
      "100:0x1", "99999999999999999999:0.9",
    ]) {
      expect([bad, parseDiscountTiers(bad)]).toEqual([bad, []]);
    }
  });

  test("discountFor: the lowest discount among the tiers reached; none reached → 1", () => {
    const tiers = parseDiscountTiers("100:0.95\n500:0.9\n1000:0.85");
    expect(discountFor(99, tiers)).toBe(1);
    expect(discountFor(100, tiers)).toBe(0.95);
    expect(discountFor(999, tiers)).toBe(0.9);
    expect(discountFor(5000, tiers)).toBe(0.85);
    // The lowest wins even when a larger tier is (oddly) dearer.
    expect(discountFor(2000, parseDiscountTiers("100:0.8\n1000:0.9"))).toBe(0.8);
    expect(discountFor(1000, [])).toBe(1);
  });
});

describe("rechargeQuote", () => {
  test("the contract's example: 1000 credits at 10 per 元 with 100:0.95 → 9500 fen, 500 fen off, 1000 credits", () => {
    expect(rechargeQuote(1000, 10, parseDiscountTiers("100:0.95"))).toEqual({ amount: 9500, discount: 500, credits: 1000, rate: 0.95 });
  });

  test("no tier reached, no discount; tiers from the default setting", () => {
    expect(rechargeQuote(50, 10, parseDiscountTiers("100:0.95"))).toEqual({ amount: 500, discount: 0, credits: 50, rate: 1 });
    const tiers = parseDiscountTiers("100:0.95\n500:0.9\n1000:0.85");
    expect(rechargeQuote(500, 10, tiers)).toEqual({ amount: 4500, discount: 500, credits: 500, rate: 0.9 });
    expect(rechargeQuote(3000, 10, tiers)).toEqual({ amount: 25500, discount: 4500, credits: 3000, rate: 0.85 });
  });

  test("rounds to the nearest fen", () => {
    // 1 credit at 3 per 元 = 33.3… fen → 33; 2 → 66.6… → 67; 3 at 7 per 元 × 0.95 = 40.71… → 41 (42.86 → 43 undiscounted).
    expect(rechargeQuote(7, 7, [])).toMatchObject({ amount: 100 });
    expect(rechargeQuote(1, 3, [])).toMatchObject({ amount: 33 });
    expect(rechargeQuote(2, 3, [])).toMatchObject({ amount: 67 });
    expect(rechargeQuote(3, 7, parseDiscountTiers("1:0.95"))).toMatchObject({ amount: 41, discount: 2 });
    expect(rechargeQuote(10, 10, parseDiscountTiers("1:0.333"))).toMatchObject({ amount: 33, discount: 67 });
  });

  test("a broken tier list gives the full price", () => {
    expect(rechargeQuote(1000, 10, parseDiscountTiers("100:0.95\n500:zero"))).toEqual({ amount: 10000, discount: 0, credits: 1000, rate: 1 });
  });

  test("validRechargeQuantity: positive multiples of the exchange up to 10,000,000", () => {
    expect(validRechargeQuantity(10, 10)).toBe(true);
    expect(validRechargeQuantity(1000, 10)).toBe(true);
    expect(validRechargeQuantity(15, 10)).toBe(false);
    expect(validRechargeQuantity(0, 10)).toBe(false);
    expect(validRechargeQuantity(-10, 10)).toBe(false);
    expect(validRechargeQuantity(10.5, 1)).toBe(false);
    expect(validRechargeQuantity(10_000_000, 10)).toBe(true);
    expect(validRechargeQuantity(10_000_010, 10)).toBe(false);
    expect(validRechargeQuantity(3, 1.5)).toBe(true);
    expect(validRechargeQuantity(10, 0)).toBe(false);
  });
});

describe("documents and VIP", () => {
  test("a document bought with money costs ceil(price ÷ exchange) 元 in fen", () => {
    expect(documentAmount(10, 10)).toBe(100);
    expect(documentAmount(1, 3)).toBe(34);
    expect(documentAmount(3, 10)).toBe(30);
    expect(documentAmount(7, 1)).toBe(700);
  });

  test("VIP credit price: ceil(price × discount), clamped discount", () => {
    expect(vipCreditPrice(10, 0.8)).toBe(8);
    expect(vipCreditPrice(7, 0.8)).toBe(6);
    expect(vipCreditPrice(10, 0.7)).toBe(7);
    expect(vipCreditPrice(10, 1.5)).toBe(10);
    expect(vipCreditPrice(10, -1)).toBe(0);
    expect(vipCreditPrice(10, Number.NaN)).toBe(10);
  });

  test("vipQuote: price × periods, discount from the original price, months × periods", () => {
    expect(vipQuote({ price: 1500, original_price: 2000, months: 1 }, 3)).toEqual({ amount: 4500, discount: 1500, months: 3 });
    expect(vipQuote({ price: 1500, original_price: 0, months: 12 }, 1)).toEqual({ amount: 1500, discount: 0, months: 12 });
  });

  test("calendar months in Beijing time, the day clamped to the month's end", () => {
    const at = (s: string) => Date.parse(s);
    expect(addCalendarMonths(at("2024-01-31T10:00:00+08:00"), 1)).toBe(at("2024-02-29T10:00:00+08:00"));
    expect(addCalendarMonths(at("2023-01-31T10:00:00+08:00"), 1)).toBe(at("2023-02-28T10:00:00+08:00"));
    expect(addCalendarMonths(at("2024-11-15T23:30:00+08:00"), 3)).toBe(at("2025-02-15T23:30:00+08:00"));
    expect(addCalendarMonths(at("2024-03-01T00:30:00+08:00"), 12)).toBe(at("2025-03-01T00:30:00+08:00"));
    const now = at("2024-05-10T12:00:00+08:00");
    expect(extendVip(null, 1, now)).toBe(at("2024-06-10T12:00:00+08:00"));
    expect(extendVip(at("2024-01-01T00:00:00+08:00"), 1, now)).toBe(at("2024-06-10T12:00:00+08:00"));
    expect(extendVip(at("2024-07-20T08:00:00+08:00"), 3, now)).toBe(at("2024-10-20T08:00:00+08:00"));
  });
});

describe("display", () => {
  test("formatYuan: fen as 元 with two decimals", () => {
    expect(formatYuan(9500)).toBe("95.00");
    expect(formatYuan(1)).toBe("0.01");
    expect(formatYuan(0)).toBe("0.00");
    expect(formatYuan(123456)).toBe("1234.56");
  });

  test("discountBadge: discount × 10 with one decimal + 折", () => {
    expect(discountBadge(0.95)).toBe("9.5折");
    expect(discountBadge(0.9)).toBe("9.0折");
    expect(discountBadge(0.85)).toBe("8.5折");
  });
});

describe("order numbers", () => {
  test("Beijing date-time prefix, then 12 random digits; unique across many", () => {
    const now = Date.parse("2024-12-31T16:30:05Z");
    expect(datePrefix(now)).toBe("20250101003005");
    const no = newOrderNo(now);
    expect(no).toMatch(/^20250101003005\d{12}$/);
    expect(ORDER_NO_RE.test(no)).toBe(true);
    const many = new Set(Array.from({ length: 20_000 }, () => newOrderNo(now)));
    expect(many.size).toBe(20_000);
  });
});
