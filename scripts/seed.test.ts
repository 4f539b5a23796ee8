// `bun run seed` as a user runs it: a real process on a temp DATA_DIR, twice.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { sniffImage } from "#src/features/admin/attachment/image.ts";
import { isBuilt, SECTIONS } from "#src/features/site/sections.ts";
import { ARTICLE_ROWS, PAGE_BITS } from "#src/features/search/indexer.ts";

const root = resolve(import.meta.dir, "..");
const dataDir = mkdtempSync(join(tmpdir(), "wk-seed-"));
let first = "";
let second = "";
let db: Database;

async function seed() {
  const p = Bun.spawn(["bun", "scripts/seed.ts"], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, ADMIN_USERNAME: "demo-admin", ADMIN_PASSWORD: "demo-pass-123", LOG_LEVEL: "warn" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0) throw new Error(`seed failed (${code}): ${out}${err}`);
  return out;
}

beforeAll(async () => {
  first = await seed();
  second = await seed();
  db = new Database(join(dataDir, "wenku.db"), { readonly: true });
}, 60_000);
afterAll(() => {
  db?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const all = <T>(sql: string, ...args: (string | number)[]) => db.query(sql).all(...args) as T[];

describe("seed", () => {
  test("prints the administrator login once, then says it exists", () => {
    expect(first).toContain("用户名：demo-admin");
    expect(first).toContain("密  码：demo-pass-123");
    expect(second).toContain("管理员账号已存在");
    expect(second).not.toContain("demo-pass-123");
  });

  test("is idempotent: the second run adds nothing", () => {
    expect(first).toMatch(/新增 [1-9]\d* 项，已存在 0 项/);
    expect(second).toMatch(/新增 0 项，已存在 [1-9]\d* 项/);
    expect(all<{ n: number }>("SELECT count(*) AS n FROM user")[0]!.n).toBe(1);
  });

  test("document and article category trees", () => {
    const docs = all<{ id: number; title: string; parent_id: number }>("SELECT id, title, parent_id FROM category WHERE type = 0");
    const top = docs.filter((c) => c.parent_id === 0).map((c) => c.title);
    expect(top).toEqual(["教育培训", "专业资料", "实用文档", "生活休闲"]);
    const childrenOf = (t: string) => docs.filter((c) => c.parent_id === docs.find((d) => d.title === t)!.id).map((c) => c.title);
    expect(childrenOf("教育培训")).toEqual(expect.arrayContaining(["中小学教育", "高等教育", "考试认证"]));
    expect(childrenOf("专业资料")).toEqual(expect.arrayContaining(["IT/计算机", "工程科技", "经济管理", "医药卫生"]));
    expect(childrenOf("实用文档")).toEqual(expect.arrayContaining(["合同协议", "工作总结", "求职简历"]));
    const articles = all<{ title: string; parent_id: number }>("SELECT title, parent_id FROM category WHERE type = 1");
    expect(articles.filter((c) => c.parent_id === 0).length).toBeGreaterThanOrEqual(3);
    expect(articles.some((c) => c.parent_id !== 0)).toBe(true);
  });

  test("navigation: an external https link with a colour, and an entry with children", () => {
    const nav = all<{ id: number; title: string; href: string; color: string; parent_id: number }>("SELECT * FROM navigation");
    expect(nav.some((n) => n.href.startsWith("https://") && /^#[0-9a-f]{6}$/i.test(n.color))).toBe(true);
    const parent = nav.find((n) => nav.some((c) => c.parent_id === n.id))!;
    const kids = nav.filter((c) => c.parent_id === parent.id);
    expect(kids.length).toBeGreaterThanOrEqual(2);
    // Children point at real categories.
    for (const k of kids) {
      const id = Number(/^\/category\/(\d+)$/.exec(k.href)![1]);
      expect(all("SELECT id FROM category WHERE id = ? AND type = 0", id)).toHaveLength(1);
    }
  });

  test("friend links, and ads at index_1 and (the VIP one, once /joinvip exists) global_bottom", () => {
    expect(all<{ link: string }>("SELECT link FROM friendlink WHERE enable = 1").length).toBeGreaterThanOrEqual(3);
    const ads = all<{ position: string; content: string }>("SELECT position, content FROM advertisement WHERE enable = 1");
    expect(ads.map((a) => a.position).sort()).toEqual(SECTIONS.vip ? ["global_bottom", "index_1"] : ["index_1"]);
    for (const a of ads) expect(a.content).not.toContain("<script");
  });

  test("banners: PNG files under DATA_DIR/uploads recorded as type-5 attachments", () => {
    const banners = all<{ id: number; path: string; type: number }>("SELECT id, path, type FROM banner");
    expect(banners).toHaveLength(SECTIONS.vip ? 3 : 2);
    for (const b of banners) {
      expect(b.type).toBe(0);
      expect(b.path).toMatch(/^\/uploads\/banner\/\d{4}\/\d{2}\/[0-9a-f]{64}\.png$/);
      const file = join(dataDir, b.path.replace(/^\//, ""));
      expect(existsSync(file)).toBe(true);
      const bytes = new Uint8Array(readFileSync(file));
      expect(sniffImage(bytes)).toMatchObject({ ext: "png", width: 960, height: 300 });
      const att = all<{ type: number; type_id: number; size: number }>("SELECT type, type_id, size FROM attachment WHERE path = ?", b.path);
      expect(att).toEqual([{ type: 5, type_id: b.id, size: bytes.length }]);
    }
  });

  test("documents: the eleven sample files, uploaded and converted with the real tools, with page text", () => {
    const docs = all<{ title: string; ext: string; status: number; pages: number; n: number }>(
      "SELECT d.title, d.ext, d.status, d.pages, (SELECT count(*) FROM document_page p WHERE p.document_id = d.id AND p.text != '') AS n FROM document d ORDER BY d.ext",
    );
    expect(docs.map((d) => d.ext)).toEqual(["docx", "docx", "epub", "md", "md", "pdf", "png", "pptx", "txt", "txt", "xlsx"]);
    for (const d of docs) {
      expect(d.status).toBe(2);
      expect(d.pages).toBeGreaterThan(0);
      if (d.ext !== "png") expect(d.n).toBeGreaterThan(0);
    }
    expect(all<{ n: number }>("SELECT count(*) AS n FROM document WHERE is_recommend = 1")[0]!.n).toBe(3);
  });

  test("nothing links into a section not built yet (/post, /article*, /joinvip)", () => {
    const hrefs = [
      ...all<{ href: string }>("SELECT href FROM navigation WHERE fixed = ''").map((n) => n.href),
      ...all<{ url: string }>("SELECT url FROM banner").map((b) => b.url),
      ...all<{ content: string }>("SELECT content FROM advertisement").flatMap((a) => [...a.content.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!)),
    ];
    expect(hrefs.length).toBeGreaterThan(5);
    expect(hrefs.filter((h) => !isBuilt(h))).toEqual([]);
  });

  test("articles: published (approved) by the administrator in article categories, indexed for search", () => {
    const rows = all<{ identifier: string; status: number; type: number; user_id: number; indexed: number }>(
      // Article rows of the full-text index start at rowid 2^52 (search/indexer.ts ARTICLE_ROWS), PAGE_BITS rows per article.
      `SELECT a.identifier, a.status, c.type, a.user_id,
        (SELECT count(*) FROM search_fts WHERE rowid >= ${ARTICLE_ROWS} AND ((rowid - ${ARTICLE_ROWS}) >> ${PAGE_BITS}) = a.id) AS indexed
       FROM article a JOIN category c ON c.id = a.category_id ORDER BY a.id`,
    );
    expect(rows.map((r) => r.identifier)).toEqual(["about", "agreement", "upload-guide", "credits-and-vip", "study-method"]);
    for (const r of rows) {
      expect(r).toMatchObject({ status: 1, type: 1, user_id: 1 });
      expect(r.indexed).toBeGreaterThan(0);
    }
    expect(all<{ n: number }>("SELECT article_count AS n FROM user WHERE id = 1")[0]!.n).toBe(5);
  });

  test("settings: site name and copyright year; footer about/agreement point at the demo articles, no other footer links", () => {
    const cfg = Object.fromEntries(all<{ k: string; value: string }>("SELECT category || '.' || name AS k, value FROM config").map((r) => [r.k, r.value]));
    expect(cfg["system.sitename"]).toBe("魔豆文库");
    expect(cfg["system.copyright_start_year"]).toBe("2021");
    expect([cfg["footer.about"], cfg["footer.agreement"]]).toEqual(["/article/about", "/article/agreement"]);
    for (const k of ["contact", "feedback"]) expect(cfg[`footer.${k}`]).toBeUndefined();
  });
});
