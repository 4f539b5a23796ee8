// The export lexer: math, footnotes and citations beside ordinary markdown, without stealing links,
// code or dollar amounts.
import { describe, expect, test } from "bun:test";
import type { Token, Tokens } from "marked";
import { exportFileName } from "./service.ts";
import { collectFootnoteDefs, firstHeading, lexMarkdown, stripHtml } from "./markdown.ts";

const inlineOf = (md: string) => (lexMarkdown(md)[0] as Tokens.Paragraph).tokens;
const types = (tokens: Token[]) => tokens.map((t) => t.type);

describe("lexMarkdown", () => {
  test("citations: [n] and [n, m]; a link [1](url) and a defined reference [1] stay links", () => {
    const cite = inlineOf("见[1]和[2, 3]。").filter((t) => t.type === "citation") as unknown as { numbers: number[] }[];
    expect(cite.map((c) => c.numbers)).toEqual([[1], [2, 3]]);
    expect(types(inlineOf("[1](https://a.cn)"))).toEqual(["link"]);
    expect(types(inlineOf("[1]\n\n[1]: https://a.cn"))).toEqual(["link"]);
  });

  test("math: $…$, \\(…\\), $$…$$ and \\[…\\]; not dollar amounts, escaped dollars or code", () => {
    const math = (md: string) => inlineOf(md).filter((t) => t.type === "math").map((t) => (t as unknown as { tex: string; display: boolean }));
    expect(math("设 $x_1 + y_2$ 与 \\(a_i\\)")).toEqual([expect.objectContaining({ tex: "x_1 + y_2", display: false }), expect.objectContaining({ tex: "a_i", display: false })]);
    expect(math("行内 $$a^2$$ 与 \\[b^2\\]").map((m) => m.display)).toEqual([true, true]);
    expect(math("花了 $5 和 $10")).toEqual([]);
    expect(math("价格 \\$5 与 \\$x\\$")).toEqual([]);
    expect(math("代码 `$x$`")).toEqual([]);
    const block = lexMarkdown("前文\n$$\n\\frac{a}{b}\n$$\n后文");
    expect(types(block)).toEqual(["paragraph", "math", "paragraph"]);
  });

  test("footnotes: [^n] references and [^n]: definitions (also right after a paragraph line)", () => {
    const tokens = lexMarkdown("正文[^a]。\n[^a]: 注释 **一**\n  续行");
    expect(types((tokens[0] as Tokens.Paragraph).tokens)).toContain("footnoteRef");
    const defs = collectFootnoteDefs(tokens);
    expect([...defs.keys()]).toEqual(["a"]);
    expect(types(defs.get("a")!)).toContain("strong");
  });

  test("helpers: HTML stripped to text, first heading, file names", () => {
    expect(stripHtml("<b>粗</b>体<br/>下一行 &lt;x&gt; &amp; &#20013;")).toBe("粗体\n下一行 <x> & 中");
    expect(firstHeading("正文\n\n## 第二节 **重点**\n\n# 第一")).toBe("第二节 重点");
    expect(exportFileName("# a/b", undefined)).toBe("a_b");
    expect(exportFileName("正文", "  ..报告:终版?  ")).toBe("报告_终版");
    expect(exportFileName("正文")).toBe("AI回答");
  });
});
