// POST /api/v1/upload/document and the instant-upload check: rights, size limit (declared and
// while reading), content sniffing over names, sanitized names, banned hashes, one file per MD5.
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { getDb } from "#db/client.ts";
import { bannedHash } from "#db/schema/documents.ts";
import { punishment } from "#db/schema/accounts.ts";
import { originalPath } from "#src/features/documents/paths.ts";
import { sanitizeName } from "#src/features/documents/storage.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { count, fileForm, filesUnder, joinGroup, md5, pdfBytes, REVIEWED_GROUP, setConfig, upload, useDocumentsDir } from "./documents-fixtures.ts";

const t = setupTestApp();
const docs = useDocumentsDir();
let outsider: string;
let banned: { token: string; id: number };

beforeAll(async () => {
  joinGroup(t.userId, REVIEWED_GROUP);
  outsider = (await t.createUser("no-group")).token;
  const b = await t.createUser("banned-uploader");
  joinGroup(b.user.id, REVIEWED_GROUP);
  getDb().insert(punishment).values({ user_id: b.user.id, type: 3, reason: "上传侵权内容" }).run();
  banned = { token: b.token, id: b.user.id };
});

const attachments = () => count("select count(*) as n from attachment where type = 2");

describe("who may upload", () => {
  test("anonymous 401, a user without an uploading group 403, an upload ban 403 with its reason", async () => {
    expect((await upload(t, "", pdfBytes("anon"), "a.pdf")).status).toBe(401);
    const none = await upload(t, outsider, pdfBytes("x"), "a.pdf");
    expect([none.status, none.body.message]).toEqual([403, "您所在的用户组没有上传文档的权限"]);
    const ban = await upload(t, banned.token, pdfBytes("y"), "a.pdf");
    expect(ban.status).toBe(403);
    expect(ban.body.message).toContain("上传侵权内容");
    expect(filesUnder(docs.dir)).toEqual([]);
  });
});

describe("a good upload", () => {
  test("stores original.<ext> under the MD5 folder and answers the type-2 attachment", async () => {
    const bytes = pdfBytes("good");
    const r = await upload(t, t.userToken, bytes, "高中物理公式.pdf");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ hash: md5(bytes), name: "高中物理公式.pdf", size: bytes.length, ext: "pdf" });
    expect(typeof r.body.id).toBe("number");
    expect(existsSync(originalPath(md5(bytes), "pdf"))).toBe(true);
    expect(filesUnder(docs.dir).some((f) => f.endsWith(".tmp"))).toBe(false);
  });

  test("the same bytes twice are stored once (instant upload) and /exists knows them", async () => {
    const bytes = pdfBytes("twice");
    const before = filesUnder(docs.dir).length;
    const no = await t.req("GET", `/api/v1/upload/document/exists?hash=${md5(bytes)}`, { token: t.userToken });
    expect(no.body).toEqual({ exists: false });
    const a = await upload(t, t.userToken, bytes, "一.pdf");
    const b = await upload(t, t.rootToken, bytes, "二.pdf");
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.id).not.toBe(b.body.id);
    expect(filesUnder(docs.dir).length).toBe(before + 1);
    const yes = await t.req("GET", `/api/v1/upload/document/exists?hash=${md5(bytes).toUpperCase()}`, { token: t.userToken });
    expect(yes.body).toEqual({ exists: true });
  });

  test("/exists: login, a 32-hex hash, and refuses a banned hash", async () => {
    expect((await t.req("GET", `/api/v1/upload/document/exists?hash=${"a".repeat(32)}`)).status).toBe(401);
    expect((await t.req("GET", "/api/v1/upload/document/exists?hash=../../etc", { token: t.userToken })).status).toBe(400);
    const h = md5(pdfBytes("banned-exists"));
    getDb().insert(bannedHash).values({ hash: h }).run();
    const r = await t.req("GET", `/api/v1/upload/document/exists?hash=${h}`, { token: t.userToken });
    expect([r.status, r.body.message]).toEqual([403, "该文档已被禁止上传"]);
  });

  test("a name with ../ and control characters is stored sanitized", async () => {
    const r = await upload(t, t.userToken, pdfBytes("name"), "../../etc/\u0001pass\u202ewd\u0000.pdf");
    expect(r.status).toBe(200);
    expect(r.body.name).toBe("passwd.pdf");
    expect(sanitizeName("..\\..\\x\\..evil.pdf")).toBe("evil.pdf");
    expect(sanitizeName("\u0007")).toBe("未命名文档");
    const long = sanitizeName(`${"长".repeat(400)}.docx`);
    expect([...long].length).toBe(255);
    expect(long.endsWith(".docx")).toBe(true);
    expect(filesUnder(docs.dir).every((f) => f.startsWith(docs.dir))).toBe(true);
  });

  test("the type comes from the content: a DOCX named .doc is stored as docx", async () => {
    const bytes = await Bun.file(new URL("../../assets/samples/工作总结模板.docx", import.meta.url)).bytes();
    const r = await upload(t, t.userToken, bytes, "模板.doc");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ext: "docx", name: "模板.doc" });
    expect(existsSync(originalPath(md5(bytes), "docx"))).toBe(true);
  });
});

describe("refused uploads leave nothing behind", () => {
  const refused = async (bytes: Uint8Array, name: string) => {
    const before = { files: filesUnder(docs.dir).length, rows: attachments() };
    const r = await upload(t, t.userToken, bytes, name);
    expect({ files: filesUnder(docs.dir).length, rows: attachments() }).toEqual(before);
    return r;
  };

  test("an executable renamed .pdf → 400 in Chinese", async () => {
    const elf = new Uint8Array(4096);
    elf.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]);
    const r = await refused(elf, "报告.pdf");
    expect(r.status).toBe(400);
    expect(r.body.message).toContain("无法识别文件内容");
    const mz = new Uint8Array(2048);
    mz.set([0x4d, 0x5a, 0x90, 0x00, 0x03]);
    expect((await refused(mz, "setup.pdf")).status).toBe(400);
  });

  test("plain text claiming to be a PDF, and a disallowed extension, are 400", async () => {
    const txt = await refused(new TextEncoder().encode("这只是一段文字，不是 PDF。\n".repeat(50)), "假的.pdf");
    expect([txt.status, txt.body.message]).toEqual([400, "文件内容与扩展名 .pdf 不符，请上传有效的文档"]);
    const exe = await refused(pdfBytes("exe-name"), "tool.exe");
    expect(exe.status).toBe(400);
    expect(exe.body.message).toContain("不支持上传 .exe 格式的文件");
  });

  test("a 0-byte file → 400; a missing file field → 400; not multipart → 400", async () => {
    const empty = await refused(new Uint8Array(0), "空文件.pdf");
    expect([empty.status, empty.body.message]).toEqual([400, "文件是空的（0 字节），请重新选择"]);
    const form = new FormData();
    form.append("other", "x");
    expect((await t.req("POST", "/api/v1/upload/document", { token: t.userToken, body: form })).body.message).toBe("请选择要上传的文档");
    expect((await t.req("POST", "/api/v1/upload/document", { token: t.userToken, body: { file: "x" } })).status).toBe(400);
  });

  test("a banned hash → 403 该文档已被禁止上传", async () => {
    const bytes = pdfBytes("banned-upload");
    getDb().insert(bannedHash).values({ hash: md5(bytes), reason: "侵权" }).run();
    const r = await refused(bytes, "禁传.pdf");
    expect([r.status, r.body.message]).toEqual([403, "该文档已被禁止上传"]);
  });

  test("over security.max_document_size → 413 (declared length, and a body that hides its length)", async () => {
    setConfig("security", "max_document_size", 1);
    try {
      const big = new Uint8Array(1024 * 1024 + 1);
      big.set(pdfBytes("big"));
      const r = await refused(big, "大文件.pdf");
      expect([r.status, r.body.message]).toEqual([413, "文档大小不能超过 1 MB"]);

      // Streamed without Content-Length: cut off while reading.
      const boundary = "----wkboundary";
      const head = new TextEncoder().encode(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="s.pdf"\r\nContent-Type: application/pdf\r\n\r\n`);
      const chunk = new Uint8Array(256 * 1024);
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(ctl) {
          if (sent === 0) ctl.enqueue(head);
          if (sent > 3 * 1024 * 1024) return ctl.close();
          sent += chunk.length;
          ctl.enqueue(chunk);
        },
      });
      const before = filesUnder(docs.dir).length;
      const res = await t.app.request("/api/v1/upload/document", {
        method: "POST", body, duplex: "half", headers: { authorization: `Bearer ${t.userToken}`, "content-type": `multipart/form-data; boundary=${boundary}` },
      } as RequestInit);
      expect(res.status).toBe(413);
      expect(sent).toBeLessThan(3 * 1024 * 1024);
      expect(filesUnder(docs.dir).length).toBe(before);
    } finally {
      setConfig("security", "max_document_size", 50);
    }
  });

  test("an extension removed from security.document_allowed_ext is refused by name and by content", async () => {
    setConfig("security", "document_allowed_ext", ".docx,.txt");
    try {
      const byName = await refused(pdfBytes("not-allowed"), "a.pdf");
      expect(byName.status).toBe(400);
      expect(byName.body.message).toContain("允许的格式：docx、txt");
      const byContent = await refused(pdfBytes("not-allowed-2"), "a.txt");
      expect([byContent.status, byContent.body.message]).toEqual([400, "不支持上传该类型的文件（内容识别为 PDF）"]);
    } finally {
      setConfig("security", "document_allowed_ext", ".pdf,.doc,.docx,.ppt,.pptx,.xls,.xlsx,.txt,.epub,.mobi,.md,.odt,.odp,.ods,.rtf");
    }
  });
});

test("fileForm helper names the part", () => {
  expect((fileForm(new Uint8Array([1]), "a.pdf").get("file") as File).name).toBe("a.pdf");
});
