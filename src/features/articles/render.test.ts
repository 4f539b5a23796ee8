import { expect, test } from "bun:test";
import { renderArticle } from "./render.ts";

test("the render cache never answers for another article of the same id and version (a restored backup, another database)", () => {
  const a = renderArticle({ id: 1, version: 1, content: "## 安装\n\n第一篇" });
  const b = renderArticle({ id: 1, version: 1, content: "第二篇" });
  expect(a.html).toContain("第一篇");
  expect(b.html).toContain("第二篇");
  expect(b.html).not.toContain("第一篇");
  expect(renderArticle({ id: 1, version: 1, content: "## 安装\n\n第一篇" })).toBe(a);
});
