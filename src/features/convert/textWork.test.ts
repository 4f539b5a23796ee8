import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getDb, getSqlite } from "#db/client.ts";
import { document } from "#db/schema/documents.ts";
import { user } from "#db/schema/users.ts";
import { indexDocument, rowidOf } from "#src/features/search/indexer.ts";
import { indexSettings } from "#src/features/search/text.ts";
import { invalidateSettings } from "#src/features/settings/service.ts";
import { useTempDatabase } from "../../../tests/helpers/testDb.ts";
import { prepareTextHere } from "./textPrep.ts";
import { prepareText } from "./textWork.ts";
import { run, TOOL_PRIORITY } from "./tools.ts";

// The conversion's text work runs in a Worker thread (textWork.ts) and must index exactly as the
// commit would on the event loop; tools run at the lowest CPU priority, in an autogroup of their own (tools.ts).

const PAGES = [
  "劳动合同范本。甲方与乙方根据《中华人民共和国劳动合同法》签订本合同，约定工作内容、劳动报酬和社会保险。",
  "",
  "第二章 工作时间。乙方每日工作八小时，每周工作五天；加班须经双方协商。魔豆文库 JavaScript 教程。",
];

let db: ReturnType<typeof useTempDatabase>;
let docId = 0;
// search_fts is contentless: its tokens (term, row, column, position) are what it holds.
const ftsRows = (id: number) => {
  getSqlite().exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts_tokens USING fts5vocab(main, search_fts, instance)");
  return getSqlite().query("SELECT doc, col, offset, term FROM temp.fts_tokens WHERE doc BETWEEN ? AND ? ORDER BY doc, col, offset")
    .all(rowidOf(id, 0), rowidOf(id, 2 ** 20 - 1)) as { doc: number; col: string; offset: number; term: string }[];
};
const terms = (id: number, row: number, col: string) => ftsRows(id).filter((t) => t.doc === rowidOf(id, row) && t.col === col).map((t) => t.term);
const setSearch = (name: string, value: string) => {
  getSqlite().query("INSERT INTO config (category, name, value) VALUES ('search', ?, ?) ON CONFLICT(category, name) DO UPDATE SET value = excluded.value").run(name, value);
  invalidateSettings();
};

beforeAll(() => {
  db = useTempDatabase();
  const owner = getDb().insert(user).values({ username: `tw${Date.now()}`, password: "x" }).returning().get();
  docId = getDb().insert(document).values({ uuid: crypto.randomUUID(), title: "劳動合同 範本", user_id: owner.id, hash: "h", ext: "pdf", keywords: "合同,劳动", description: "" }).returning().get().id;
  const insert = getSqlite().query("INSERT INTO document_page (document_id, page, text) VALUES (?, ?, ?)");
  PAGES.forEach((t, i) => insert.run(docId, i + 1, t));
});
afterAll(() => db.cleanup());

describe("conversion text work off the event loop", () => {
  test("the Worker's answer equals the same work on the event loop, custom dictionary and folding included", async () => {
    setSearch("dictionary", "魔豆文库 1000");
    const doc = { title: "劳動合同 範本", keywords: "", description: "" };
    const here = prepareTextHere({ texts: PAGES, doc, settings: indexSettings() });
    const there = await prepareText(PAGES, doc);
    expect(there).toEqual(here);
    expect(there.pre.bodies).toHaveLength(PAGES.length);
    expect(there.pre.bodies[1]).toBe("");
    expect(there.pre.bodies[2]).toContain("魔豆文库");
    // traditional folded to simplified in the index form, as indexText does
    expect(there.pre.headIndex[0]).toContain("劳动");
    expect(there.keywords.length).toBeGreaterThan(0);
    expect(there.description).toStartWith("劳动合同范本");
  });

  test("indexDocument with the pre-segmented rows writes exactly what it writes by itself", async () => {
    const row = getDb().select().from(document).all().find((d) => d.id === docId)!;
    const { pre } = await prepareText(PAGES, row);
    getSqlite().transaction(() => indexDocument(docId))();
    const own = ftsRows(docId);
    getSqlite().transaction(() => indexDocument(docId, undefined, pre))();
    expect(ftsRows(docId)).toEqual(own);
    // row 0 and the two pages with text
    expect([...new Set(own.map((t) => t.doc))]).toEqual([rowidOf(docId, 0), rowidOf(docId, 1), rowidOf(docId, 3)]);
    expect(terms(docId, 0, "title")).toEqual(["劳动", "合同", "劳动合同", "范本"]);
  });

  test("a title edited during the conversion, or a dictionary changed, is segmented again at the commit", async () => {
    const row = getDb().select().from(document).all().find((d) => d.id === docId)!;
    const { pre } = await prepareText(PAGES, row);
    getSqlite().query("UPDATE document SET title = '员工手册' WHERE id = ?").run(docId);
    getSqlite().transaction(() => indexDocument(docId, undefined, pre))();
    expect(terms(docId, 0, "title")).toEqual(["员工", "手册"]);
    setSearch("dictionary", "魔豆文库 1000\n工作内容 5000");
    getSqlite().transaction(() => indexDocument(docId, undefined, pre))();
    const withPre = ftsRows(docId);
    getSqlite().transaction(() => indexDocument(docId))();
    expect(withPre).toEqual(ftsRows(docId));
    expect(terms(docId, 1, "body")).toContain("工作内容");
  });
});

describe("tools run at the lowest CPU priority", () => {
  test("nice 19, in an autogroup at nice 19", async () => {
    const work = mkdtempSync(join(tmpdir(), "wk-prio-"));
    try {
      const r = await run("sh", ["-c", "sleep 0.05; cat /proc/self/autogroup 2>/dev/null; cat /proc/self/stat"], { signal: new AbortController().signal, workDir: work });
      expect(r.code).toBe(0);
      const stat = r.stdout.slice(r.stdout.lastIndexOf(")") + 2).split(" ");
      // field 19 of /proc/pid/stat is the nice value
      if (TOOL_PRIORITY.length) expect(stat[19 - 3]).toBe("19");
      if (r.stdout.includes("autogroup")) expect(r.stdout).toMatch(/autogroup-\d+ nice 19/);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
