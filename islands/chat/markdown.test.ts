import { describe, expect, test } from "bun:test";
import temml from "temml";
import { hasMath, refHref, renderMarkdown, safeHref } from "./markdown.ts";

const REFS = [
  { title: "高中物理公式大全", uuid: "0123456789abcdef0123456789abcdef", page: 3, score: 0.9 },
  { title: "《规章》<制度>", uuid: "fedcba9876543210fedcba9876543210", page: 12, score: 0.4 },
];
const math = (tex: string, display: boolean) => temml.renderToString(tex, { displayMode: display, throwOnError: true });

describe("citations", () => {
  test("[n] within the references becomes a link to the cited page, with the page in its title", () => {
    const html = renderMarkdown("加速度与合外力成正比 [1]，见规章[2]。", REFS);
    expect(html).toContain('<a class="chat-cite" href="/document/0123456789abcdef0123456789abcdef?page=3" title="《高中物理公式大全》第 3 页">[1]</a>');
    expect(html).toContain('href="/document/fedcba9876543210fedcba9876543210?page=12" title="《《规章》&lt;制度&gt;》第 12 页">[2]</a>');
  });

  test("adjacent, grouped and full-width forms; numbers outside the references stay text", () => {
    const html = renderMarkdown("甲[1][2]，乙[1, 2]，丙【2】，丁[3]，戊[0]", REFS);
    expect(html.match(/class="chat-cite"/g)?.length).toBe(5);
    expect(html).toContain("丁[3]");
    expect(html).toContain("戊[0]");
    expect(renderMarkdown("没有参考 [1]", [])).toBe("<p>没有参考 [1]</p>\n");
  });

  test("a real markdown link [1](url) stays a link; citations inside code stay code", () => {
    expect(renderMarkdown("[1](https://example.com)", REFS)).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">1</a>');
    expect(renderMarkdown("`arr[1]`", REFS)).toBe("<p><code>arr[1]</code></p>\n");
  });

  test("refHref clamps a bad page to 1", () => {
    expect(refHref({ title: "x", uuid: "u", page: 0 })).toBe("/document/u?page=1");
  });
});

describe("escaping and links", () => {
  test("raw HTML is shown as text, block or inline", () => {
    expect(renderMarkdown("<script>alert(1)</script>")).toBe("<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>");
    const inline = renderMarkdown('你好 <img src=x onerror="alert(1)"> <b>粗</b>');
    expect(inline).not.toContain("<img");
    expect(inline).not.toContain("<b>");
    expect(inline).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
  });

  test("javascript:, data: and other schemes are dropped (the text stays); http(s) and paths are kept", () => {
    const html = renderMarkdown("[a](javascript:alert(1)) [b](JaVaScRiPt&#58;alert(1)) [c](data:text/html,x) [d](vbscript:x) <javascript:alert(1)> [e](/document/x?page=2) [f](http://example.com/?q=\"x\")");
    expect(html).not.toMatch(/href="(?:javascript|data|vbscript)/i);
    expect(html).toContain("a b c d");
    expect(html).toContain('<a href="/document/x?page=2">e</a>');
    expect(html).toContain('href="http://example.com/?q=&quot;x&quot;"');
    expect(safeHref(" java\tscript:alert(1)")).toBeNull();
    expect(safeHref("&#106;avascript:alert(1)")).toBeNull();
    expect(safeHref("https://a.b/c")).toBe("https://a.b/c");
  });

  test("images: only same-site paths; others leave their alt text", () => {
    expect(renderMarkdown("![图](https://evil.example/x.png)")).toBe("<p>图</p>\n");
    expect(renderMarkdown("![图](//evil.example/x.png)")).toBe("<p>图</p>\n");
    expect(renderMarkdown("![图](/assets/a.png)")).toBe('<p><img src="/assets/a.png" alt="图" loading="lazy"></p>\n');
  });

  test("headings start at h3 (the page has the h1/h2)", () => {
    expect(renderMarkdown("# 标题\n## 小节")).toBe("<h3>标题</h3>\n<h4>小节</h4>\n");
  });
});

describe("code, tables, lists", () => {
  test("fenced code keeps its language and escapes its content", () => {
    const html = renderMarkdown("```js\nconst a = '<b>' && 1;\n```");
    expect(html).toBe('<pre><code class="language-js">const a = &#39;&lt;b&gt;&#39; &amp;&amp; 1;\n</code></pre>\n');
  });

  test("GFM tables are wrapped for horizontal scrolling; cells are escaped", () => {
    const html = renderMarkdown("| 物理量 | 单位 |\n|---|---|\n| 力 | <i>N</i> |");
    expect(html.startsWith('<div class="md-table"><table>')).toBe(true);
    expect(html).toContain("<th>物理量</th>");
    expect(html).toContain("<td>&lt;i&gt;N&lt;/i&gt;</td>");
  });

  test("lists and line breaks", () => {
    expect(renderMarkdown("1. 甲\n2. 乙")).toBe("<ol>\n<li>甲</li>\n<li>乙</li>\n</ol>\n");
    expect(renderMarkdown("- 甲\n- 乙 [1]", REFS)).toContain("<li>乙 <a class=\"chat-cite\"");
    expect(renderMarkdown("第一行\n第二行")).toBe("<p>第一行<br>第二行</p>\n");
  });
});

describe("math", () => {
  test("all four delimiters are found", () => {
    for (const s of ["$E=mc^2$", "$$x^2$$", "\\(a+b\\)", "\\[\\frac12\\]"]) expect(hasMath(`前 ${s} 后`)).toBe(true);
    for (const s of ["价格 $5 和 $10", "没有公式", "`code`"]) expect(hasMath(s)).toBe(false);
  });

  test("without a renderer, math shows as its TeX source (escaped)", () => {
    expect(renderMarkdown("质能 $E<mc^2$")).toBe('<p>质能 <span class="math-tex">$E&lt;mc^2$</span></p>\n');
  });

  test("with temml: inline $…$ and \\(…\\), display $$…$$ and \\[…\\] become MathML", () => {
    const html = renderMarkdown("质能 $E=mc^2$ 与 \\(a^2\\)\n\n$$\n\\frac{1}{2}\n$$\n\n\\[x_1\\]", [], math);
    expect(html).toContain('<span class="math"><math><mrow><mi>E</mi>');
    expect(html).toContain('<span class="math"><math><msup><mi>a</mi>');
    expect(html).toContain('<div class="math math-display"><math display="block"');
    expect(html).toContain("<mfrac><mn>1</mn><mn>2</mn></mfrac>");
    expect(html.match(/<math/g)?.length).toBe(4);
  });

  test("dollar amounts are not math; broken TeX falls back to its source; code is not math", () => {
    expect(renderMarkdown("价格 $5 和 $10", [], math)).toBe("<p>价格 $5 和 $10</p>\n");
    expect(renderMarkdown("坏的 $\\frac{$", [], math)).toContain('<span class="math-tex">$\\frac{$</span>');
    expect(renderMarkdown("`$x$`", [], math)).toBe("<p><code>$x$</code></p>\n");
  });

  test("math renderers cannot inject links or scripts (temml without trust)", () => {
    const html = renderMarkdown("$\\href{javascript:alert(1)}{x}$ $\\text{<script>}$", [], math);
    expect(html).not.toMatch(/href=/);
    expect(html).toContain('<span class="math-tex">$\\href{javascript:alert(1)}{x}$</span>');
    expect(html).not.toContain("<script>");
  });
});
