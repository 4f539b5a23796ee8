// Shared set-up for the document tests: a temp document folder, categories, groups with the upload
// and review flags, tiny PDFs made here (route tests never run the converter), and upload helpers.
import { afterAll, beforeAll } from "bun:test";
import { eq } from "drizzle-orm";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getDb, getSqlite } from "#db/client.ts";
import { group, userGroup } from "#db/schema/accounts.ts";
import { category } from "#db/schema/site.ts";
import { setDocumentsRoot } from "#src/features/documents/paths.ts";
import { updateConfig } from "#src/features/settings/service.ts";
import type { TestApp } from "../helpers/testApp.ts";

/** Group 2 is 普通用户 (may upload, needs review); these tests add one that skips review. */
export const REVIEWED_GROUP = 2;

export function useDocumentsDir() {
  const state = { dir: "" };
  beforeAll(() => {
    state.dir = mkdtempSync(join(tmpdir(), "wk-docs-"));
    setDocumentsRoot(state.dir);
  });
  afterAll(() => {
    setDocumentsRoot(null);
    rmSync(state.dir, { recursive: true, force: true });
  });
  return state;
}

/** Every file under the documents folder (originals, pages, temp files). */
export const filesUnder = (dir: string): string[] =>
  existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => join(d.parentPath, d.name)) : [];

/** A small PDF whose bytes (and so MD5) depend on `seed`. */
export function pdfBytes(seed: string | number = 1): Uint8Array {
  const text = `%PDF-1.4\n% ${seed}\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`;
  return new TextEncoder().encode(text);
}

export const md5 = (b: Uint8Array) => new Bun.CryptoHasher("md5").update(b).digest("hex");

export function fileForm(bytes: Uint8Array, name: string): FormData {
  const f = new FormData();
  f.append("file", new File([bytes as Uint8Array<ArrayBuffer>], name));
  return f;
}

export function makeCategory(title: string, opts: { parent?: number; enable?: boolean; type?: number } = {}) {
  return getDb().insert(category).values({ title, parent_id: opts.parent ?? 0, enable: opts.enable ?? true, type: opts.type ?? 0 }).returning().get();
}

export function joinGroup(userId: number, groupId: number) {
  getDb().insert(userGroup).values({ user_id: userId, group_id: groupId }).onConflictDoNothing().run();
}

/** A group that may upload without review. */
export function trustedGroup(): number {
  const g = getDb().select().from(group).where(eq(group.title, "免审核上传")).get();
  return (g ?? getDb().insert(group).values({ title: "免审核上传", enable_upload: true, enable_document_review: false }).returning().get()).id;
}

export const setConfig = (category: string, name: string, value: unknown) => updateConfig([{ category, name, value }]);

export const count = (sql: string, ...args: (string | number)[]) => (getSqlite().query(sql).get(...args) as { n: number }).n;

/** Uploads a file and answers the response (body = the attachment on success). */
export const upload = (t: TestApp, token: string, bytes: Uint8Array, name: string) =>
  t.req("POST", "/api/v1/upload/document", { token, body: fileForm(bytes, name) });

/** Upload + create in one go; answers the created document. */
export async function uploadDocument(t: TestApp, token: string, opts: { categoryId: number; title?: string; seed?: string | number; price?: number }) {
  const up = await upload(t, token, pdfBytes(opts.seed ?? crypto.randomUUID()), `${opts.title ?? "测试文档"}.pdf`);
  if (up.status !== 200) throw new Error(`upload failed: ${up.status} ${up.text}`);
  const r = await t.req("POST", "/api/v1/document", { token, body: { document: [{ title: opts.title ?? "测试文档", attachment_id: up.body.id, category_id: opts.categoryId, price: opts.price ?? 0 }] } });
  if (r.status !== 200) throw new Error(`create failed: ${r.status} ${r.text}`);
  return r.body.document[0] as { id: number; uuid: string; status: number; hash: string; title: string };
}
