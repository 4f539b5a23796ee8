// markdownToPng: a PNG exactly 640 px wide whose height follows the content (capped), with real
// Chinese glyphs (not empty boxes); rendered in one worker thread that goes away when idle, with
// jobs queued, timed out and failed cleanly, and the event loop free while it renders.
import { afterEach, describe, expect, test } from "bun:test";
import sharp from "sharp";
import { imageWorkerState, MAX_HEIGHT, markdownToPng, setImageWorkerTimeouts } from "./image.ts";

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

/** A long answer (≈6,000 characters: headings, paragraphs, lists, code, a table): a 7,000 px card. */
function longAnswer() {
  const para = "机器学习是人工智能的一个重要分支，**核心思想**是让计算机从数据中自动学习规律，而不是依靠人工编写的规则。";
  return Array.from({ length: 40 }, (_, i) => `## 第 ${i + 1} 部分\n\n${para}${para}\n\n- 监督学习\n- 无监督学习\n\n\`\`\`js\nconsole.log(${i});\n\`\`\``).join("\n\n");
}

describe("the render worker", () => {
  afterEach(() => setImageWorkerTimeouts());

  test("one worker, started on first use, runs queued jobs one by one; it exits when idle and comes back", async () => {
    setImageWorkerTimeouts({ idleMs: 300 });
    const jobs = ["甲", "乙", "丙"].map((t) => markdownToPng(`第${t}段。`, { siteName: "文库" }));
    // The first one is with the worker, the other two wait their turn.
    expect(imageWorkerState()).toMatchObject({ busy: true, queued: 2 });
    const pngs = await Promise.all(jobs);
    for (const png of pngs) expect(ihdr(png).width).toBe(640);
    const s = imageWorkerState();
    expect(s.alive).toBe(true);
    expect(s.busy).toBe(false);
    expect(s.queued).toBe(0);
    await Bun.sleep(600);
    expect(imageWorkerState().alive).toBe(false);
    const again = await markdownToPng("空闲之后再导出。", { siteName: "文库" });
    expect(ihdr(again).width).toBe(640);
    expect(imageWorkerState()).toMatchObject({ alive: true, started: s.started + 1 });
  });

  test("the event loop keeps ticking while a large card renders", async () => {
    await markdownToPng("预热。", { siteName: "文库" });
    let last = performance.now();
    let maxGap = 0;
    let ticks = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
      ticks++;
    }, 10);
    const t0 = performance.now();
    try {
      const png = await markdownToPng(longAnswer(), { title: "长回答", siteName: "文库" });
      expect(ihdr(png).height).toBeGreaterThan(3000);
    } finally {
      clearInterval(timer);
    }
    // The render itself takes a few hundred milliseconds, all of them off this thread.
    expect(performance.now() - t0).toBeGreaterThan(100);
    expect(ticks).toBeGreaterThan(5);
    expect(maxGap).toBeLessThan(80);
  });

  test("a job over its time limit fails with 生成图片超时; the next job gets a fresh worker", async () => {
    await markdownToPng("预热。", { siteName: "文库" });
    const before = imageWorkerState().started;
    setImageWorkerTimeouts({ jobMs: 5 });
    const err = await markdownToPng(longAnswer(), { siteName: "文库" }).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe("生成图片超时");
    expect(imageWorkerState().alive).toBe(false);
    setImageWorkerTimeouts();
    expect(ihdr(await markdownToPng("超时之后。", { siteName: "文库" })).width).toBe(640);
    expect(imageWorkerState().started).toBe(before + 1);
  });

  test("a render error rejects that job with a clear error; the jobs behind it still run", async () => {
    const bad = markdownToPng(null as unknown as string, { siteName: "文库" });
    const good = markdownToPng("正常的一段。", { siteName: "文库" });
    const err = await bad.then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toStartWith("生成图片失败：");
    expect(ihdr(await good).width).toBe(640);
  });
});
