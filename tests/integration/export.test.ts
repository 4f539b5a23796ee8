// Answer export routes: POST /api/v1/markdown2docx and /api/v1/markdown2image — login, validation,
// size limit, file name and headers, a stored chat answer (owner only) and the per-user rate limit.
import { beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getSqlite } from "#db/client.ts";
import { setImageWorkerTimeouts } from "#src/features/export/image.ts";
import { updateConfig } from "#src/features/settings/service.ts";
import { resetAll } from "#src/lib/rateLimit.ts";
import { setupTestApp } from "../helpers/testApp.ts";

const t = setupTestApp();
const DOCX = "/api/v1/markdown2docx";
const PNG = "/api/v1/markdown2image";
const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

beforeEach(() => resetAll());

/** A request whose answer is a file: the response and its bytes (t.req decodes bodies as text). */
async function download(path: string, token: string, body: unknown) {
  const res = await t.app.request(path, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, res, bytes: new Uint8Array(await res.arrayBuffer()) };
}
const pngWidth = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset).getUint32(16);

/** A part of a .docx answer, via the unzip CLI. */
function docxPart(bytes: Uint8Array, part: string): string {
  const dir = mkdtempSync(join(tmpdir(), "wk-export-"));
  try {
    writeFileSync(join(dir, "a.docx"), bytes);
    return Bun.spawnSync(["unzip", "-p", join(dir, "a.docx"), part]).stdout.toString();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Inserts a chat message. Works with the AI feature's migration (filling any other NOT NULL column
 * from PRAGMA table_info) and without it (a minimal table is created for this test database).
 */
function insertMessage(values: { user_id: number; question: string; answer: string; references: string }): number {
  const db = getSqlite();
  db.exec(`CREATE TABLE IF NOT EXISTS chat_message (id INTEGER PRIMARY KEY AUTOINCREMENT, topic_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL, question TEXT NOT NULL, answer TEXT NOT NULL DEFAULT '', "references" TEXT NOT NULL DEFAULT '[]', status INTEGER NOT NULL DEFAULT 0)`);
  const row: Record<string, string | number> = { topic_id: 1, status: 1, ...values };
  const cols = db.query("PRAGMA table_info(chat_message)").all() as { name: string; type: string; notnull: number; dflt_value: unknown; pk: number }[];
  for (const c of cols) {
    if (c.notnull && c.dflt_value === null && !c.pk && !(c.name in row)) row[c.name] = /INT|REAL|NUM/i.test(c.type) ? 0 : "";
  }
  const names = Object.keys(row).filter((n) => cols.some((c) => c.name === n));
  // The topic it would belong to is not the point here: foreign keys are off for this one insert.
  db.exec("PRAGMA foreign_keys = OFF");
  try {
    const sql = `INSERT INTO chat_message (${names.map((n) => `"${n}"`).join(", ")}) VALUES (${names.map(() => "?").join(", ")})`;
    return Number(db.query(sql).run(...names.map((n) => row[n]!)).lastInsertRowid);
  } finally {
    db.exec("PRAGMA foreign_keys = ON");
  }
}

describe("access and validation", () => {
  test("anonymous → 401 on both routes", async () => {
    for (const path of [DOCX, PNG]) {
      const r = await t.req("POST", path, { body: { markdown: "# 你好" } });
      expect(r.status).toBe(401);
      expect(r.body.message).toBe("请先登录");
    }
  });

  test("empty, blank or missing markdown → 400 导出内容不能为空", async () => {
    for (const body of [{ markdown: "" }, { markdown: "   \n  " }, {}]) {
      for (const path of [DOCX, PNG]) {
        const r = await t.req("POST", path, { token: t.userToken, body });
        expect(r.status).toBe(400);
        expect(r.body.message).toBe("导出内容不能为空");
      }
    }
  });

  test("wrong types → 400 with a Chinese message", async () => {
    const a = await t.req("POST", DOCX, { token: t.userToken, body: { markdown: 42 } });
    expect(a.status).toBe(400);
    expect(a.body.message).toBe("导出内容必须是文本");
    const b = await t.req("POST", DOCX, { token: t.userToken, body: { message_id: "abc" } });
    expect(b.status).toBe(400);
    expect(b.body.message).toBe("消息 ID 不正确");
  });

  test("more than 100,000 characters → 413 导出内容过长", async () => {
    const r = await t.req("POST", DOCX, { token: t.userToken, body: { markdown: "长".repeat(100_001) } });
    expect(r.status).toBe(413);
    expect(r.body.message).toBe("导出内容过长（最多 100000 字）");
    const ok = await t.req("POST", DOCX, { token: t.userToken, body: { markdown: "长".repeat(100_000) } });
    expect(ok.status).toBe(200);
  });
});

describe("files", () => {
  test("docx: type, Chinese file name from the first heading, ASCII fallback, a real Word package", async () => {
    const r = await download(DOCX, t.userToken, { markdown: "# 机器学习概述\n\n正文 $x^2$ 与 **粗体**。" });
    expect(r.status).toBe(200);
    expect(r.res.headers.get("content-type")).toBe(DOCX_TYPE);
    const cd = r.res.headers.get("content-disposition")!;
    expect(cd).toContain('filename="export.docx"');
    expect(cd).toContain(`filename*=UTF-8''${encodeURIComponent("机器学习概述.docx")}`);
    const bytes = r.bytes;
    expect([...bytes.slice(0, 2)]).toEqual([0x50, 0x4b]);
    expect(docxPart(bytes, "word/document.xml")).toContain("<m:oMath>");
  });

  test("file name: the title wins and is sanitised; no title nor heading gives AI回答", async () => {
    const a = await t.req("POST", DOCX, { token: t.userToken, body: { markdown: "# 标题", title: ' 报告/草稿:"终版"\n ' } });
    expect(a.res.headers.get("content-disposition")).toContain(`filename*=UTF-8''${encodeURIComponent("报告_草稿_终版")}.docx`);
    const b = await t.req("POST", DOCX, { token: t.userToken, body: { markdown: "没有标题的回答。" } });
    expect(b.res.headers.get("content-disposition")).toContain(`filename*=UTF-8''${encodeURIComponent("AI回答")}.docx`);
  });

  test("png: image/png, exactly 640 px wide, .png file name", async () => {
    const r = await download(PNG, t.userToken, { markdown: "# 图片导出\n\n- 一\n- 二\n\n```\ncode\n```", title: "分享卡片" });
    expect(r.status).toBe(200);
    expect(r.res.headers.get("content-type")).toBe("image/png");
    const cd = r.res.headers.get("content-disposition")!;
    expect(cd).toContain('filename="export.png"');
    expect(cd).toContain(`filename*=UTF-8''${encodeURIComponent("分享卡片.png")}`);
    const bytes = r.bytes;
    expect([...bytes.slice(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
    expect(pngWidth(bytes)).toBe(640);
  });

  test("png: a render over its time limit → 503 生成图片超时; the next export works again", async () => {
    const long = Array.from({ length: 40 }, (_, i) => `## 第 ${i + 1} 节\n\n${"这是一段较长的中文回答内容，用来让渲染花上一些时间。".repeat(4)}`).join("\n\n");
    setImageWorkerTimeouts({ jobMs: 5 });
    try {
      const r = await t.req("POST", PNG, { token: t.userToken, body: { markdown: long } });
      expect(r.status).toBe(503);
      expect(r.body).toMatchObject({ code: "image_timeout", message: "生成图片超时" });
    } finally {
      setImageWorkerTimeouts();
    }
    const ok = await download(PNG, t.userToken, { markdown: "超时之后再导出。" });
    expect(ok.status).toBe(200);
    expect(pngWidth(ok.bytes)).toBe(640);
  });
});

describe("message_id", () => {
  const question = "什么是深度学习？请结合教材详细说明它与传统机器学习方法的区别和联系，并举例";
  const refs = JSON.stringify([{ title: "深度学习导论", uuid: "0123456789abcdef0123456789abcdef", page: 3, score: 0.9 }]);

  test("the owner exports the stored answer: citations become footnotes, the question names the file", async () => {
    updateConfig([{ category: "system", name: "domain", value: "https://wk.example.com" }]);
    const id = insertMessage({ user_id: t.userId, question, answer: "深度学习是机器学习的分支[1]。", references: refs });
    const r = await download(DOCX, t.userToken, { message_id: id });
    expect(r.status).toBe(200);
    const bytes = r.bytes;
    const notes = docxPart(bytes, "word/footnotes.xml");
    expect(notes).toContain("《深度学习导论》第 3 页");
    expect(docxPart(bytes, "word/_rels/footnotes.xml.rels")).toContain("https://wk.example.com/document/0123456789abcdef0123456789abcdef?page=3");
    expect(r.res.headers.get("content-disposition")).toContain(`filename*=UTF-8''${encodeURIComponent([...question].slice(0, 30).join(""))}.docx`);
    const png = await download(PNG, t.userToken, { message_id: id });
    expect(png.status).toBe(200);
    expect(pngWidth(png.bytes)).toBe(640);
  });

  test("someone else's message → 404 消息不存在; the root administrator may export it; unknown id → 404", async () => {
    const other = await t.createUser("export-other");
    const id = insertMessage({ user_id: other.user.id, question: "别人的问题", answer: "别人的回答", references: "[]" });
    for (const path of [DOCX, PNG]) {
      const r = await t.req("POST", path, { token: t.userToken, body: { message_id: id } });
      expect(r.status).toBe(404);
      expect(r.body.message).toBe("消息不存在");
    }
    expect((await t.req("POST", DOCX, { token: t.rootToken, body: { message_id: id } })).status).toBe(200);
    expect((await t.req("POST", DOCX, { token: other.token, body: { message_id: id } })).status).toBe(200);
    const missing = await t.req("POST", DOCX, { token: t.userToken, body: { message_id: 987654 } });
    expect(missing.status).toBe(404);
  });

  test("without the chat_message table (no AI migration) a message_id is a 404", async () => {
    const db = getSqlite();
    db.exec("ALTER TABLE chat_message RENAME TO chat_message_hidden");
    try {
      const r = await t.req("POST", DOCX, { token: t.rootToken, body: { message_id: 1 } });
      expect(r.status).toBe(404);
      expect(r.body.message).toBe("消息不存在");
    } finally {
      db.exec("ALTER TABLE chat_message_hidden RENAME TO chat_message");
    }
  });

  test("a message with no answer yet → 400 导出内容不能为空", async () => {
    const id = insertMessage({ user_id: t.userId, question: "还在生成", answer: "", references: "[]" });
    const r = await t.req("POST", DOCX, { token: t.userToken, body: { message_id: id } });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe("导出内容不能为空");
  });
});

test("rate limit: 20 exports a minute per user, then 429; other users are unaffected", async () => {
  const u = await t.createUser("export-busy");
  for (let i = 0; i < 20; i++) {
    const r = await t.req("POST", i % 2 ? PNG : DOCX, { token: u.token, body: { markdown: `第 ${i} 次` } });
    expect(r.status).toBe(200);
  }
  const limited = await t.req("POST", DOCX, { token: u.token, body: { markdown: "再来一次" } });
  expect(limited.status).toBe(429);
  expect(limited.body.message).toBe("导出过于频繁，请稍后再试");
  expect((await t.req("POST", DOCX, { token: t.userToken, body: { markdown: "别人" } })).status).toBe(200);
});
