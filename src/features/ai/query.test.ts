import { describe, expect, test } from "bun:test";
import { keywordsOf, standaloneQuery } from "./query.ts";

describe("standalone search query", () => {
  test("a full question keeps its own words, without question words", () => {
    const q = standaloneQuery("高中物理中动量守恒定律的适用条件有哪些？", []);
    expect(q.split(" ")).toEqual(expect.arrayContaining(["动量", "守恒定律"]));
    expect(q).not.toContain("哪些");
  });
  test("a follow-up pointing back takes the previous question's words", () => {
    const q = standaloneQuery("它的公式呢？", ["库仑定律是什么"]);
    expect(q).toContain("库仑定律");
  });
  test("a new, self-contained question does not drag the old topic in", () => {
    const q = standaloneQuery("光合作用发生在植物细胞的哪个结构中？", ["库仑定律是什么"]);
    expect(q).not.toContain("库仑");
  });
  test("keywords of an empty or punctuation-only text are empty", () => {
    expect(keywordsOf("？？？")).toEqual([]);
  });
});
