// Document languages: the public list of enabled ones, admin CRUD with unique codes, and the rule
// that a language documents use can be switched off but not deleted or re-coded.
import { beforeAll, describe, expect, test } from "bun:test";
import { setupTestApp } from "../helpers/testApp.ts";
import { joinGroup, makeCategory, REVIEWED_GROUP, uploadDocument, useDocumentsDir } from "./documents-fixtures.ts";

const t = setupTestApp();
useDocumentsDir();
beforeAll(() => joinGroup(t.userId, REVIEWED_GROUP));

describe("languages", () => {
  test("the public list has the enabled languages in order; admins see all", async () => {
    const pub = await t.req("GET", "/api/v1/language/list");
    expect(pub.body.language).toEqual([{ code: "zh", name: "中文" }, { code: "en", name: "English" }, { code: "zh-TW", name: "繁體中文" }]);
    const all = await t.req("GET", "/api/v1/language/list", { token: t.rootToken });
    expect(all.body.total).toBe(5);
    expect((await t.req("GET", "/api/v1/language/list?enable=false", { token: t.rootToken })).body.language.map((l: { code: string }) => l.code)).toEqual(["ja", "ko"]);
  });

  test("admins create, rename, switch and delete; members 403; codes are unique and well-formed", async () => {
    expect((await t.req("POST", "/api/v1/language", { token: t.userToken, body: { code: "fr", name: "Français" } })).status).toBe(403);
    const c = await t.req("POST", "/api/v1/language", { token: t.rootToken, body: { code: "fr", name: "Français", sort: 9 } });
    expect(c.status).toBe(200);
    expect((await t.req("POST", "/api/v1/language", { token: t.rootToken, body: { code: "fr", name: "法语" } })).status).toBe(409);
    expect((await t.req("POST", "/api/v1/language", { token: t.rootToken, body: { code: "<x>", name: "坏" } })).body.message).toBe("语言代码格式不正确，例如 zh、en、zh-TW");
    expect((await t.req("PUT", "/api/v1/language", { token: t.rootToken, body: { id: c.body.id, name: "法语", enable: false } })).body).toMatchObject({ name: "法语", enable: false });
    expect((await t.req("GET", "/api/v1/language/list")).body.language.some((l: { code: string }) => l.code === "fr")).toBe(false);
    expect((await t.req("DELETE", `/api/v1/language?id=${c.body.id}`, { token: t.rootToken })).status).toBe(200);
  });

  test("a language in use cannot be deleted or re-coded, only switched off", async () => {
    const cat = makeCategory("语言测试").id;
    const d = await uploadDocument(t, t.userToken, { categoryId: cat });
    expect(d).toBeTruthy();
    const zh = (await t.req("GET", "/api/v1/language/list", { token: t.rootToken })).body.language.find((l: { code: string }) => l.code === "zh");
    const del = await t.req("DELETE", `/api/v1/language?id=${zh.id}`, { token: t.rootToken });
    expect(del.status).toBe(400);
    expect(del.body.message).toContain("不能删除；可以改为停用");
    expect((await t.req("PUT", "/api/v1/language", { token: t.rootToken, body: { id: zh.id, code: "cn" } })).body.message).toBe("已有文档使用该语言代码，不能修改代码；可以修改名称");
    expect((await t.req("PUT", "/api/v1/language", { token: t.rootToken, body: { id: zh.id, enable: false } })).status).toBe(200);
    // With 中文 off, a document without a language takes the first enabled one.
    const next = await uploadDocument(t, t.userToken, { categoryId: cat });
    expect((await t.req("GET", `/api/v1/document?id=${next.id}`, { token: t.userToken })).body.language).toBe("en");
  });
});
