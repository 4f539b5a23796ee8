// The windowed ranking for words found in very many rows (searchTuning), with the thresholds
// lowered so a small library takes that path: visibility, filters, pages, totals and tiers hold.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { searchDocuments, searchTuning } from "#src/features/search/service.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { makeCategory } from "./documents-fixtures.ts";
import { addDoc } from "./search-fixtures.ts";

setupTestApp();
const saved = { ...searchTuning };
const ids: Record<string, { id: number; uuid: string }> = {};
let cat = 0;

beforeAll(() => {
  cat = makeCategory("诗词").id;
  // 60 documents mention 山 on two pages each; a few stand out.
  for (let i = 0; i < 60; i++) addDoc({ title: `杂记第${i + 1}篇`, pages: ["青山 隐隐 水 迢迢", `远处 的 山 很 高 ${i}`], ext: i % 2 ? "pdf" : "docx" });
  ids.title = addDoc({ title: "山 居 秋暝", pages: ["空山 新雨 后"], createdAt: Date.now() - 10 * 86400_000 });
  ids.both = addDoc({ title: "游记", pages: ["前言", "山 与 水 相映 青山 远处"], categoryIds: [cat] });
  ids.hidden = addDoc({ title: "山 中 隐藏", pages: ["山 山 山"], status: 4 });
  ids.deleted = addDoc({ title: "山 已删除", pages: ["山"], deleted: true });
  Object.assign(searchTuning, { exactRows: 20, windowRows: 30, maxWindowRows: 500 });
});
afterAll(() => void Object.assign(searchTuning, saved));

const run = (wd: string, extra: Partial<Parameters<typeof searchDocuments>[0]> = {}) => searchDocuments({ wd, type: 0, page: 1, size: 10, ...extra });

describe("windowed search (many matching rows)", () => {
  test("only visible documents; a title match comes first; the total is about all of them", () => {
    const r = run("山");
    const uuids = r.document.map((d) => d.uuid);
    expect(uuids).not.toContain(ids.hidden!.uuid);
    expect(uuids).not.toContain(ids.deleted!.uuid);
    expect(uuids[0]).toBe(ids.title!.uuid);
    expect(r.document[0]!.title).toContain("<mark>山</mark>");
    expect(r.total).toBeGreaterThanOrEqual(40);
    expect(r.total).toBeLessThanOrEqual(80);
  });

  test("a page holding every word ranks its document first, and that page is named", () => {
    const r = run("青山 远处");
    expect(r.document[0]!.uuid).toBe(ids.both!.uuid);
    expect(r.document[0]!.page).toBe(2);
    expect(r.document[0]!.snippet).toContain("<mark>远处</mark>");
    expect(r.total).toBeGreaterThanOrEqual(40);
  });

  test("filters widen the window until the page is full or the rows run out", () => {
    const r = run("山", { category_id: cat });
    expect(r.document.map((d) => d.uuid)).toEqual([ids.both!.uuid]);
    const pdf = run("山", { ext: "pdf" });
    expect(pdf.document.length).toBe(10);
    expect(pdf.document.every((d) => d.ext === "pdf")).toBe(true);
  });

  test("later pages and sorts answer from the same candidates", () => {
    const p1 = run("山");
    const p2 = run("山", { page: 2 });
    expect(p2.document.length).toBe(10);
    expect(p2.document.some((d) => p1.document.some((e) => e.uuid === d.uuid))).toBe(false);
    const latest = run("山", { sort: "latest" });
    const times = latest.document.map((d) => d.created_at);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });
});
