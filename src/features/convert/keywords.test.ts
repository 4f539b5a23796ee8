import { describe, expect, test } from "bun:test";
import { extractKeywords, summarize } from "./keywords.ts";
import { previewCount } from "./pipeline.ts";
import { describeTimeout } from "./tools.ts";

describe("keywords and description from text", () => {
  test("jieba TF-IDF keywords: real words, no formula fragments or numbers", () => {
    const text = "公司规章制度。为规范公司管理，保障员工合法权益，根据劳动法制定本制度。员工应当遵守考勤制度，按时上下班。请假需提前申请。加班工资按照国家规定计算。Ek = ½mv² 2024";
    const k = extractKeywords(text, 5);
    expect(k).toHaveLength(5);
    expect(k).toContain("员工");
    for (const w of k) expect(w).not.toMatch(/^(Ek|mv|\d+)$/);
    expect(extractKeywords("   ")).toEqual([]);
  });

  test("description: whitespace collapsed, cut near a sentence end", () => {
    expect(summarize("  第一行\n\n第二行  ")).toBe("第一行 第二行");
    const long = "这是一个完整的句子。".repeat(40);
    const d = summarize(long, 200);
    expect(d.endsWith("。")).toBe(true);
    expect([...d].length).toBeLessThanOrEqual(200);
    expect(summarize("字".repeat(300), 200)).toBe(`${"字".repeat(200)}…`);
  });
});

describe("preview count and messages", () => {
  test("min(max_preview, ceil(pages × percent))", () => {
    expect(previewCount(100, { maxPreview: 50, maxPreviewPercent: 100 })).toBe(50);
    expect(previewCount(10, { maxPreview: 50, maxPreviewPercent: 35 })).toBe(4);
    expect(previewCount(1, { maxPreview: 50, maxPreviewPercent: 1 })).toBe(1);
    expect(previewCount(3, { maxPreview: 50, maxPreviewPercent: 100 })).toBe(3);
  });

  test("timeouts are told in minutes or seconds", () => {
    expect(describeTimeout(30 * 60_000)).toBe("30 分钟");
    expect(describeTimeout(3000)).toBe("3 秒");
  });
});
