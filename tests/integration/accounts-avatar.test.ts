// Avatar upload: checked by content, cropped to 200×200, stored as an attachment of type 1; refusals
// leave nothing on disk or in the table; a replaced avatar's file goes unless another row uses it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { getSqlite } from "#db/client.ts";
import { setStorageRoot } from "#src/features/admin/attachment/storage.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { pngBytes, uploadForm } from "./admin-fixtures.ts";

const t = setupTestApp();
let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "wk-avatar-"));
  setStorageRoot(root);
});
afterAll(() => {
  setStorageRoot(null);
  rmSync(root, { recursive: true, force: true });
});

const upload = (token: string | undefined, form: FormData) => t.req("POST", "/api/v1/upload/avatar", { token, body: form });
const files = () => (existsSync(root) ? readdirSync(root, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => join(d.parentPath, d.name)) : []);
const rows = () => (getSqlite().query("select count(*) as n from attachment").get() as { n: number }).n;
const disk = (urlPath: string) => join(root, urlPath.replace(/^\/uploads\//, ""));
const avatarOf = (id: number) => (getSqlite().query("select avatar from user where id = ?").get(id) as { avatar: string }).avatar;

describe("POST /api/v1/upload/avatar", () => {
  test("a PNG is cropped to 200×200, stored as attachment type 1, set as the avatar and served", async () => {
    const { token, user } = await t.createUser("avatar_png");
    const r = await upload(token, uploadForm(pngBytes(640, 480, 3), "我的头像.png"));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ message: "头像上传成功", width: 200, height: 200 });
    expect(r.body.avatar).toMatch(/^\/uploads\/avatar\/\d{4}\/\d{2}\/[0-9a-f]{64}\.jpg$/);
    expect(avatarOf(user.id)).toBe(r.body.avatar);
    const meta = await sharp(disk(r.body.avatar)).metadata();
    expect({ w: meta.width, h: meta.height, f: meta.format }).toEqual({ w: 200, h: 200, f: "jpeg" });
    const row = getSqlite().query("select type, user_id, width, height, ext from attachment where path = ?").get(r.body.avatar);
    expect(row).toEqual({ type: 1, user_id: user.id, width: 200, height: 200, ext: "jpg" });
    const served = await t.req("GET", r.body.avatar);
    expect(served.status).toBe(200);
    expect(served.res.headers.get("content-type")).toBe("image/jpeg");
    // The session shows the new avatar at once (header menus read it from there).
    expect((await t.req("GET", "/api/v1/user", { token })).body.user.avatar).toBe(r.body.avatar);
  });

  test("transparency survives: an image with alpha stays PNG", async () => {
    const { token } = await t.createUser("avatar_alpha");
    const rgba = await sharp({ create: { width: 300, height: 120, channels: 4, background: { r: 20, g: 120, b: 255, alpha: 0.5 } } }).png().toBuffer();
    const r = await upload(token, uploadForm(new Uint8Array(rgba), "alpha.png"));
    expect(r.status).toBe(200);
    expect(r.body.avatar).toEndWith(".png");
    const meta = await sharp(disk(r.body.avatar)).metadata();
    expect({ w: meta.width, h: meta.height, alpha: meta.hasAlpha }).toEqual({ w: 200, h: 200, alpha: true });
  });

  test("a text file renamed .png, a broken image and an empty file are refused; nothing is left behind", async () => {
    const { token, user } = await t.createUser("avatar_fake");
    const before = { files: files().length, rows: rows() };
    const text = await upload(token, uploadForm(new TextEncoder().encode("这不是图片，只是一段文字。\n".repeat(50)), "fake.png"));
    expect(text.status).toBe(400);
    expect(text.body.message).toBe("只支持 PNG、JPEG、GIF、WebP 格式的图片（按文件内容识别）");
    // A valid PNG header over garbage passes sniffing but not decoding.
    const header = pngBytes(50, 50).slice(0, 33);
    const broken = await upload(token, uploadForm(new Uint8Array([...header, ...new Uint8Array(200).fill(7)]), "broken.png"));
    expect(broken.status).toBe(400);
    expect(broken.body.message).toBe("图片已损坏或无法识别，请换一张图片");
    const empty = await upload(token, uploadForm(new Uint8Array(), "empty.png"));
    expect(empty.status).toBe(400);
    expect({ files: files().length, rows: rows() }).toEqual(before);
    expect(avatarOf(user.id)).toBe("");
  });

  test("over 5 MB: 413 in Chinese, nothing written", async () => {
    const { token } = await t.createUser("avatar_big");
    const before = { files: files().length, rows: rows() };
    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    big.set(pngBytes(10, 10));
    const r = await upload(token, uploadForm(big, "big.png"));
    expect(r.status).toBe(413);
    expect(r.body.message).toBe("图片大小不能超过 5 MB");
    expect({ files: files().length, rows: rows() }).toEqual(before);
  });

  test("anonymous: 401; no file field or not multipart: 400", async () => {
    expect((await upload(undefined, uploadForm(pngBytes(10, 10), "a.png"))).status).toBe(401);
    const { token } = await t.createUser("avatar_form");
    const f = new FormData();
    f.append("other", "x");
    expect((await upload(token, f)).body.message).toBe("请选择要上传的图片");
    const json = await t.req("POST", "/api/v1/upload/avatar", { token, body: { file: "x" } });
    expect(json.status).toBe(400);
    expect(json.body.message).toBe("请使用 multipart/form-data 上传图片");
  });

  test("replacing: the old file goes, unless another user's row still uses it", async () => {
    const a = await t.createUser("avatar_a");
    const b = await t.createUser("avatar_b");
    const shared = pngBytes(120, 120, 9);
    const first = (await upload(a.token, uploadForm(shared, "a.png"))).body.avatar;
    expect((await upload(b.token, uploadForm(shared, "b.png"))).body.avatar).toBe(first);
    // a moves on: b still uses the file, so it stays.
    const second = (await upload(a.token, uploadForm(pngBytes(120, 120, 10), "a2.png"))).body.avatar;
    expect(existsSync(disk(first))).toBe(true);
    expect((getSqlite().query("select count(*) as n from attachment where path = ?").get(first) as { n: number }).n).toBe(1);
    // b moves on too: nobody uses it any more.
    await upload(b.token, uploadForm(pngBytes(120, 120, 11), "b2.png"));
    expect(existsSync(disk(first))).toBe(false);
    expect(existsSync(disk(second))).toBe(true);
    // The same picture twice keeps one row.
    await upload(a.token, uploadForm(pngBytes(120, 120, 10), "a2-again.png"));
    expect((getSqlite().query("select count(*) as n from attachment where path = ?").get(second) as { n: number }).n).toBe(1);
  });
});
