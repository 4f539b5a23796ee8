import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { useTempDatabase } from "#tests/helpers/testDb.ts";
import { buildPrompt, excerpt } from "./prompt.ts";
import { cutToTokens, estimateTokens } from "./tokens.ts";
import { dayStart, monthStart } from "./quota.ts";

// Folding reads the search settings, so a database is needed.
let db: ReturnType<typeof useTempDatabase>;
beforeAll(() => void (db = useTempDatabase()));
afterAll(() => db.cleanup());

const page = (n: number, text: string) => ({ document_id: n, uuid: `u${n}`, title: `文档${n}`, page: n, text, score: 1 });

describe("token estimates", () => {
  test("one per Han character, one per four other characters", () => {
    expect(estimateTokens("你好世界")).toBe(4);
    expect(estimateTokens("abcdefgh")).toBe(2);
    expect(estimateTokens("")).toBe(0);
  });
  test("cutToTokens keeps the longest prefix within the budget", () => {
    expect(cutToTokens("一二三四五六", 4)).toBe("一二三四");
    expect(cutToTokens("短", 10)).toBe("短");
  });
});

describe("excerpt", () => {
  test("a long page is cut around where the query words are", () => {
    const text = `${"无关内容。".repeat(400)}动量守恒定律要求系统不受外力。${"其他内容。".repeat(400)}`;
    const out = excerpt(text, ["动量守恒"], 100);
    expect(out).toContain("动量守恒定律要求系统不受外力");
    expect(estimateTokens(out)).toBeLessThanOrEqual(102);
    expect(out.startsWith("…")).toBe(true);
  });
  test("a short page stays whole", () => {
    expect(excerpt("  第一行\n\n\n\n第二行  ", ["x"], 100)).toBe("第一行\n\n第二行");
  });
});

describe("buildPrompt", () => {
  const base = { systemPrompt: "你是{sitename}的助手。", sitename: "魔豆文库", question: "问题？", history: [], words: ["内容"] };
  test("pages are numbered [1]…[k] with title and page, after the system prompt; the question is last", () => {
    const p = buildPrompt({ ...base, pages: [page(1, "第一页内容"), page(2, "第二页内容")], budget: 1000 });
    expect(p.messages[0]!.role).toBe("system");
    expect(p.messages[0]!.content).toStartWith("你是魔豆文库的助手。");
    expect(p.messages[0]!.content).toContain("[1] 《文档1》第 1 页：\n第一页内容");
    expect(p.messages[0]!.content).toContain("[2] 《文档2》第 2 页：\n第二页内容");
    expect(p.messages.at(-1)).toEqual({ role: "user", content: "问题？" });
    expect(p.used.map((x) => x.page)).toEqual([1, 2]);
  });
  test("the budget bounds the pages: what does not fit is left out, not cited", () => {
    const long = "内容".repeat(2000);
    const p = buildPrompt({ ...base, pages: Array.from({ length: 10 }, (_, i) => page(i + 1, long)), budget: 600 });
    expect(estimateTokens(p.messages[0]!.content)).toBeLessThan(600 + 100);
    expect(p.used.length).toBeLessThan(10);
    expect(p.used.length).toBeGreaterThan(0);
  });
  test("no pages: the model is told to say nothing was found", () => {
    const p = buildPrompt({ ...base, pages: [], budget: 1000 });
    expect(p.messages[0]!.content).toContain("没有检索到");
    expect(p.used).toEqual([]);
  });
  test("history: newest turns first within the budget, their old citation marks removed", () => {
    const history = [{ question: "旧问题一", answer: "旧回答一 [1]" }, { question: "旧问题二", answer: "旧回答二 [2]" }];
    const p = buildPrompt({ ...base, pages: [page(1, "内容")], history, budget: 1000 });
    expect(p.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user", "assistant", "user"]);
    expect(p.messages[2]!.content).toBe("旧回答一 ");
    const tight = buildPrompt({ ...base, pages: [], history: [{ question: "问".repeat(500), answer: "答" }, { question: "近", answer: "答" }], budget: 100 });
    expect(tight.messages.map((m) => m.content)).toContain("近");
    expect(tight.messages.some((m) => m.content.startsWith("问问"))).toBe(false);
  });
});

describe("quota periods in Asia/Shanghai", () => {
  test("a day starts at 00:00 +08:00 and a month on its first day", () => {
    // 2026-11-24 01:30 in Shanghai is 2026-11-23 17:30 UTC.
    const at = Date.UTC(2026, 10, 23, 17, 30);
    expect(new Date(dayStart(at)).toISOString()).toBe("2026-11-23T16:00:00.000Z");
    expect(new Date(monthStart(at)).toISOString()).toBe("2026-10-31T16:00:00.000Z");
  });
});
