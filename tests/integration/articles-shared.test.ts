// The article page is one kept page shared with members (views/personal.tsx): its author and
// article administrators get 编辑, each member their own favourite/report state and comments, and
// nothing of one member reaches another. Pages that are not public render for their author only.
import { beforeAll, describe, expect, test } from "bun:test";
import { clearPageCache } from "#src/http/pageCache.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { MEMBERS, joinGroup, makeArticleCategory, publish, setConfig } from "./articles-fixtures.ts";
import { islandProps } from "#tests/helpers/islandProps.ts";

const t = setupTestApp();
const html = { accept: "text/html" };
const page = (path: string, token?: string) => t.req("GET", path, { headers: html, token });
const cacheOf = (r: { res: Response }) => r.res.headers.get("x-cache");
const editLink = (id: number) => `href="/post?id=${id}"`;

let cat = 0;
const writer = { token: "", id: 0, name: "shared_writer" };
const reader = { token: "", id: 0, name: "shared_reader" };
beforeAll(async () => {
  setConfig("article", "enable_review", false);
  cat = makeArticleCategory("共享测试").id;
  for (const m of [writer, reader]) {
    const u = await t.createUser(m.name);
    joinGroup(u.user.id, MEMBERS);
    Object.assign(m, { token: u.token, id: u.user.id });
  }
});

describe("/article/{identifier} for members", () => {
  test("author, another member, an admin and a visitor: one kept page, each with their own parts", async () => {
    clearPageCache();
    const a = await publish(t, writer.token, { title: "共享页面的文章", category_id: cat });
    const path = `/article/${a.identifier}`;
    const anon = await page(path);
    expect(anon.status).toBe(200);
    expect(anon.text).not.toContain(editLink(a.id));
    expect(islandProps(anon.text, "ArticleActions")).toMatchObject({ loggedIn: false, favorited: false, reported: false });
    expect(islandProps(anon.text, "Comments").viewer).toBeNull();

    const w = await page(path, writer.token);
    const r = await page(path, reader.token);
    const admin = await page(path, t.rootToken);
    expect([cacheOf(w), cacheOf(r), cacheOf(admin)]).toEqual(["SHARED", "SHARED", "SHARED"]);
    expect(w.text).toContain(editLink(a.id));
    expect(admin.text).toContain(editLink(a.id));
    expect(r.text).not.toContain(editLink(a.id));
    expect(islandProps(w.text, "ArticleActions")).toMatchObject({ loggedIn: true, favorited: false });
    expect(islandProps(r.text, "Comments").viewer).toMatchObject({ id: reader.id });
    expect(islandProps(w.text, "Comments").viewer).toMatchObject({ id: writer.id });
    expect(r.text).not.toContain(`"id":${writer.id},"moderator"`);
    for (const x of [anon, w, r, admin]) expect(x.text).not.toMatch(/[\uE000-\uE002]/);
  });

  test("a favourite or a report shows at once for the member who made it, and only the count for others", async () => {
    const a = await publish(t, writer.token, { title: "收藏状态的文章", category_id: cat });
    const path = `/article/${a.identifier}`;
    await page(path);
    expect(islandProps((await page(path, reader.token)).text, "ArticleActions")).toMatchObject({ favorited: false, favoriteCount: 0 });
    expect((await t.req("POST", "/api/v1/article/favorite", { token: reader.token, body: { article_id: a.id } })).status).toBe(200);
    const r = await page(path, reader.token);
    const w = await page(path, writer.token);
    expect([cacheOf(r), cacheOf(w)]).toEqual(["SHARED", "SHARED"]);
    expect(islandProps(r.text, "ArticleActions")).toMatchObject({ favorited: true, favoriteCount: 1 });
    expect(islandProps(w.text, "ArticleActions")).toMatchObject({ favorited: false, favoriteCount: 1 });
    // A report, and taking the favourite back, show at once too (both are the member's own).
    expect((await t.req("POST", "/api/v1/report", { token: reader.token, body: { article_id: a.id, reason: 1 } })).status).toBe(200);
    expect((await t.req("DELETE", `/api/v1/article/favorite?article_id=${a.id}`, { token: reader.token })).status).toBe(200);
    expect(islandProps((await page(path, reader.token)).text, "ArticleActions")).toMatchObject({ favorited: false, favoriteCount: 0, reported: true });
    expect(islandProps((await page(path, writer.token)).text, "ArticleActions")).toMatchObject({ favorited: false, favoriteCount: 0, reported: false });
  });

  test("a comment under review is seen by its author only, on the same kept page", async () => {
    setConfig("comment", "need_review", true);
    try {
      const a = await publish(t, writer.token, { title: "评论审核的文章", category_id: cat });
      const path = `/article/${a.identifier}`;
      expect(islandProps((await page(path, reader.token)).text, "Comments").initial.total ?? 0).toBe(0);
      const c = await t.req("POST", "/api/v1/comment", { token: reader.token, body: { article_id: a.id, content: "等待审核的一条评论" } });
      expect(c.status).toBe(200);
      const r = await page(path, reader.token);
      const w = await page(path, writer.token);
      expect([cacheOf(r), cacheOf(w)]).toEqual(["SHARED", "SHARED"]);
      expect(r.text).toContain("等待审核的一条评论");
      expect(w.text).not.toContain("等待审核的一条评论");
      expect((await page(path)).text).not.toContain("等待审核的一条评论");
    } finally {
      setConfig("comment", "need_review", false);
    }
  });

  test("an article under review: its author and admins get it with the notice (never kept), others a 404", async () => {
    setConfig("article", "enable_review", true);
    try {
      const a = await publish(t, writer.token, { title: "审核中的文章", category_id: cat });
      const path = `/article/${a.identifier}`;
      expect((await page(path)).status).toBe(404);
      expect((await page(path, reader.token)).status).toBe(404);
      for (const token of [writer.token, t.rootToken]) {
        const x = await page(path, token);
        expect(x.status).toBe(200);
        expect(cacheOf(x)).not.toBe("SHARED");
        expect(x.text).toContain("文章正在审核中");
        expect(x.text).toContain(editLink(a.id));
      }
    } finally {
      setConfig("article", "enable_review", false);
    }
  });
});
