// The pages: /upload (login, rights, island, settings shown), /me/document, /user/{id}/document,
// and the admin screens /admin/document/{list,recycle,language} with the 文档管理 menu.
import { beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { document } from "#db/schema/documents.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { joinGroup, makeCategory, REVIEWED_GROUP, setConfig, uploadDocument, useDocumentsDir } from "./documents-fixtures.ts";

const t = setupTestApp();
useDocumentsDir();
let leaf: number;
const page = (path: string, token?: string) => t.req("GET", path, { token, headers: { accept: "text/html" } });
const island = (html: string, name: string) => html.includes(`data-island="${name}"`);

beforeAll(() => {
  joinGroup(t.userId, REVIEWED_GROUP);
  const root = makeCategory("资料");
  leaf = makeCategory("考试资料", { parent: root.id }).id;
});

describe("/upload", () => {
  test("anonymous visitors go to login and come back", async () => {
    const r = await page("/upload");
    expect(r.status).toBe(302);
    expect(r.res.headers.get("location")).toBe("/login?redirect=%2Fupload");
  });

  test("a member gets the upload island with categories, languages, types and the size limit", async () => {
    setConfig("security", "max_document_size", 20);
    const r = await page("/upload", t.userToken);
    expect(r.status).toBe(200);
    expect(island(r.text, "UploadForm")).toBe(true);
    expect(r.text).toContain("考试资料");
    expect(r.text).toContain("单个文件不超过 20 MB");
    expect(r.text).toContain("需要管理员审核");
    expect(r.text).toContain("pdf、doc、docx");
    expect(r.res.headers.get("cache-control")).not.toContain("public");
  });

  test("a user whose groups cannot upload reads why instead of the form", async () => {
    const u = await t.createUser("reader-only");
    const r = await page("/upload", u.token);
    expect(r.status).toBe(200);
    expect(island(r.text, "UploadForm")).toBe(false);
    expect(r.text).toContain("您所在的用户组没有上传文档的权限");
  });
});

describe("/me/document and /user/{id}/document", () => {
  test("my documents in every status, with the manager island; the homepage lists visible ones only", async () => {
    const a = await uploadDocument(t, t.userToken, { categoryId: leaf, title: "公开的资料" });
    await uploadDocument(t, t.userToken, { categoryId: leaf, title: "审核中的资料" });
    getDb().update(document).set({ status: 2, pages: 4 }).where(eq(document.id, a.id)).run();
    const me = await page("/me/document", t.userToken);
    expect(me.status).toBe(200);
    expect(island(me.text, "UploadManager")).toBe(true);
    expect(me.text).toContain("公开的资料");
    expect(me.text).toContain("审核中的资料");
    expect(me.text).toContain("待审核");
    const home = await page(`/user/${t.userId}/document`);
    expect(home.status).toBe(200);
    expect(home.text).toContain("公开的资料");
    expect(home.text).not.toContain("审核中的资料");
    expect(home.text).toContain(`/document/${a.uuid}`);
    const none = await page(`/user/${t.rootId}/document`);
    expect(none.text).toContain("TA 还没有上传文档");
    expect((await page("/me/document")).status).toBe(302);
  });
});

describe("admin screens", () => {
  test("root opens list, recycle bin and languages; the menu has the 文档管理 group", async () => {
    for (const [path, name] of [["/admin/document/list", "AdminDocumentList"], ["/admin/document/recycle", "AdminDocumentRecycle"], ["/admin/document/language", "AdminTable"]] as const) {
      const r = await page(path, t.rootToken);
      expect(r.status).toBe(200);
      expect(island(r.text, name)).toBe(true);
      expect(r.text).toContain("文档管理");
      expect(r.text).toContain('href="/admin/document/recycle"');
    }
  });

  test("members without admin pages are sent home; anonymous to login", async () => {
    expect((await page("/admin/document/list", t.userToken)).res.headers.get("location")).toBe("/");
    expect((await page("/admin/document/recycle")).res.headers.get("location")).toContain("/login");
  });
});
