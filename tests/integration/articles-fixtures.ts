// Shared set-up of the article route tests: categories, members in groups, a PNG, publishing.
import { afterAll, beforeAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { getDb, getSqlite } from "#db/client.ts";
import { article } from "#db/schema/articles.ts";
import { category } from "#db/schema/site.ts";
import { setStorageRoot } from "#src/features/admin/attachment/storage.ts";
import { updateConfig } from "#src/features/settings/service.ts";
import { bumpContentVersion } from "#src/lib/contentVersion.ts";
import type { TestApp } from "../helpers/testApp.ts";

export { joinGroup } from "./documents-fixtures.ts";

/** Group 2 (普通用户): may publish, articles reviewed while article.enable_review is on. */
export const MEMBERS = 2;

/** An article category written directly, with the content version bumped as the category API does. */
export function makeArticleCategory(title: string, opts: { parent?: number; enable?: boolean } = {}) {
  const row = getDb().insert(category).values({ title, parent_id: opts.parent ?? 0, type: 1, enable: opts.enable ?? true }).returning().get();
  bumpContentVersion();
  return row;
}

export const setConfig = (category: string, name: string, value: unknown) => updateConfig([{ category, name, value }]);

/** Uploaded images go to a temp folder for the file's tests. */
export function useImageRoot() {
  const state = { dir: "" };
  beforeAll(() => {
    state.dir = mkdtempSync(join(tmpdir(), "wk-art-img-"));
    setStorageRoot(state.dir);
  });
  afterAll(() => {
    setStorageRoot(null);
    rmSync(state.dir, { recursive: true, force: true });
  });
  return state;
}

/** A real PNG of `size`×`size` pixels in one colour (differs per seed, so each upload is its own file). */
export async function png(seed = 1, size = 8): Promise<Uint8Array<ArrayBuffer>> {
  const sharp = (await import("sharp")).default;
  return new Uint8Array(await sharp({ create: { width: size, height: size, channels: 3, background: { r: seed % 256, g: 80, b: 160 } } }).png().toBuffer());
}

export function imageForm(bytes: Uint8Array<ArrayBuffer>, name = "图.png"): FormData {
  const form = new FormData();
  form.append("file", new File([bytes], name, { type: "image/png" }));
  return form;
}

export async function uploadImage(t: TestApp, token: string, seed = 1): Promise<string> {
  const r = await t.req("POST", "/api/v1/upload/article", { token, body: imageForm(await png(seed)) });
  if (r.status !== 200) throw new Error(`upload ${r.status} ${r.text}`);
  return r.body.path as string;
}

export async function publish(t: TestApp, token: string, body: Record<string, unknown>) {
  const r = await t.req("POST", "/api/v1/article", { token, body: { content: "正文内容", ...body } });
  if (r.status !== 200) throw new Error(`publish ${r.status} ${r.text}`);
  return r.body as { id: number; identifier: string; status: number };
}

export const articleRow = (id: number) => getDb().select().from(article).where(eq(article.id, id)).get();
export const articleCount = () => (getSqlite().query("SELECT count(*) AS n FROM article").get() as { n: number }).n;
export const html = { accept: "text/html" };
export const cookie = (token: string) => ({ accept: "text/html", cookie: `wk_token=${token}` });
