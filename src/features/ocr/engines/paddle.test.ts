import { expect, test } from "bun:test";
import { joinLines } from "./paddle.ts";

test("PaddleOCR lines: blank ones dropped, confidence weighted by length on a 0–100 scale", () => {
  expect(joinLines([{ text: "三、功和能", mean: 1 }, { text: " ", mean: 0.1 }, { text: "ab", mean: 0.5 }]))
    .toEqual({ text: "三、功和能\nab", confidence: 85.7 });
  expect(joinLines([])).toEqual({ text: "", confidence: 0 });
});
