// The recycle bin: list, restore, delete for ever (files only when no other document uses them,
// attachment rows, optional banned hash) — admin only.
import { beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { getDb } from "#db/client.ts";
import { document } from "#db/schema/documents.ts";
import { documentDir, originalPath } from "#src/features/documents/paths.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { count, joinGroup, makeCategory, pdfBytes, REVIEWED_GROUP, upload, useDocumentsDir } from "./documents-fixtures.ts";

const t = setupTestApp();
useDocumentsDir();
let leaf: number;

beforeAll(() => {
  joinGroup(t.userId, REVIEWED_GROUP);
  leaf = makeCategory("回收测试").id;
});

/** Two documents from the same bytes (instant upload) and one from other bytes, all deleted. */
async function makeDeleted(seed: string) {
  const same = pdfBytes(`${seed}-same`);
  const a1 = (await upload(t, t.userToken, same, "a.pdf")).body;
  const a2 = (await upload(t, t.userToken, same, "b.pdf")).body;
  const a3 = (await upload(t, t.userToken, pdfBytes(`${seed}-other`), "c.pdf")).body;
  const r = await t.req("POST", "/api/v1/document", {
    token: t.userToken,
    body: { document: [a1, a2, a3].map((a, i) => ({ title: `${seed}-${i}`, attachment_id: a.id, category_id: leaf })) },
  });
  const ids = r.body.document.map((d: { id: number }) => d.id) as number[];
  // Conversion output beside the original: removed together with it.
  for (const h of [a1.hash, a3.hash]) {
    mkdirSync(join(documentDir(h), "pages"), { recursive: true });
    writeFileSync(join(documentDir(h), "pages", "1.svg"), "<svg/>");
  }
  expect((await t.req("DELETE", `/api/v1/document?id=${ids.join("&id=")}`, { token: t.userToken })).status).toBe(200);
  return { ids, same: a1.hash as string, other: a3.hash as string };
}

describe("recycle bin", () => {
  test("lists deleted documents with who deleted them; members 403", async () => {
    const { ids } = await makeDeleted("list");
    const r = await t.req("GET", "/api/v1/document/recycle/list?wd=list", { token: t.rootToken });
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(3);
    expect(r.body.document[0]).toMatchObject({ deleted_username: "member", username: "member" });
    expect(r.body.document.map((d: { id: number }) => d.id).sort()).toEqual([...ids].sort());
    expect((await t.req("GET", "/api/v1/document/recycle/list", { token: t.userToken })).status).toBe(403);
    expect((await t.req("GET", "/api/v1/document/list", { token: t.rootToken })).body.document.some((d: { id: number }) => ids.includes(d.id))).toBe(false);
  });

  test("restore brings documents back; documents outside the bin are refused", async () => {
    const { ids } = await makeDeleted("restore");
    expect((await t.req("PUT", "/api/v1/document/recycle/restore", { token: t.userToken, body: { id: ids } })).status).toBe(403);
    const r = await t.req("PUT", "/api/v1/document/recycle/restore", { token: t.rootToken, body: { id: ids } });
    expect(r.body.restored).toBe(3);
    expect(getDb().select().from(document).where(eq(document.id, ids[0]!)).get()).toMatchObject({ deleted_at: null, deleted_user_id: 0 });
    const again = await t.req("PUT", "/api/v1/document/recycle/restore", { token: t.rootToken, body: { id: ids } });
    expect([again.status, again.body.message]).toEqual([400, "只能操作回收站中的文档"]);
    expect((await t.req("DELETE", `/api/v1/document/recycle?id=${ids[0]}`, { token: t.rootToken })).status).toBe(400);
  });

  test("delete for ever removes files only when no other document uses the same hash", async () => {
    const { ids, same, other } = await makeDeleted("purge");
    // One of the two same-file documents goes: the file stays for the other.
    const first = await t.req("DELETE", `/api/v1/document/recycle?id=${ids[0]}`, { token: t.rootToken });
    expect(first.body).toMatchObject({ deleted: 1, removedFiles: 0 });
    expect(existsSync(originalPath(same, "pdf"))).toBe(true);
    expect(count("select count(*) as n from document where id = ?", ids[0]!)).toBe(0);
    // The last user of each hash goes: originals and pages go too, with every attachment row.
    const rest = await t.req("DELETE", "/api/v1/document/recycle", { token: t.rootToken, body: { id: [ids[1], ids[2]] } });
    expect(rest.body).toMatchObject({ deleted: 2, removedFiles: 2 });
    expect(existsSync(documentDir(same))).toBe(false);
    expect(existsSync(documentDir(other))).toBe(false);
    expect(count("select count(*) as n from attachment where hash in (?, ?)", same, other)).toBe(0);
    expect(count("select count(*) as n from banned_hash where hash in (?, ?)", same, other)).toBe(0);
    expect((await t.req("DELETE", `/api/v1/document/recycle?id=${ids[1]}`, { token: t.rootToken })).status).toBe(404);
  });

  test("ban_hash refuses the same file at the next upload", async () => {
    const { ids, other } = await makeDeleted("ban");
    const r = await t.req("DELETE", `/api/v1/document/recycle?id=${ids[2]}&ban_hash=1`, { token: t.rootToken });
    expect(r.status).toBe(200);
    expect(count("select count(*) as n from banned_hash where hash = ?", other)).toBe(1);
    const again = await upload(t, t.userToken, pdfBytes("ban-other"), "again.pdf");
    expect([again.status, again.body.message]).toEqual([403, "该文档已被禁止上传"]);
    expect((await t.req("DELETE", `/api/v1/document/recycle?id=${ids[0]}&ban_hash=maybe`, { token: t.rootToken })).status).toBe(400);
    expect((await t.req("DELETE", `/api/v1/document/recycle?id=${ids[0]}`, { token: t.userToken })).status).toBe(403);
  });
});
