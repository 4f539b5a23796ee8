import { expect, test } from "bun:test";
import { cer, choosePages, cleanOcrText, editDistance, needsOcr, visibleChars } from "./text.ts";

test("visible characters ignore every kind of white space", () => {
  expect(visibleChars(" 第 1 页\n\t\u3000")).toBe(3);
  expect(needsOcr("  3 \n", 10)).toBe(true);
  expect(needsOcr("高中物理公式汇总：运动学", 10)).toBe(false);
});

test("page choice: only pages without a text layer, at most max_pages of them", () => {
  const texts = ["正文有很多很多的文字内容在这里", "", "  2 ", "另一页也有足够多的文字内容", "", ""];
  expect(choosePages(texts, 10, 50)).toEqual({ pages: [2, 3, 5, 6], over: 0 });
  expect(choosePages(texts, 10, 2)).toEqual({ pages: [2, 3], over: 2 });
  expect(choosePages(texts, 1, 50)).toEqual({ pages: [2, 5, 6], over: 0 });
  expect(choosePages([], 10, 50)).toEqual({ pages: [], over: 0 });
});

test("spaces between Han characters and CJK punctuation go, spaces between Latin words stay", () => {
  expect(cleanOcrText("动 能 定 理 ： 合 外 力")).toBe("动能定理：合外力");
  expect(cleanOcrText("公式 v = at ，位移 x")).toBe("公式 v = at ，位移 x");
  expect(cleanOcrText("牛顿 第二 定律 F = ma")).toBe("牛顿第二定律 F = ma");
  expect(cleanOcrText("hello world  \r\n\n\n\n第 二 行 ")).toBe("hello world\n\n第二行");
  expect(cleanOcrText("かな カナ 漢字")).toBe("かなカナ漢字");
});

test("character error rate: edits over the reference's characters, white space and width ignored", () => {
  expect(editDistance([..."kitten"], [..."sitting"])).toBe(3);
  expect(editDistance([], [..."abc"])).toBe(3);
  expect(cer("动能定理：合外力", "动 能 定 理 : 合 外 力")).toBe(0);
  expect(cer("弹性碰撞", "弹性碘撞")).toBeCloseTo(0.25);
  expect(cer("abcd", "")).toBe(1);
  expect(cer("", "")).toBe(0);
  expect(cer("", "x")).toBe(1);
});
