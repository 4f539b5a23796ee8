// markdownToPng: a PNG exactly 640 px wide whose height follows the content (capped), with real
// Chinese glyphs (not empty boxes).
import { describe, expect, test } from "bun:test";
import sharp from "sharp";
import { MAX_HEIGHT, markdownToPng } from "./image.ts";

function ihdr(png: Uint8Array) {
  const v = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: v.getUint32(16), height: v.getUint32(20), type: String.fromCharCode(...png.slice(12, 16)) };
}

/** Grey levels of a horizontal band of the image. */
async function band(png: Uint8Array, top: number, height: number) {
  const { data } = await sharp(png).extract({ left: 0, top, width: 640, height }).greyscale().raw().toBuffer({ resolveWithObject: true });
  return data;
}

const MD = `# 机器学习概述

机器学习是人工智能的一个分支，**重点**在于让计算机从数据中学习规律。

- 监督学习
- 无监督学习

1. 收集数据
2. 训练模型

\`\`\`js
console.log("你好");
\`\`\`

| 方法 | 准确率 |
|---|---|
| 甲 | 90% |

公式 $E = mc^2$ 引用[1]。<script>alert(1)</script>
`;

describe("markdownToPng", () => {
  test("PNG signature, width exactly 640 from IHDR, height fits the content", async () => {
    const png = await markdownToPng(MD, { title: "导出测试", siteName: "魔豆文库" });
    expect([...png.slice(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const h = ihdr(png);
    expect(h.type).toBe("IHDR");
    expect(h.width).toBe(640);
    expect(h.height).toBeGreaterThan(300);
    expect(h.height).toBeLessThan(1500);
    const short = ihdr(await markdownToPng("一句话。", { siteName: "魔豆文库" }));
    expect(short.width).toBe(640);
    expect(short.height).toBeGreaterThan(100);
    expect(short.height).toBeLessThan(h.height);
  });

  test("Chinese text is drawn with real glyphs: different characters give different pixels", async () => {
    const a = await markdownToPng("天地玄黄宇宙洪荒日月盈昃辰宿列张", { siteName: "文库" });
    const b = await markdownToPng("寒来暑往秋收冬藏闰余成岁律吕调阳", { siteName: "文库" });
    expect(ihdr(a).height).toBe(ihdr(b).height);
    // The body line sits below the header; its band has ink (variance) and differs between the texts.
    const top = 60;
    const ba = await band(a, top, 40);
    const bb = await band(b, top, 40);
    const mean = ba.reduce((s, x) => s + x, 0) / ba.length;
    const variance = ba.reduce((s, x) => s + (x - mean) ** 2, 0) / ba.length;
    expect(variance).toBeGreaterThan(200);
    let diff = 0;
    for (let i = 0; i < ba.length; i++) if (Math.abs(ba[i]! - bb[i]!) > 64) diff++;
    expect(diff).toBeGreaterThan(500);
  });

  test("very long content is capped at the maximum height", async () => {
    const para = "这是一段用于测试的中文内容，包含一些 English words 和数字 12345。".repeat(8);
    const md = Array.from({ length: 300 }, (_, i) => `## 第 ${i} 节\n\n${para}`).join("\n\n");
    const h = ihdr(await markdownToPng(md, { siteName: "文库" }));
    expect(h.width).toBe(640);
    expect(h.height).toBe(MAX_HEIGHT);
  });
});
