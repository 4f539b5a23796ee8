// Password recovery by e-mail in real Chromium against a real server process, with the mail read
// from a loopback SMTP sink: /findpassword → link from the mail → new password → log in with it.
// Run: bun test ./tests/e2e/email.e2e.ts
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import type { Browser, } from "playwright-core";
import { join } from "node:path";
import { startSmtpSink, type SmtpSink } from "../helpers/smtpSink.ts";
import { hydrated, ADMIN, launchBrowser, loginAsAdmin, openPage, screenshotCheck, startServer, type Server, type TrackedPage } from "./harness.ts";

let server: Server;
let browser: Browser;
let sink: SmtpSink;
const opened: TrackedPage[] = [];
const READER = { username: "mail-reader", email: "mail.reader@example.com", password: "old-password-9" };

async function api(method: string, path: string, body: unknown, token?: string) {
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method, body: JSON.stringify(body), headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  return { status: res.status, body: (await res.json()) as any };
}

beforeAll(async () => {
  sink = await startSmtpSink();
  server = await startServer();
  browser = await launchBrowser();

  // The admin points the site's SMTP settings at the sink, through the same API the config screen uses.
  const admin = await api("POST", "/user/login", { username: ADMIN.username, password: ADMIN.password });
  expect(admin.status).toBe(200);
  const values = { enable: true, host: "127.0.0.1", port: sink.port, is_tls: false, from_name: "魔豆文库", username: sink.user, password: sink.pass, duration: 10 };
  const saved = await api("PUT", "/config", { config: Object.entries(values).map(([name, value]) => ({ category: "email", name, value })) }, admin.body.token);
  expect(saved.status).toBe(200);

  // A member with an address; the register flow is not what this spec is about.
  const db = new Database(join(server.dataDir, "wenku.db"));
  db.run("PRAGMA busy_timeout = 5000");
  db.query("INSERT INTO user (username, password, email) VALUES (?, ?, ?)").run(READER.username, await Bun.password.hash(READER.password, { algorithm: "argon2id" }), READER.email);
  db.close();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await sink?.close();
});


describe("find password by e-mail", () => {
  test("request the link, open it from the mail, set a new password, log in with it", async () => {
    const p = await openPage(browser, 1280);
    opened.push(p);
    const { page } = p;

    await page.goto(`${server.url}/findpassword`);
    expect(await page.locator("header").count()).toBeGreaterThan(0);
    await hydrated(page, "FindPasswordForm");
    await page.locator('input[name="email"]').fill(READER.email);
    await page.getByRole("button", { name: "发送重置邮件" }).click();
    await page.getByText("已发送，请查收邮件").waitFor();
    expect((await screenshotCheck(page, "findpassword-sent")).distinctColours).toBeGreaterThan(20);

    const mail = await sink.waitFor(READER.email);
    expect(mail.subject).toBe("【魔豆文库】找回密码");
    const link = /(http:\/\/[^\s"<]+\/findpassword\?[^\s"<]+)/.exec(mail.text)?.[1];
    expect(link?.startsWith(`${server.url}/findpassword?token=`)).toBe(true);

    await page.goto(link!);
    await hydrated(page, "FindPasswordForm");
    expect(await page.locator('input[name="email"]').inputValue()).toBe(READER.email);
    await page.locator('input[name="password"]').fill("new-password-9");
    await page.locator('input[name="repeat_password"]').fill("new-password-8");
    await page.getByRole("button", { name: "重置密码" }).click();
    await page.getByText("两次输入的密码不一致").waitFor();
    await page.locator('input[name="repeat_password"]').fill("new-password-9");
    await page.getByRole("button", { name: "重置密码" }).click();
    await page.waitForURL((u) => u.pathname === "/login");
    await page.getByText("密码重置成功").waitFor();

    await hydrated(page, "LoginForm");
    await page.locator('input[name="username"]').fill(READER.username);
    await page.locator('input[name="password"]').fill("new-password-9");
    await page.locator('main button[type="submit"]:not([disabled])').click();
    await page.waitForURL((u) => !u.pathname.startsWith("/login"));
    const me = await page.request.get(`${server.url}/api/v1/user`);
    expect(me.status()).toBe(200);
    expect((await me.json()).user.username).toBe(READER.username);

    // The link is single-use, and the old password is gone.
    const token = new URL(link!).searchParams.get("token");
    expect((await api("PUT", "/user/findpassword/steptwo", { email: READER.email, token, password: "another-pass-1" })).body.message).toBe("重置链接已使用，请重新找回密码");
    expect((await api("POST", "/user/login", { username: READER.username, password: READER.password })).status).toBe(401);
  }, 60_000);

  test("admin sends a test mail from /admin/config/email", async () => {
    const p = await openPage(browser, 1280);
    opened.push(p);
    const { page } = p;
    await loginAsAdmin(page, server.url);
    await page.goto(`${server.url}/admin/config/email`);
    await hydrated(page, "AdminEmailTest");
    expect(await page.locator("#f-host").inputValue()).toBe("127.0.0.1");
    await page.locator("#f-test-email").fill("admin.box@example.com");
    await page.getByRole("button", { name: "发送测试邮件" }).click();
    await page.locator('main [role="status"]').getByText("测试邮件已发送，请查收").waitFor();
    expect((await sink.waitFor("admin.box@example.com")).subject).toBe("【魔豆文库】测试邮件");
    expect((await screenshotCheck(page, "admin-config-email")).distinctColours).toBeGreaterThan(20);
  }, 30_000);

  test("no console errors on the pages visited", () => {
    for (const p of opened) expect(p.errors).toEqual([]);
  });
});
