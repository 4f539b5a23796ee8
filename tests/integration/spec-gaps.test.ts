// Issue 15 spec gaps: home/user ad slots (VIPs see none), navigation `fixed` + `children`,
// admin date ranges (spec §9 quick ranges), friend link `field`/`enable`, the settings language
// list and reports on the generic statuses of spec §4 (with the migration of old rows).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { eq } from "drizzle-orm";
import { getDb, getSqlite } from "#db/client.ts";
import { punishment, verifyCode } from "#db/schema/accounts.ts";
import { document, report } from "#db/schema/documents.ts";
import { attachment } from "#db/schema/site.ts";
import { user } from "#db/schema/users.ts";
import { bumpContentVersion } from "#src/lib/contentVersion.ts";
import { dayStartMs, quickRange } from "#src/lib/dateRange.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { makeDoc, useDocumentsRoot } from "./reader-fixtures.ts";

const t = setupTestApp();
let docsRoot = "";
beforeAll(() => void (docsRoot = useDocumentsRoot()));
afterAll(() => rmSync(docsRoot, { recursive: true, force: true }));
const root = (method: string, path: string, body?: unknown) => t.req(method, path, { token: t.rootToken, body });
const html = { accept: "text/html" };

describe("ads at the home (index_1…4) and user page (user_1, user_2) positions", () => {
  test("each ad renders on its page; VIP users see none", async () => {
    for (const position of ["index_1", "index_2", "index_3", "index_4", "user_1", "user_2"]) {
      const r = await root("POST", "/api/v1/advertisement", { title: position, position, content: `<b class="ad-${position}">广告${position}</b>` });
      expect(r.status).toBe(200);
    }
    const home = await t.req("GET", "/", { headers: html });
    for (const n of [1, 2, 3, 4]) expect(home.text).toContain(`广告index_${n}`);
    expect(home.text).not.toContain("广告user_1");
    const page = await t.req("GET", `/user/${t.userId}`, { headers: html });
    expect(page.status).toBe(200);
    expect(page.text).toContain("广告user_1");
    expect(page.text).toContain("广告user_2");
    expect(page.text).not.toContain("广告index_1");
    // The tabs of the homepage share the slots.
    expect((await t.req("GET", `/user/${t.userId}/document`, { headers: html })).text).toContain("广告user_2");

    const vip = await t.createUser("spec_gap_vip");
    getDb().update(user).set({ vip_until: Date.now() + 86_400_000 }).where(eq(user.id, vip.user.id)).run();
    for (const path of ["/", `/user/${t.userId}`]) {
      const r = await t.req("GET", path, { token: vip.token, headers: html });
      expect(r.status).toBe(200);
      expect(r.text).not.toContain("广告");
    }
    // An expired membership shows ads again.
    getDb().update(user).set({ vip_until: Date.now() - 1000 }).where(eq(user.id, vip.user.id)).run();
    expect((await t.req("GET", "/", { token: vip.token, headers: html })).text).toContain("广告index_1");
  });
});

describe("navigation: fixed entries and children", () => {
  const fixedOf = async () => (await root("GET", "/api/v1/navigation/list")).body.navigation.filter((n: any) => n.fixed);

  test("the list is a tree with fixed and children; the fixed entries are seeded", async () => {
    const parent = (await root("POST", "/api/v1/navigation", { title: "帮助中心", sort: 5 })).body;
    await root("POST", "/api/v1/navigation", { title: "常见问题", href: "/help/faq", parent_id: parent.id });
    await root("POST", "/api/v1/navigation", { title: "隐藏的子项", href: "/help/x", parent_id: parent.id, enable: false });
    const r = await t.req("GET", "/api/v1/navigation/list");
    expect(r.status).toBe(200);
    const nav = r.body.navigation;
    expect(r.body.total).toBe(nav.length);
    expect(nav.slice(0, 3).map((n: any) => [n.title, n.href, n.fixed])).toEqual([["首页", "/", "home"], ["文档分类", "/category", "category"], ["文章资讯", "/article", "article"]]);
    for (const n of nav) expect(Object.keys(n)).toEqual(expect.arrayContaining(["id", "title", "href", "enable", "fixed", "children", "color", "target", "parent_id"]));
    const help = nav.find((n: any) => n.id === parent.id);
    expect(help.children.map((c: any) => c.title)).toEqual(["常见问题"]);
    expect(help.children[0]).toMatchObject({ parent_id: parent.id, fixed: "", children: [] });
    // Children are not repeated at the top level.
    expect(nav.some((n: any) => n.title === "常见问题")).toBe(false);
    // Admins see the disabled child too.
    const admin = await root("GET", "/api/v1/navigation/list");
    expect(admin.body.navigation.find((n: any) => n.id === parent.id).children.map((c: any) => c.title)).toEqual(["常见问题", "隐藏的子项"]);
  });

  test("renaming, hiding and reordering a fixed entry changes the header; it cannot be deleted or moved", async () => {
    const [home, cats, articles] = await fixedOf();
    expect((await root("PUT", "/api/v1/navigation", { id: cats.id, title: "文库分类", sort: -100 })).status).toBe(200);
    expect((await root("PUT", "/api/v1/navigation", { id: articles.id, enable: false })).status).toBe(200);
    const page = await t.req("GET", "/", { headers: html });
    const header = page.text.slice(page.text.indexOf('class="main-nav"'), page.text.indexOf("</nav>", page.text.indexOf('class="main-nav"')));
    expect(header).toContain(">文库分类</a>");
    expect(header).not.toContain("文档分类");
    expect(header).not.toContain("文章资讯");
    // Renamed category entry now comes before home (sort -100 < -30).
    expect(header.indexOf("文库分类")).toBeLessThan(header.indexOf(">首页<"));
    // The mobile drawer reads the same entries.
    const drawer = page.text.slice(page.text.indexOf('class="mobile-nav"'));
    expect(drawer).toContain("文库分类");
    expect(drawer).not.toContain("文章资讯");

    const del = await root("DELETE", `/api/v1/navigation?id=${home.id}`);
    expect([del.status, del.body.message]).toEqual([400, "「首页」是固定导航，不能删除，可以禁用"]);
    expect((await root("PUT", "/api/v1/navigation", { id: home.id, href: "/elsewhere" })).status).toBe(400);
    const custom = (await root("POST", "/api/v1/navigation", { title: "自定义" })).body;
    expect((await root("PUT", "/api/v1/navigation", { id: home.id, parent_id: custom.id })).status).toBe(400);
    expect((await root("POST", "/api/v1/navigation", { title: "子项", parent_id: cats.id })).body.message).toBe("固定导航不能有下级导航");
    // A fixed flag cannot be forged through the API.
    const forged = (await root("POST", "/api/v1/navigation", { title: "伪造", fixed: "home" })).body;
    expect(forged.fixed).toBe("");
    expect((await fixedOf()).length).toBe(3);
    await root("PUT", "/api/v1/navigation", { id: articles.id, enable: true });
    await root("PUT", "/api/v1/navigation", { id: cats.id, title: "文档分类", sort: -20 });
  });
});

describe("admin lists filter by a date range (start/end, Asia/Shanghai days)", () => {
  // 2024-05-01 10:00 and 2024-05-20 10:00 in Shanghai.
  const early = dayStartMs("2024-05-01")! + 10 * 3_600_000;
  const late = dayStartMs("2024-05-20")! + 10 * 3_600_000;
  const range = "start=2024-05-15&end=2024-05-20";

  test("users, attachments, punishments, SMS, reports and documents", async () => {
    const a = await t.createUser("range_early");
    const b = await t.createUser("range_late");
    getDb().update(user).set({ created_at: early }).where(eq(user.id, a.user.id)).run();
    getDb().update(user).set({ created_at: late }).where(eq(user.id, b.user.id)).run();
    const users = (await root("GET", `/api/v1/user/list?${range}&wd=range_`)).body.user.map((u: any) => u.username);
    expect(users).toEqual(["range_late"]);

    for (const [name, at] of [["early.png", early], ["late.png", late]] as const) {
      getDb().insert(attachment).values({ hash: name, path: `/uploads/${name}`, name, created_at: at }).run();
      getDb().insert(punishment).values({ user_id: a.user.id, type: 1, reason: `range ${name}`, created_at: at }).run();
      getDb().insert(verifyCode).values({ channel: "mobile", target: name === "late.png" ? "13800000002" : "13800000001", type: 0, code_hash: "x", expires_at: at, created_at: at }).run();
    }
    expect((await root("GET", `/api/v1/attachment/list?${range}`)).body.attachment.map((x: any) => x.name)).toEqual(["late.png"]);
    expect((await root("GET", `/api/v1/punishment/list?${range}`)).body.punishment.map((x: any) => x.reason)).toEqual(["range late.png"]);
    expect((await root("GET", `/api/v1/sms/list?${range}`)).body.sms.map((x: any) => x.mobile)).toEqual(["13800000002"]);
    // The end day is inclusive up to its last millisecond; the start day from its first.
    expect((await root("GET", "/api/v1/attachment/list?start=2024-05-20&end=2024-05-20")).body.total).toBe(1);
    expect((await root("GET", "/api/v1/attachment/list?start=2024-05-21")).body.total).toBe(0);
    expect((await root("GET", "/api/v1/attachment/list?end=2024-05-01")).body.attachment.map((x: any) => x.name)).toEqual(["early.png"]);

    const d1 = makeDoc({ userId: t.userId, title: "早的文档" });
    const d2 = makeDoc({ userId: t.userId, title: "晚的文档" });
    getDb().update(document).set({ created_at: early }).where(eq(document.id, d1.id)).run();
    getDb().update(document).set({ created_at: late }).where(eq(document.id, d2.id)).run();
    expect((await root("GET", `/api/v1/document/list?${range}&wd=的文档`)).body.document.map((x: any) => x.title)).toEqual(["晚的文档"]);
    getDb().insert(report).values([{ document_id: d1.id, user_id: a.user.id, reason: 1, created_at: early }, { document_id: d2.id, user_id: a.user.id, reason: 1, created_at: late }]).run();
    expect((await root("GET", `/api/v1/report/list?${range}`)).body.report.map((x: any) => x.document_title)).toEqual(["晚的文档"]);
  });

  test("bad ranges are Chinese 400s on every list", async () => {
    for (const list of ["user", "attachment", "punishment", "sms", "report", "document", "searchrecord"]) {
      const bad = await root("GET", `/api/v1/${list}/list?start=2024-02-30`);
      expect([list, bad.status, bad.body.message]).toEqual([list, 400, "开始日期不正确，应为 YYYY-MM-DD"]);
      const reversed = await root("GET", `/api/v1/${list}/list?start=2024-05-02&end=2024-05-01`);
      expect([list, reversed.status, reversed.body.message]).toEqual([list, 400, "开始日期不能晚于结束日期"]);
      expect((await root("GET", `/api/v1/${list}/list?start=&end=`)).status).toBe(200);
    }
  });

  test("quick ranges of spec §9 end today (Asia/Shanghai)", () => {
    // 2024-03-31 12:00 Shanghai
    const now = dayStartMs("2024-03-31")! + 12 * 3_600_000;
    expect(quickRange("day", now)).toEqual({ start: "2024-03-31", end: "2024-03-31" });
    expect(quickRange("week", now)).toEqual({ start: "2024-03-25", end: "2024-03-31" });
    expect(quickRange("month", now)).toEqual({ start: "2024-03-01", end: "2024-03-31" });
    expect(quickRange("quarter", now)).toEqual({ start: "2024-01-01", end: "2024-03-31" });
    expect(quickRange("halfyear", now)).toEqual({ start: "2023-10-01", end: "2024-03-31" });
    expect(quickRange("year", now)).toEqual({ start: "2023-04-01", end: "2024-03-31" });
    // 23:30 UTC is already the next day in Shanghai.
    expect(quickRange("day", Date.UTC(2024, 4, 1, 23, 30))).toEqual({ start: "2024-05-02", end: "2024-05-02" });
  });

  test("the admin screens carry the date-range picker", async () => {
    for (const path of ["/admin/user/list", "/admin/attachment", "/admin/user/punishment", "/admin/user/sms", "/admin/report", "/admin/document/list", "/admin/document/searchrecord"]) {
      const page = await t.req("GET", path, { token: t.rootToken, headers: html });
      expect([path, page.status]).toEqual([path, 200]);
      expect([path, page.text.includes("adm-date-range"), page.text.includes("最近三月")]).toEqual([path, true, true]);
    }
  });
});

describe("friend links: field and enable for everyone", () => {
  test("anonymous callers get enabled links only, any field list is allow-listed", async () => {
    await root("POST", "/api/v1/friendlink", { title: "启用友链", link: "https://on.example" });
    await root("POST", "/api/v1/friendlink", { title: "停用友链", link: "https://off.example", enable: false });
    for (const token of [undefined, t.userToken]) {
      const on = await t.req("GET", "/api/v1/friendlink/list?enable=true&field=id&field=title&field=link", { token });
      expect(on.body.friendlink.map((f: any) => f.title)).toEqual(["启用友链"]);
      expect(Object.keys(on.body.friendlink[0]).sort()).toEqual(["id", "link", "title"]);
      const off = await t.req("GET", "/api/v1/friendlink/list?enable=false", { token });
      expect([off.status, off.body.total, off.body.friendlink]).toEqual([200, 0, []]);
      const all = await t.req("GET", "/api/v1/friendlink/list?field=title,password", { token });
      expect(all.body.friendlink).toEqual([{ title: "启用友链" }]);
    }
    const adminOff = await root("GET", "/api/v1/friendlink/list?enable=false&field=title&field=enable");
    expect(adminOff.body.friendlink).toEqual([{ title: "停用友链", enable: false }]);
  });
});

describe("settings carry the language list", () => {
  test("enabled languages with code and name, in admin order", async () => {
    const r = await t.req("GET", "/api/v1/settings");
    expect(r.body.language).toEqual([{ code: "zh", name: "中文" }, { code: "en", name: "English" }, { code: "zh-TW", name: "繁體中文" }]);
    getSqlite().exec("UPDATE language SET enable = 1 WHERE code = 'ja'");
    expect((await t.req("GET", "/api/v1/settings")).body.language.map((l: any) => l.code)).toContain("ja");
    getSqlite().exec("UPDATE language SET enable = 0 WHERE code = 'ja'");
    bumpContentVersion();
  });
});

describe("reports use the generic statuses (spec §4)", () => {
  test("migration 0014 maps old 0 pending → 2, 1 handled → 0", () => {
    const dir = mkdtempSync(join(tmpdir(), "wk-report-migration-"));
    try {
      const src = join(import.meta.dir, "../../db/migrations");
      const old = join(dir, "old");
      cpSync(src, old, { recursive: true });
      const journalFile = join(old, "meta/_journal.json");
      const journal = JSON.parse(readFileSync(journalFile, "utf8"));
      journal.entries = journal.entries.filter((e: { tag: string }) => e.tag < "0013");
      writeFileSync(journalFile, JSON.stringify(journal));
      const sqlite = new Database(join(dir, "wenku.db"), { create: true, strict: true });
      const db = drizzle(sqlite);
      migrate(db, { migrationsFolder: old });
      sqlite.exec("PRAGMA foreign_keys = OFF");
      sqlite.exec("INSERT INTO report (document_id, user_id, reason, status) VALUES (1, 1, 1, 0), (2, 1, 2, 1), (3, 1, 3, 0)");
      migrate(db, { migrationsFolder: src });
      expect(sqlite.query("SELECT document_id, status FROM report ORDER BY id").all()).toEqual([{ document_id: 1, status: 2 }, { document_id: 2, status: 0 }, { document_id: 3, status: 2 }]);
      expect(sqlite.query("SELECT title, fixed FROM navigation WHERE fixed != '' ORDER BY sort").all()).toEqual([{ title: "首页", fixed: "home" }, { title: "文档分类", fixed: "category" }, { title: "文章资讯", fixed: "article" }]);
      sqlite.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the admin screen offers pending, handled and ignored", async () => {
    const page = await t.req("GET", "/admin/report", { token: t.rootToken, headers: html });
    for (const label of ["待处理", "已处理", "已忽略"]) expect(page.text).toContain(label);
  });
});
