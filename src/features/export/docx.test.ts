// markdownToDocx: real Word structures (tables, hyperlinks, equations, footnotes for `[^n]` and for
// citations), checked in the unzipped package, and read back by LibreOffice when it is installed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { markdownToDocx } from "./docx.ts";
import { texToOmml } from "./docxMath.ts";

const MD = `# 机器学习概述

这是**粗体**、*斜体*和 \`code<x>\`，详见[官网](https://example.com/a?b=1&c=2)。深度学习的定义见文献[1]，另见[2, 3]，未知的[9]保持原样。这里有一个脚注[^1]。
行内公式 $E = mc^2$ 与 \\(a < b\\)，价格 $5 和 $10 不是公式。

$$
\\int_0^1 x^2 \\, dx = \\frac{1}{3}
$$

\\[ \\sum_{i=1}^n x_i \\]

坏公式 $\\frac{a$ 保持原文。

## 对比

| 方法 | 准确率 |
|:---|---:|
| 甲 | 90% |
| 乙 | **95%** |

1. 第一步
2. 第二步
   - 子项 A
   - 子项 B

> 引用的一段话

\`\`\`python
def f(x):
    return x * 2  # <b>不是 HTML</b>
\`\`\`

---

<script>alert(1)</script>

[^1]: 这是脚注的内容。
`;

const REFS = [
  { title: "深度学习导论", uuid: "aaaa", page: 3 },
  { title: "统计学习方法", uuid: "bbbb", page: 12 },
  { title: "模式识别", uuid: "cccc", page: 7 },
];

let dir = "";
let file = "";

function unzip(name: string): string {
  const p = Bun.spawnSync(["unzip", "-p", file, name]);
  return p.exitCode === 0 ? p.stdout.toString() : "";
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "wk-docx-"));
  file = join(dir, "answer.docx");
  writeFileSync(file, await markdownToDocx(MD, { title: "导出测试", references: REFS, siteUrl: "https://wk.example.com/" }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("markdownToDocx", () => {
  test("is a zip package with the Word parts", async () => {
    const bytes = new Uint8Array(await Bun.file(file).arrayBuffer());
    expect([...bytes.slice(0, 2)]).toEqual([0x50, 0x4b]);
    const list = Bun.spawnSync(["unzip", "-l", file]).stdout.toString();
    for (const part of ["word/document.xml", "word/footnotes.xml", "word/numbering.xml", "[Content_Types].xml"]) expect(list).toContain(part);
  });

  test("headings, title, table, lists, code, links, rule", () => {
    const doc = unzip("word/document.xml");
    expect(doc).toContain('<w:pStyle w:val="Title"/>');
    expect(doc).toContain("导出测试");
    expect(doc).toContain('<w:pStyle w:val="Heading1"/>');
    expect(doc).toContain('<w:pStyle w:val="Heading2"/>');
    expect(doc).toContain("<w:tbl>");
    expect(doc).toContain("<w:numPr>");
    expect(doc).toContain("<w:b/>");
    expect(doc).toContain('w:ascii="Consolas"');
    expect(doc).toContain("return x * 2  # &lt;b&gt;不是 HTML&lt;/b&gt;");
    expect(doc).toMatch(/<w:hyperlink [^>]*r:id="[^"]+"/);
    expect(unzip("word/_rels/document.xml.rels")).toContain('Target="https://example.com/a?b=1&amp;c=2" TargetMode="External"');
    expect(doc).toContain("<w:pBdr><w:bottom");
    // Raw HTML never passes through: the tags are dropped.
    expect(doc).not.toContain("<script");
    expect(doc).toContain("alert(1)");
  });

  test("math becomes Word equations; bad TeX and dollar amounts stay text", () => {
    const doc = unzip("word/document.xml");
    expect(doc).toContain("<m:oMath>");
    expect(doc).toContain("<m:oMathPara><m:oMath>");
    expect(doc).toContain("<m:f>");
    expect(doc).toContain('<m:chr m:val="∫"/>');
    // `\sum_{i=1}^n x_i`: the operand is the sum's body, not an empty placeholder.
    expect(doc).toMatch(/<m:chr m:val="∑"\/>.*?<m:e><m:sSub>/);
    expect(doc).toContain("a&lt;b");
    expect(doc).toContain("\\frac{a");
    expect(doc).toContain("$5 和 $10 不是公式");
  });

  test("[^1] and known citations are real footnotes; unknown citations stay text", () => {
    const notes = unzip("word/footnotes.xml");
    const doc = unzip("word/document.xml");
    expect(notes).toContain("这是脚注的内容。");
    expect(notes).toContain("《深度学习导论》第 3 页");
    expect(notes).toContain("《统计学习方法》第 12 页");
    expect(notes).toContain("《模式识别》第 7 页");
    expect(unzip("word/_rels/footnotes.xml.rels")).toContain("https://wk.example.com/document/aaaa?page=3");
    expect(doc.match(/<w:footnoteReference w:id="\d+"\/>/g)?.length).toBe(4);
    expect(doc).toContain("[9]");
    expect(doc).not.toContain("[^1]");
  });

  test("an empty answer still gives a valid document; no references leaves [n] as text", async () => {
    const empty = await markdownToDocx("");
    expect(empty.length).toBeGreaterThan(1000);
    const plain = join(dir, "plain.docx");
    writeFileSync(plain, await markdownToDocx("见[1]。"));
    const doc = Bun.spawnSync(["unzip", "-p", plain, "word/document.xml"]).stdout.toString();
    expect(doc).toContain(">[1]</w:t>");
    expect(doc).not.toContain("footnoteReference");
  });

  test("texToOmml", () => {
    expect(texToOmml("x^2")).toStartWith("<m:oMath>");
    expect(texToOmml("\\frac{a")).toBeNull();
    expect(texToOmml("\\unknownmacro{x}")).toBeNull();
    expect(texToOmml("")).toBeNull();
  });

  test.skipIf(!Bun.which("soffice"))("LibreOffice opens it: text, table and footnotes come back", () => {
    const out = join(dir, "lo");
    const run = Bun.spawnSync(["soffice", "--headless", `-env:UserInstallation=file://${join(dir, "profile")}`, "--convert-to", "odt", "--outdir", out, file], { timeout: 60_000 });
    expect(run.exitCode).toBe(0);
    const content = Bun.spawnSync(["unzip", "-p", join(out, "answer.odt"), "content.xml"]).stdout.toString();
    expect(content).toContain("机器学习概述");
    expect(content).toContain("<table:table ");
    expect(content).toContain("《深度学习导论》第 3 页");
    expect(content).toContain("这是脚注的内容。");
    expect(content).toContain('xlink:href="https://example.com/a?b=1&amp;c=2"');
  });
});
