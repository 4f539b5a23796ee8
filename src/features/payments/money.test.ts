import { describe, expect, test } from "bun:test";
import { beijingDateTime, fenToYuan, parseBeijingDateTime, parseRfc3339, rfc3339Beijing, yuanToFen } from "./money.ts";

describe("yuan <-> fen", () => {
  test("yuan strings become exact fen, including values a float would get wrong", () => {
    expect(yuanToFen("0.01")).toBe(1);
    expect(yuanToFen("95.00")).toBe(9500);
    expect(yuanToFen("19.99")).toBe(1999);
    expect(yuanToFen("0.29")).toBe(29); // 0.29 * 100 === 28.999999999999996
    expect(yuanToFen("1.1")).toBe(110);
    expect(yuanToFen("8")).toBe(800);
    expect(yuanToFen("100000.00")).toBe(10_000_000);
    expect(yuanToFen(" 9.90 ")).toBe(990);
    expect(yuanToFen(0.5)).toBe(50);
  });

  test("anything that is not a plain amount with at most two decimals is refused", () => {
    for (const bad of ["", "-1.00", "1.001", "1e3", "abc", "1,000.00", ".5", "5.", "0x10", "NaN", "Infinity", null, undefined, {}]) {
      expect(yuanToFen(bad as unknown)).toBeNull();
    }
  });

  test("fen becomes a two-decimal yuan string; fractions and negatives are refused", () => {
    expect(fenToYuan(1)).toBe("0.01");
    expect(fenToYuan(9500)).toBe("95.00");
    expect(fenToYuan(1999)).toBe("19.99");
    expect(fenToYuan(0)).toBe("0.00");
    expect(fenToYuan(10_000_000)).toBe("100000.00");
    expect(() => fenToYuan(1.5)).toThrow();
    expect(() => fenToYuan(-1)).toThrow();
    for (let fen = 0; fen < 2000; fen += 7) expect(yuanToFen(fenToYuan(fen))).toBe(fen);
  });
});

describe("Beijing time", () => {
  const ms = Date.parse("2024-05-01T00:30:00Z");
  test("RFC 3339 with +08:00 and Alipay's plain form, whatever the server's zone", () => {
    expect(rfc3339Beijing(ms)).toBe("2024-05-01T08:30:00+08:00");
    expect(rfc3339Beijing(Date.parse("2024-12-31T16:00:00.999Z"))).toBe("2025-01-01T00:00:00+08:00");
    expect(beijingDateTime(ms)).toBe("2024-05-01 08:30:00");
  });

  test("parsing back", () => {
    expect(parseBeijingDateTime("2024-05-01 08:30:00")).toBe(ms);
    expect(parseRfc3339("2024-05-01T08:30:00+08:00")).toBe(ms);
    expect(parseRfc3339("2024-05-01T00:30:00Z")).toBe(ms);
    expect(parseBeijingDateTime("2024-05-01T08:30:00")).toBeNull();
    expect(parseRfc3339("yesterday")).toBeNull();
    expect(parseRfc3339(undefined)).toBeNull();
  });
});
