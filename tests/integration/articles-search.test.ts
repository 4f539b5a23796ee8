// Search type 1: articles go through the same FTS index as documents, written in the article's own
// transaction, so a body word is found right after publishing, and not after deleting; pending
// articles never show; rebuilding the index keeps them; document searches never meet them.
import { beforeAll, describe, expect, test } from "bun:test";
import { getSqlite } from "#db/client.ts";
import { ARTICLE_ROWS, articleRowid, rebuildIndex } from "#src/features/search/indexer.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { MEMBERS, html, joinGroup, makeArticleCategory, publish } from "./articles-fixtures.ts";

const t = setupTestApp();
let cat = 0;

beforeAll(() => {
  joinGroup(t.userId, MEMBERS);
  cat = makeArticleCategory("物理").id;
});

const search = (wd: string, extra = "") => t.req("GET", `/api/v1/search?type=1&wd=${encodeURIComponent(wd)}${extra}`);
const found = async (wd: string, extra = "") => ((await search(wd, extra)).body.article as { identifier: string }[]).map((a) => a.identifier);
const indexRows = (id: number) => (getSqlite().query("SELECT count(*) AS n FROM search_fts WHERE rowid BETWEEN ? AND ?").get(articleRowid(id, 0), articleRowid(id + 1, 0) - 1) as { n: number }).n;

describe("search type 1", () => {
  test("a body word is found right after publishing, highlighted; documents searches do not see it", async () => {
    const a = await publish(t, t.rootToken, { title: "实验笔记", content: "# 记录\n\n今天完成了量子纠缠实验的第二组测量，数据与理论预测吻合。", category_id: [cat] });
    expect(indexRows(a.id)).toBe(2);
    const r = await search("量子纠缠");
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(1);
    expect(r.body.document).toEqual([]);
    expect(r.body.article[0]).toMatchObject({ identifier: a.identifier, username: "root" });
    expect(r.body.article[0].snippet).toContain("<mark>量子纠缠</mark>");
    expect((await t.req("GET", `/api/v1/search?type=0&wd=${encodeURIComponent("量子纠缠")}`)).body.total).toBe(0);
    // By title, and inside its category only.
    expect(await found("实验笔记")).toEqual([a.identifier]);
    expect(await found("量子纠缠", `&category_id=${cat}`)).toEqual([a.identifier]);
    expect(await found("量子纠缠", `&category_id=${makeArticleCategory("化学").id}`)).toEqual([]);
  });

  test("not after deleting; again after restoring; the rows go when purged", async () => {
    const a = await publish(t, t.rootToken, { title: "超导材料", content: "铜氧化物高温超导体的配对机制仍有争议。" });
    expect(await found("高温超导")).toEqual([a.identifier]);
    expect((await t.req("DELETE", `/api/v1/article?id=${a.id}`, { token: t.rootToken })).status).toBe(200);
    expect(await found("高温超导")).toEqual([]);
    await t.req("PUT", "/api/v1/article/recycle/restore", { token: t.rootToken, body: { id: [a.id] } });
    expect(await found("高温超导")).toEqual([a.identifier]);
    await t.req("DELETE", `/api/v1/article?id=${a.id}`, { token: t.rootToken });
    await t.req("DELETE", `/api/v1/article/recycle?id=${a.id}`, { token: t.rootToken });
    expect(indexRows(a.id)).toBe(0);
    expect(await found("高温超导")).toEqual([]);
  });

  test("pending articles are not found until approved; an edit is searchable at once", async () => {
    const a = await publish(t, t.userToken, { title: "待审文章", content: "暗物质探测器的本底噪声分析。" });
    expect(a.status).toBe(0);
    expect(await found("暗物质")).toEqual([]);
    await t.req("PUT", "/api/v1/article/check", { token: t.rootToken, body: { id: [a.id], status: 1 } });
    expect(await found("暗物质")).toEqual([a.identifier]);
    await t.req("PUT", "/api/v1/article", { token: t.rootToken, body: { id: a.id, content: "引力波信号的匹配滤波。" } });
    expect(await found("暗物质")).toEqual([]);
    expect(await found("引力波")).toEqual([a.identifier]);
  });

  test("a rebuild of the whole index keeps the articles (and only real ones)", async () => {
    const a = await publish(t, t.rootToken, { title: "重建索引", content: "中微子振荡的实验证据。" });
    getSqlite().query("INSERT INTO search_fts (rowid, title, keywords, description, body) VALUES (?, 'ghost', '', '', '')").run(ARTICLE_ROWS + 999_999 * 2 ** 20);
    await rebuildIndex();
    expect(await found("中微子")).toEqual([a.identifier]);
    expect((getSqlite().query("SELECT count(*) AS n FROM search_fts WHERE rowid = ?").get(ARTICLE_ROWS + 999_999 * 2 ** 20) as { n: number }).n).toBe(0);
  });

  test("/search?type=1 shows article hits linking to /article/{identifier}", async () => {
    const a = await publish(t, t.rootToken, { title: "光电效应", content: "爱因斯坦用光量子假说解释了光电效应。" });
    const page = await t.req("GET", `/search?type=1&wd=${encodeURIComponent("光电效应")}`, { headers: html });
    expect(page.status).toBe(200);
    expect(page.text).toContain(`href="/article/${a.identifier}"`);
    expect(page.text).toContain("共找到 1 篇文章");
    // The header box searches articles on this page.
    expect(page.text).toContain('placeholder="搜索文章"');
  });
});
