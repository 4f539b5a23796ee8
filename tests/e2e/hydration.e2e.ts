// Islands hydrate onto their server HTML in real Chromium. The browser build runs the islands on
// preact/compat (scripts/build.ts aliases react/react-dom) while the server renders them with
// react-dom/server, so this spec checks what that swap could break: hydration must adopt the server
// DOM (no node re-created: no flash), ids from useId must still pair labels with their fields, the
// signals-driven progress bar must follow API calls, and no console error may appear.
// Run: bun test ./tests/e2e/hydration.e2e.ts
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { openDatabase } from "#db/client.ts";
import { hashPassword } from "#src/features/auth/passwords.ts";
import { ADMIN, hydrated, launchBrowser, openPage, startServer, type Server, type TrackedPage } from "./harness.ts";

const TEST_TIMEOUT_MS = 60_000;
const UUID = "e2e0hydrate00000000000000000001";
const HASH = "0123456789abcdef0123456789abcdef";
const MEMBER = { username: "水合测试", password: "member-e2e-pass" };

async function seed(dataDir: string) {
  const { sqlite } = openDatabase(join(dataDir, "wenku.db"));
  const addUser = sqlite.prepare("INSERT INTO user (username, password, is_root) VALUES (?, ?, ?) RETURNING id");
  const admin = (addUser.get(ADMIN.username, await hashPassword(ADMIN.password), 1) as { id: number }).id;
  const member = (addUser.get(MEMBER.username, await hashPassword(MEMBER.password), 0) as { id: number }).id;
  sqlite.prepare("INSERT INTO user_group (user_id, group_id) VALUES (?, 2)").run(member);
  const doc = (sqlite.prepare(`INSERT INTO document (uuid, title, description, user_id, hash, ext, size, pages, preview, width, height, status)
    VALUES (?, '水合检查讲义', '三页的讲义。', ?, ?, 'pdf', 123456, 3, 3, 595, 842, 2) RETURNING id`).get(UUID, admin, HASH) as { id: number }).id;
  for (let n = 1; n <= 3; n++) {
    const file = join(dataDir, "documents", HASH.slice(0, 2), HASH, "pages", `${n}.svg`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `<svg xmlns="http://www.w3.org/2000/svg" width="595" height="842"><rect width="595" height="842" fill="#fff"/><text x="60" y="120" font-size="24">第 ${n} 页</text></svg>`);
  }
  const add = sqlite.prepare("INSERT INTO comment (user_id, document_id, article_id, parent_id, reply_user_id, content, status, created_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?)");
  add.run(admin, doc, null, null, 0, "第一条评论", Date.now() - 3600_000);
  sqlite.prepare("UPDATE document SET comment_count = 1 WHERE id = ?").run(doc);
  sqlite.prepare("INSERT INTO article (identifier, title, content, user_id, status) VALUES ('hydrate-article', '水合检查文章', '正文第一段。', ?, 1)").run(admin);
  sqlite.prepare("INSERT INTO config (category, name, value) VALUES ('comment', 'min_interval', '0')").run();
  sqlite.close();
}

let server: Server;
let browser: Browser;
const opened: TrackedPage[] = [];

beforeAll(async () => {
  server = await startServer({}, { beforeStart: seed });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  try {
    for (const p of opened) expect(p.errors).toEqual([]);
  } finally {
    await browser?.close();
    await server?.stop();
  }
});

async function tracked(width = 1280, height = 900) {
  const p = await openPage(browser, width, height);
  opened.push(p);
  return p;
}

async function loginAsMember(page: Page) {
  await page.goto(`${server.url}/login`);
  await page.locator('input[name="username"]').fill(MEMBER.username);
  await page.locator('input[name="password"]').fill(MEMBER.password);
  await page.locator('main button[type="submit"]:not([disabled])').click();
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
}

/**
 * Opens `path` with the island chunks held back, remembers every element and text node the server
 * rendered inside each island, lets the islands load, waits until all of them hydrated (scrolling
 * the page so below-the-fold ones load too), and answers which islands lost server nodes.
 */
async function hydrationKeepsServerDom(page: Page, path: string) {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  // Island entry chunks are PascalCase (Name-hash.js); the client and shared chunks load freely.
  const held = /\/assets\/[A-Z]\w*-\w+\.js$/;
  await page.route(held, async (route) => {
    await gate;
    await route.continue();
  });
  await page.goto(server.url + path, { waitUntil: "domcontentloaded" });
  const islands = await page.evaluate(() => {
    const w = window as unknown as { __ssr: [string, Node][] };
    w.__ssr = [];
    for (const island of document.querySelectorAll<HTMLElement>("[data-island]")) {
      const walk = document.createTreeWalker(island, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
      while (walk.nextNode()) w.__ssr.push([island.dataset.island!, walk.currentNode]);
    }
    return [...document.querySelectorAll<HTMLElement>("[data-island]")].map((el) => el.dataset.island!);
  });
  release();
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  for (const name of new Set(islands)) await hydrated(page, name);
  await page.unroute(held);
  return page.evaluate(() => {
    const w = window as unknown as { __ssr: [string, Node][] };
    const lost: Record<string, number> = {};
    const total: Record<string, number> = {};
    for (const [name, node] of w.__ssr) {
      total[name] = (total[name] ?? 0) + 1;
      if (!node.isConnected) lost[name] = (lost[name] ?? 0) + 1;
    }
    return { total, lost };
  });
}

/** Every id a label, aria-labelledby or aria-describedby inside an island refers to exists. */
function danglingIdRefs(page: Page) {
  return page.evaluate(() => {
    const bad: string[] = [];
    for (const island of document.querySelectorAll("[data-island]")) {
      for (const l of island.querySelectorAll<HTMLLabelElement>("label[for]")) if (!document.getElementById(l.htmlFor)) bad.push(`label for=${l.htmlFor}`);
      for (const el of island.querySelectorAll("[aria-labelledby],[aria-describedby]")) {
        for (const attr of ["aria-labelledby", "aria-describedby"]) {
          for (const id of (el.getAttribute(attr) ?? "").split(/\s+/).filter(Boolean)) if (!document.getElementById(id)) bad.push(`${attr}=${id}`);
        }
      }
    }
    return bad;
  });
}

describe("hydration on preact/compat", () => {
  test("a visitor's pages: every island adopts the server HTML, none is re-created", async () => {
    const { page } = await tracked();
    for (const path of ["/", "/login", "/register", `/document/${UUID}`, "/article/hydrate-article", `/search?wd=${encodeURIComponent("讲义")}`]) {
      const { total, lost } = await hydrationKeepsServerDom(page, path);
      expect(Object.keys(total).length).toBeGreaterThan(3);
      expect([path, lost]).toEqual([path, {}]);
      expect([path, await danglingIdRefs(page)]).toEqual([path, []]);
    }
  }, TEST_TIMEOUT_MS);

  test("a member's pages too; useId pairs labels and fields before and after a client-rendered reply form", async () => {
    const { page } = await tracked();
    await loginAsMember(page);
    for (const path of ["/", `/document/${UUID}`, "/article/hydrate-article", "/upload", "/post"]) {
      const { lost } = await hydrationKeepsServerDom(page, path);
      expect([path, lost]).toEqual([path, {}]);
      expect([path, await danglingIdRefs(page)]).toEqual([path, []]);
    }
    // The server-rendered comment form: its label names the textarea it was rendered with.
    await page.goto(`${server.url}/document/${UUID}`);
    await page.evaluate(() => document.getElementById("comments")!.scrollIntoView({ block: "start" }));
    await hydrated(page, "Comments");
    // Found by its label (label for= → textarea id), typed into as a controlled field.
    const box = page.getByLabel("写下你的评论，友善发言", { exact: true });
    await box.fill("水合以后输入的内容");
    expect(await box.inputValue()).toBe("水合以后输入的内容");
    expect(await page.locator("#comments .cmt-count").first().textContent()).toMatch(/^9\//);
    // A reply form rendered by the client gets its own ids, still paired.
    await page.locator("#comments").getByRole("button", { name: "回复", exact: true }).first().click();
    expect(await page.locator("#comments textarea").count()).toBe(2);
    expect(await danglingIdRefs(page)).toEqual([]);
    const ids = await page.locator("#comments textarea").evaluateAll((els) => els.map((e) => e.id));
    expect(new Set(ids).size).toBe(2);
  }, TEST_TIMEOUT_MS);

  test("the top progress bar (a shared signal) shows while an API call is slow", async () => {
    const { page } = await tracked();
    const seen: boolean[] = [];
    const active = () => page.evaluate(() => document.querySelector(".top-progress")!.classList.contains("active"));
    await page.route("**/api/v1/user/login", async (route) => {
      await new Promise((r) => setTimeout(r, 600));
      seen.push(await active()); // past the 200 ms throttle, the call still pending
      await route.continue();
    });
    await page.goto(`${server.url}/login`);
    await hydrated(page, "ProgressBar");
    await hydrated(page, "LoginForm");
    expect(await active()).toBe(false);
    await page.locator('input[name="username"]').fill(MEMBER.username);
    await page.locator('input[name="password"]').fill(MEMBER.password);
    await page.locator('main button[type="submit"]:not([disabled])').click();
    await page.waitForURL((u) => !u.pathname.startsWith("/login"));
    expect(seen).toEqual([true]);
  }, TEST_TIMEOUT_MS);
});
