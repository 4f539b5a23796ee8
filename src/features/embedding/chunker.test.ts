import { describe, expect, test } from "bun:test";
import { chunkPage } from "./chunker.ts";

const sentence = (i: number) => `这是第${i}句话，用来测试分段是否在句末断开。`;
const page = Array.from({ length: 60 }, (_, i) => sentence(i)).join("");

/** Every chunk is a non-blank slice of the page at its offset. */
function expectSlices(text: string, chunks: { start: number; text: string }[]) {
  for (const c of chunks) {
    expect(c.text.trim().length).toBeGreaterThan(0);
    expect(text.slice(c.start, c.start + c.text.length)).toBe(c.text);
  }
}

describe("chunkPage", () => {
  test("blank text gives no chunks; a short page is one chunk", () => {
    expect(chunkPage("")).toEqual([]);
    expect(chunkPage(" \n\t　 ".replace("　", " "))).toEqual([]);
    expect(chunkPage("  短短一页。\n")).toEqual([{ start: 2, text: "短短一页。" }]);
  });

  test("windows near the size, ending at sentence ends, overlapping, covering the whole page", () => {
    const chunks = chunkPage(page, { size: 300, overlap: 50 });
    expectSlices(page, chunks);
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks.slice(0, -1)) {
      expect(c.text.length).toBeGreaterThanOrEqual(180);
      expect(c.text.length).toBeLessThanOrEqual(305);
      expect(c.text.endsWith("。")).toBe(true);
    }
    for (let i = 1; i < chunks.length; i++) {
      const prevEnd = chunks[i - 1]!.start + chunks[i - 1]!.text.length;
      // Overlap: the next window starts before the previous one ended, but moves forward.
      expect(chunks[i]!.start).toBeLessThan(prevEnd);
      expect(chunks[i]!.start).toBeGreaterThan(chunks[i - 1]!.start);
      expect(prevEnd - chunks[i]!.start).toBeLessThanOrEqual(50);
      // …and at a sentence start.
      expect(chunks[i]!.text.startsWith("这是第")).toBe(true);
    }
    const last = chunks.at(-1)!;
    expect(last.start + last.text.length).toBe(page.length);
  });

  test("no overlap: windows meet end to end", () => {
    const chunks = chunkPage(page, { size: 300, overlap: 0 });
    expectSlices(page, chunks);
    for (let i = 1; i < chunks.length; i++) expect(chunks[i]!.start).toBe(chunks[i - 1]!.start + chunks[i - 1]!.text.length);
  });

  test("without sentence ends it breaks at a comma, else at the size", () => {
    const commas = Array.from({ length: 80 }, (_, i) => `第${i}项内容`).join("，");
    const a = chunkPage(commas, { size: 100, overlap: 10 });
    expectSlices(commas, a);
    for (const c of a.slice(0, -1)) expect(c.text.endsWith("，")).toBe(true);
    const solid = "字".repeat(1000);
    const b = chunkPage(solid, { size: 200, overlap: 20 });
    expectSlices(solid, b);
    expect(b.slice(0, -1).every((c) => c.text.length === 200)).toBe(true);
  });

  test("a short tail rides along with the last window instead of making a tiny chunk", () => {
    const text = `${"甲".repeat(290)}。${"乙".repeat(30)}。`;
    const chunks = chunkPage(text, { size: 300, overlap: 20 });
    expect(chunks.length).toBe(1);
    expect(chunks[0]!.text).toBe(text);
  });

  test("closing quotes stay with their sentence; surrogate pairs are never split", () => {
    const quoted = `${"他说：“今天的会议很重要。”".repeat(30)}`;
    const chunks = chunkPage(quoted, { size: 100, overlap: 0 });
    for (const c of chunks.slice(0, -1)) expect(c.text.endsWith("。”")).toBe(true);
    const emoji = "😀".repeat(300);
    for (const c of chunkPage(emoji, { size: 101, overlap: 11 })) {
      expect(c.text.charCodeAt(0) >= 0xdc00 && c.text.charCodeAt(0) <= 0xdfff).toBe(false);
      expect(c.start + c.text.length <= emoji.length).toBe(true);
      expect([...c.text].every((ch) => ch === "😀")).toBe(true);
    }
  });

  test("an overlap larger than half the size is capped, so windows always advance", () => {
    const chunks = chunkPage(page, { size: 100, overlap: 500 });
    expectSlices(page, chunks);
    for (let i = 1; i < chunks.length; i++) expect(chunks[i]!.start).toBeGreaterThan(chunks[i - 1]!.start);
    expect(chunks.length).toBeLessThan(page.length / 40);
  });
});
