import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { useTempDatabase } from "#tests/helpers/testDb.ts";
import { escapeHtml, highlight, snippet } from "./highlight.ts";
import { fold, parseDictionary } from "./text.ts";
import { jieba } from "#src/lib/segmenter.ts";

// Highlighting reads the folding setting, so a temp database holds the (default) settings; fold()
// itself is given the setting explicitly. Query parsing is tested in tests/integration/search.test.ts.
let cleanup = () => {};
beforeAll(() => void ({ cleanup } = useTempDatabase()));
afterAll(() => cleanup());
describe("fold", () => {
  test("full-width letters, digits and spaces become half-width, letters lower case", () => {
    expect(fold("ＡＢＣ１２３　Ｗｏｒｄ", false)).toBe("abc123 word");
    expect(fold("JavaScript PDF", false)).toBe("javascript pdf");
  });
  test("keeps the length, so positions found in folded text apply to the raw text", () => {
    for (const s of ["ＡＢＣ１２３", "歷史與現實", "Ünïcode ÀÉ", "emoji 😀 混合 Ｍｉｘ", "中國人民銀行"]) expect(fold(s, true).length).toBe(s.length);
  });
  test("traditional characters fold to simplified when enabled, and stay otherwise", () => {
    expect(fold("歷史與現實", true)).toBe("历史与现实");
    expect(fold("中國人民銀行", true)).toBe("中国人民银行");
    expect(fold("歷史", false)).toBe("歷史");
    // Simplified text is unchanged (same string back).
    const s = "人工智能的发展";
    expect(fold(s, true)).toBe(s);
  });
  test("Taiwan variants fold too (裡 → 里)", () => {
    expect(fold("這裡", true)).toBe("这里");
  });
});

describe("dictionary lines", () => {
  test("word with and without frequency; blank lines skipped", () => {
    expect(parseDictionary("魔豆文库\n\n  人工智能 1000 \nbad -3")).toEqual([
      { word: "魔豆文库", freq: 20000 }, { word: "人工智能", freq: 1000 }, { word: "bad", freq: 20000 },
    ]);
  });
  test("a word the jieba instance learns is cut as one word", () => {
    const j = jieba();
    j.loadDict(new TextEncoder().encode("豆丁测试词 20000\n"));
    expect(j.cut("这是豆丁测试词啊", true)).toContain("豆丁测试词");
  });
});

describe("escape and highlight", () => {
  test("HTML in the text is escaped before marking", () => {
    expect(escapeHtml(`<script>alert("x")&'`)).toBe("&lt;script&gt;alert(&quot;x&quot;)&amp;&#39;");
    expect(highlight("<b>人工智能</b>", ["人工智能"])).toBe("&lt;b&gt;<mark>人工智能</mark>&lt;/b&gt;");
  });
  test("a query word that is markup is matched as text, never emitted raw", () => {
    const html = highlight("a <script>x</script>", ["script", "<"]);
    expect(html).not.toContain("<script");
    expect(html).toContain("&lt;");
  });
  test("marks the raw text even when the match is found through folding", () => {
    expect(highlight("ＪａｖａＳｃｒｉｐｔ 教程", ["javascript"])).toBe("<mark>ＪａｖａＳｃｒｉｐｔ</mark> 教程");
  });
  test("snippet picks the window holding most different words and adds ellipses", () => {
    const text = "开头".repeat(100) + "机器学习" + "中间".repeat(100) + "人工智能与机器学习" + "结尾".repeat(100);
    const s = snippet(text, ["人工智能", "机器学习"], 60);
    expect(s.startsWith("…")).toBe(true);
    expect(s.endsWith("…")).toBe(true);
    expect(s).toContain("<mark>人工智能</mark>与<mark>机器学习</mark>");
  });
  test("snippet without a match is the start of the text", () => {
    expect(snippet("第一行\n\n第二行", ["无关"], 60)).toBe("第一行 第二行");
  });
});
