// Banner image upload and the attachment screen's API: content sniffing, size limit, nothing left
// behind on refusal, shared files kept until their last row goes, safe /uploads serving.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getSqlite } from "#db/client.ts";
import { MAX_IMAGE_BYTES, setStorageRoot, storeImage } from "#src/features/admin/attachment/storage.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { jpegBytes, pngBytes, uploadForm } from "./admin-fixtures.ts";

const t = setupTestApp();
let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "wk-admin-upload-"));
  setStorageRoot(root);
});
afterAll(() => {
  setStorageRoot(null);
  rmSync(root, { recursive: true, force: true });
});

const upload = (form: FormData, token = t.rootToken) => t.req("POST", "/api/v1/upload/banner", { token, body: form });
const files = (): string[] => (existsSync(root) ? readdirSync(root, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => join(d.parentPath, d.name)) : []);
const rows = () => (getSqlite().query("select count(*) as n from attachment").get() as { n: number }).n;
const diskPath = (urlPath: string) => join(root, urlPath.replace(/^\/uploads\//, ""));

describe("POST /api/v1/upload/banner", () => {
  test("stores a PNG under banner/YYYY/MM/<sha256>.png and records a type-5 attachment", async () => {
    const bytes = pngBytes(40, 20, 1);
    const r = await upload(uploadForm(bytes, "首页横幅.png"));
    expect(r.status).toBe(200);
    const hash = new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
    expect(r.body.path).toMatch(new RegExp(`^/uploads/banner/\\d{4}/\\d{2}/${hash}\\.png$`));
    expect(r.body).toMatchObject({ type: 5, width: 40, height: 20, ext: "png", size: bytes.length, name: "首页横幅.png", hash, user_id: t.rootId });
    expect(existsSync(diskPath(r.body.path))).toBe(true);

    const served = await t.req("GET", r.body.path);
    expect(served.status).toBe(200);
    expect(served.res.headers.get("content-type")).toBe("image/png");
    expect(served.res.headers.get("cache-control")).toContain("max-age=31536000");
  });

  test("the type comes from the content: a JPEG named .png is stored as .jpg", async () => {
    const r = await upload(uploadForm(jpegBytes(800, 600), "photo.png"));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ext: "jpg", width: 800, height: 600 });
    expect(r.body.path.endsWith(".jpg")).toBe(true);
  });

  test("a text file renamed .png is refused and leaves nothing behind", async () => {
    const before = { files: files().length, rows: rows() };
    const r = await upload(uploadForm(new TextEncoder().encode("这不是图片，只是一段文字。\n".repeat(20)), "fake.png"));
    expect(r.status).toBe(400);
    expect(r.body.message).toContain("只支持 PNG、JPEG、GIF、WebP");
    // A PNG signature with nothing readable after it is no image either.
    const stub = await upload(uploadForm(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]), "stub.png"));
    expect(stub.status).toBe(400);
    expect({ files: files().length, rows: rows() }).toEqual(before);
  });

  test("a file over 5 MB is refused and leaves nothing behind", async () => {
    const before = { files: files().length, rows: rows() };
    const big = new Uint8Array(MAX_IMAGE_BYTES + 1);
    big.set(pngBytes(10, 10));
    const r = await upload(uploadForm(big, "big.png"));
    expect([400, 413]).toContain(r.status);
    expect(r.body.message).toMatch(/过大|5 MB/);
    // The storage module's own limit, whatever the HTTP body limit in front of it is.
    const direct = await storeImage(new File([big], "big.png"), "banner", { userId: t.rootId, ip: "" }).catch((e) => e);
    expect([direct.status, direct.message]).toEqual([413, "图片大小不能超过 5 MB"]);
    expect({ files: files().length, rows: rows() }).toEqual(before);
  });

  test("missing file, wrong encoding and unknown kinds are 400/404", async () => {
    const empty = new FormData();
    empty.append("other", "x");
    expect((await upload(empty)).body.message).toBe("请选择要上传的图片");
    const json = await t.req("POST", "/api/v1/upload/banner", { token: t.rootToken, body: { file: "x" } });
    expect([json.status, json.body.message]).toEqual([400, "请使用 multipart/form-data 上传图片"]);
    expect((await t.req("POST", "/api/v1/upload/nosuchkind", { token: t.rootToken, body: uploadForm(pngBytes(2, 2), "a.png") })).status).toBe(404);
  });
});

test("config images (logo, QR code) use the same storage as type 7", async () => {
  const r = await t.req("POST", "/api/v1/upload/config", { token: t.rootToken, body: uploadForm(pngBytes(8, 8, 3), "logo.png") });
  expect(r.status).toBe(200);
  expect(r.body.type).toBe(7);
  expect(r.body.path).toMatch(/^\/uploads\/config\/\d{4}\/\d{2}\/[0-9a-f]{64}\.png$/);
  expect(existsSync(diskPath(r.body.path))).toBe(true);
});

describe("/uploads serving", () => {
  test("refuses traversal and anything that is not a stored image", async () => {
    mkdirSync(join(root, "banner"), { recursive: true });
    writeFileSync(join(root, "banner", "notes.txt"), "secret");
    writeFileSync(join(root, "..", "wk-outside.png"), "outside");
    for (const p of ["/uploads/../wenku.db", "/uploads/%2e%2e/wk-outside.png", "/uploads/banner/..%2f..%2fwk-outside.png", "/uploads/banner/notes.txt", "/uploads/banner/missing.png", "/uploads/.hidden.png"]) {
      const r = await t.req("GET", p);
      expect([p, r.status]).toEqual([p, 404]);
    }
    rmSync(join(root, "..", "wk-outside.png"), { force: true });
  });
});

describe("attachments", () => {
  test("list filters by type and keyword and names the uploader", async () => {
    const r = await t.req("GET", "/api/v1/attachment/list?type=5&keyword=首页", { token: t.rootToken });
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(1);
    expect(r.body.attachment[0]).toMatchObject({ name: "首页横幅.png", type_name: "横幅", username: "root" });
    const none = await t.req("GET", "/api/v1/attachment/list?type=1", { token: t.rootToken });
    expect(none.body).toEqual({ total: 0, attachment: [] });
    // LIKE wildcards in the keyword are literal characters.
    expect((await t.req("GET", "/api/v1/attachment/list?keyword=%25", { token: t.rootToken })).body.total).toBe(0);
    expect((await t.req("GET", "/api/v1/attachment/list?keyword=_", { token: t.rootToken })).body.total).toBe(0);
  });

  test("PUT changes enable and description only", async () => {
    const id = (await t.req("GET", "/api/v1/attachment/list?type=5", { token: t.rootToken })).body.attachment[0].id;
    const r = await t.req("PUT", "/api/v1/attachment", { token: t.rootToken, body: { id, enable: false, description: "旧横幅", path: "/etc/passwd" } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ enable: false, description: "旧横幅" });
    expect(r.body.path.startsWith("/uploads/banner/")).toBe(true);
  });

  test("delete removes the file once no other row uses it", async () => {
    const bytes = pngBytes(16, 16, 9);
    const a = (await upload(uploadForm(bytes, "one.png"))).body;
    const b = (await upload(uploadForm(bytes, "two.png"))).body;
    expect(a.path).toBe(b.path);
    const file = diskPath(a.path);
    expect((await t.req("DELETE", `/api/v1/attachment?id=${a.id}`, { token: t.rootToken })).status).toBe(200);
    expect(existsSync(file)).toBe(true);
    const r = await t.req("DELETE", `/api/v1/attachment?id=${b.id}`, { token: t.rootToken });
    expect([r.status, r.body.deleted]).toEqual([200, 1]);
    expect(existsSync(file)).toBe(false);
    expect((await t.req("GET", a.path)).status).toBe(404);
  });
});
