// Guards of spec §6 for /me and /chat*, the profile and password APIs with the §5 messages,
// sign-in message, activity feed (articles and comments included) and the public homepage /user/{id}.
import { describe, expect, test } from "bun:test";
import { getSqlite } from "#db/client.ts";
import { SECTIONS } from "#src/features/site/sections.ts";
import { resetAll } from "#src/lib/rateLimit.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { freshIp, INJECTIONS, setConfig } from "./accounts-fixtures.ts";
import { makeDoc } from "./reader-fixtures.ts";

const t = setupTestApp();
const html = { accept: "text/html" };
const asCookie = (token: string) => ({ ...html, cookie: `wk_token=${token}` });
const profile = (token: string, body: Record<string, unknown>) => t.req("PUT", "/api/v1/user/profile", { token, body });

describe("guards (spec §6)", () => {
  test("anonymous visitors of /me, its children and chat pages go to /login with the way back", async () => {
    for (const path of ["/me", "/me/profile", "/me/password", "/me/vip", "/chat", "/chat/x", "/chat/dialog?q=1"]) {
      const r = await t.req("GET", path, { headers: html });
      expect(r.status).toBe(302);
      expect(r.res.headers.get("location")).toBe(`/login?redirect=${encodeURIComponent(path)}`);
    }
    // Paths that merely start with the same letters are not guarded.
    expect((await t.req("GET", "/meta", { headers: html })).res.headers.get("location") ?? "").not.toStartWith("/login");
  });

  test("signed-in users reach every /me page", async () => {
    for (const path of ["/me", "/me/article", "/me/document", "/me/download", "/me/favorite", "/me/order", "/me/password", "/me/profile", "/me/vip"]) {
      const r = await t.req("GET", path, { headers: asCookie(t.userToken) });
      expect({ path, status: r.status }).toEqual({ path, status: 200 });
      expect(r.text).toContain('class="me-nav"');
      // 我的文章 is in the side navigation only once the articles section exists (its page answers anyway).
      if (path !== "/me/article" || SECTIONS.articles) expect(r.text).toContain(`href="${path}" class="active"`);
    }
  });

  test("closed site: a user without permissions is shown /login (with the notice), not bounced in a loop", async () => {
    await setConfig(t, "security", { is_close: true, close_statement: "系统升级中" });
    try {
      const home = await t.req("GET", "/", { headers: asCookie(t.userToken) });
      expect(home.res.headers.get("location")).toStartWith("/login");
      const login = await t.req("GET", "/login", { headers: asCookie(t.userToken) });
      expect(login.status).toBe(200);
      expect(login.text).toContain("系统升级中");
      expect(login.text).toContain("当前账号无权访问");
      // Anonymous users on a closed site: the login page and what it calls only.
      expect((await t.req("GET", "/register", { headers: html })).status).toBe(302);
      expect((await t.req("POST", "/api/v1/user/register", { body: { username: "closed_site", password: "secret-123" } })).status).toBe(401);
      expect((await t.req("GET", "/api/v1/user/captcha?type=login")).status).toBe(200);
      // The logout call stays open so such a user can leave.
      const { token } = await t.createUser("closed_leaver");
      expect((await t.req("DELETE", "/api/v1/user/logout", { token })).status).toBe(200);
    } finally {
      await setConfig(t, "security", { is_close: false });
    }
  });
});

describe("PUT /api/v1/user/profile (spec §2 fields, §5 rules)", () => {
  test("username required, e-mail format, mobile rule: Chinese 400s", async () => {
    const { token } = await t.createUser("profile_rules");
    const cases: [Record<string, unknown>, string][] = [
      [{ username: "" }, "请输入登录用户名"],
      [{ username: "   " }, "请输入登录用户名"],
      [{ username: "x" }, "用户名长度为 2-64 个字符"],
      [{ username: "<b>bold</b>" }, "用户名只能包含字母、数字、下划线和汉字"],
      [{ email: "not-mail" }, "请输入正确的邮箱"],
      [{ mobile: "12800138000" }, "请输入正确的手机号"],
      [{ realname: "名".repeat(65) }, "真实姓名不能超过 64 个字符"],
      [{ identity: "1".repeat(33) }, "身份证号不能超过 32 个字符"],
      [{ address: "路".repeat(256) }, "地址不能超过 255 个字符"],
      [{ signature: "签".repeat(256) }, "签名不能超过 255 个字符"],
    ];
    for (const [body, message] of cases) {
      const r = await profile(token, body);
      expect({ body, status: r.status, message: r.body.message }).toEqual({ body, status: 400, message });
    }
  });

  test("saves every field; 修改成功; e-mail and mobile are set once and then kept", async () => {
    const { token, user } = await t.createUser("profile_save");
    const r = await profile(token, { username: "资料_已改", realname: "张三", identity: "110101199001011234", email: "Zhang@Example.com", mobile: "13800138000", address: "北京市海淀区", signature: "你好，世界" });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe("修改成功");
    expect(r.body.user).toMatchObject({ id: user.id, username: "资料_已改", realname: "张三", identity: "110101199001011234", email: "zhang@example.com", mobile: "13800138000", address: "北京市海淀区", signature: "你好，世界" });
    const again = await profile(token, { email: "other@example.com", mobile: "13900139000" });
    expect(again.body.user).toMatchObject({ email: "zhang@example.com", mobile: "13800138000" });
    const page = await t.req("GET", "/me/profile", { headers: asCookie(token) });
    expect(page.text).toMatch(/<input[^>]*name="email"[^>]*disabled/);
    expect(page.text).toMatch(/<input[^>]*name="mobile"[^>]*disabled/);
  });

  test("fields not yet set stay editable on the page", async () => {
    const { token } = await t.createUser("profile_open");
    const page = await t.req("GET", "/me/profile", { headers: asCookie(token) });
    for (const name of ["username", "realname", "identity", "email", "mobile", "address"]) expect(page.text).toContain(`name="${name}"`);
    expect(page.text).toContain('name="signature"');
    expect(page.text).not.toMatch(/<input[^>]*name="email"[^>]*disabled/);
  });

  test("names, e-mails and mobiles of others are refused with 409", async () => {
    const a = await t.createUser("taken_a");
    await profile(a.token, { email: "taken@example.com", mobile: "13700137000" });
    const b = await t.createUser("taken_b");
    expect((await profile(b.token, { username: "taken_a" })).body).toEqual({ code: "conflict", message: "用户名已被占用" });
    expect((await profile(b.token, { email: "taken@example.com" })).body.message).toBe("邮箱已被占用");
    expect((await profile(b.token, { mobile: "13700137000" })).body.message).toBe("手机号已被占用");
  });

  test("injection strings are stored verbatim and shown escaped on /user/{id}", async () => {
    const { token, user } = await t.createUser("inject_me");
    const [sql, , script, img, tpl] = INJECTIONS;
    const r = await profile(token, { realname: sql, identity: "' OR '1'='1", address: img, signature: script });
    expect(r.status).toBe(200);
    const row = getSqlite().query("select realname, identity, address, signature from user where id = ?").get(user.id);
    expect(row).toEqual({ realname: sql, identity: "' OR '1'='1", address: img, signature: script });
    expect((await profile(token, { signature: tpl })).status).toBe(200);
    await profile(token, { signature: script });
    const page = await t.req("GET", `/user/${user.id}`, { headers: html });
    expect(page.status).toBe(200);
    expect(page.text).not.toContain("<script>alert('xss')</script>");
    expect(page.text).toContain("&lt;script&gt;alert(&#x27;xss&#x27;)&lt;/script&gt;");
    // The user table is intact.
    expect((getSqlite().query("select count(*) as n from user").get() as { n: number }).n).toBeGreaterThan(1);
  });

  test("anonymous: 401", async () => {
    expect((await t.req("PUT", "/api/v1/user/profile", { body: { signature: "x" } })).status).toBe(401);
  });
});

describe("PUT /api/v1/user/password", () => {
  test("spec §5 messages for missing fields; wrong old password", async () => {
    const { token, user } = await t.createUser("pw_rules", { password: "old-password-1" });
    const put = (body: Record<string, unknown>) => t.req("PUT", "/api/v1/user/password", { token, body: { id: user.id, ...body } });
    expect((await put({ new_password: "new-password-1" })).body.message).toBe("请输入旧密码");
    expect((await put({ old_password: "", new_password: "new-password-1" })).body.message).toBe("请输入旧密码");
    expect((await put({ old_password: "old-password-1" })).body.message).toBe("请输入新密码");
    expect((await put({ old_password: "old-password-1", new_password: "" })).body.message).toBe("请输入新密码");
    expect((await put({ old_password: "old-password-1", new_password: "short" })).body.message).toBe("新密码至少 6 位");
    const wrong = await put({ old_password: "not-it-123", new_password: "new-password-1" });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe("旧密码不正确");
  });

  test("success: 密码修改成功, every old session revoked, this client gets a fresh cookie and token", async () => {
    const { token, user } = await t.createUser("pw_change", { password: "old-password-1" });
    resetAll();
    const other = (await t.req("POST", "/api/v1/user/login", { body: { username: "pw_change", password: "old-password-1" }, headers: { "x-forwarded-for": freshIp() } })).body.token;
    const r = await t.req("PUT", "/api/v1/user/password", {
      body: { id: user.id, old_password: "old-password-1", new_password: "new-password-1" },
      headers: { cookie: `wk_token=${token}`, "sec-fetch-site": "same-origin" },
    });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe("密码修改成功");
    const fresh = r.body.token;
    expect(r.res.headers.get("set-cookie")).toContain(`wk_token=${fresh}`);
    expect((await t.req("GET", "/api/v1/user", { token })).status).toBe(401);
    expect((await t.req("GET", "/api/v1/user", { token: other })).status).toBe(401);
    expect((await t.req("GET", "/api/v1/user", { token: fresh })).status).toBe(200);
    // The renewed cookie keeps cookie-authenticated writes working.
    expect((await t.req("PUT", "/api/v1/user/profile", { body: { signature: "改好了" }, headers: { cookie: `wk_token=${fresh}`, "sec-fetch-site": "same-origin" } })).status).toBe(200);
    const login = (password: string) => t.req("POST", "/api/v1/user/login", { body: { username: "pw_change", password }, headers: { "x-forwarded-for": freshIp() } });
    expect((await login("old-password-1")).status).toBe(401);
    expect((await login("new-password-1")).status).toBe(200);
  });

  test("/me/password shows the username read-only and the four fields", async () => {
    const page = await t.req("GET", "/me/password", { headers: asCookie(t.userToken) });
    expect(page.text).toMatch(/<input[^>]*name="username"[^>]*value="member"[^>]*readOnly|<input[^>]*name="username"[^>]*readonly/i);
    for (const name of ["old_password", "new_password", "confirm_password"]) expect(page.text).toContain(`name="${name}"`);
  });
});

describe("daily sign-in message (spec §8)", () => {
  test("reward in the credit name; default 魔豆; a second sign-in the same day is refused", async () => {
    const { token, user } = await t.createUser("signer");
    const r = await t.req("PUT", "/api/v1/user/sign", { token });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ award: 1, message: "签到成功，获得 1 魔豆奖励" });
    const again = await t.req("PUT", "/api/v1/user/sign", { token });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("今日已签到");
    expect((await t.req("GET", "/api/v1/user/sign", { token })).body.award).toBe(1);
    const feed = await t.req("GET", `/api/v1/user/dynamic?id=${user.id}`);
    expect(feed.body.dynamic[0].content).toBe("签到成功，获得 1 魔豆");
  });

  test("configured credit name and award", async () => {
    await setConfig(t, "system", { credit_name: "金币" });
    await setConfig(t, "score", { sign_in: 5 });
    try {
      const { token } = await t.createUser("signer_gold");
      expect((await t.req("PUT", "/api/v1/user/sign", { token })).body.message).toBe("签到成功，获得 5 金币奖励");
      const page = await t.req("GET", "/me", { headers: asCookie(token) });
      expect(page.text).toContain("金币明细");
      expect(page.text).toContain("每日签到奖励");
      expect(page.text).toContain("今日已签到");
    } finally {
      await setConfig(t, "system", { credit_name: "魔豆" });
      await setConfig(t, "score", { sign_in: 1 });
    }
  });
});

describe("activity feed and homepage", () => {
  test("GET /api/v1/user/dynamic: {total, dynamic}, newest first, paged; own feed needs login", async () => {
    const { token, user } = await t.createUser("feeder");
    const insert = getSqlite().query("insert into dynamic (user_id, type, content, created_at) values (?, 0, ?, ?)");
    for (let i = 0; i < 12; i++) insert.run(user.id, `动态 ${i}`, Date.now() - (12 - i) * 1000);
    const first = await t.req("GET", `/api/v1/user/dynamic?id=${user.id}&page=1&size=5`);
    expect(first.body.total).toBe(12);
    expect(first.body.dynamic.map((d: { content: string }) => d.content)).toEqual(["动态 11", "动态 10", "动态 9", "动态 8", "动态 7"]);
    const last = await t.req("GET", `/api/v1/user/dynamic?id=${user.id}&page=3&size=5`);
    expect(last.body.dynamic).toHaveLength(2);
    expect((await t.req("GET", "/api/v1/user/dynamic", { token })).body.total).toBe(12);
    expect((await t.req("GET", "/api/v1/user/dynamic")).status).toBe(401);
    expect((await t.req("GET", "/api/v1/user/dynamic?id=999999")).status).toBe(404);
    expect((await t.req("GET", `/api/v1/user/dynamic?id=${user.id}&size=51`)).body.message).toBe("每页最多 50 条");
  });

  test("publishing an article and commenting write feed lines; others see them only while the article or comment is public", async () => {
    const { token, user } = await t.createUser("feed_writer");
    getSqlite().query("insert into user_group (user_id, group_id) values (?, 2)").run(user.id);
    await setConfig(t, "comment", { min_interval: 0 });
    try {
      const feed = async (tok?: string) => ((await t.req("GET", `/api/v1/user/dynamic?id=${user.id}&size=50`, { token: tok })).body.dynamic as { type: number; content: string }[]);
      const seen = async (tok?: string) => (await feed(tok)).map((d) => d.content);
      const published = "发表了文章《动态里的文章》";
      const commented = "评论了文章《动态里的文章》";

      // A member's article waits for review: the line is written at once but stays private.
      const a = await t.req("POST", "/api/v1/article", { token, body: { title: "动态里的文章", content: "正文内容" } });
      expect([a.status, a.body.status]).toEqual([200, 0]);
      expect((await feed(token)).find((d) => d.content === published)?.type).toBe(5);
      expect(await seen()).not.toContain(published);
      await t.req("PUT", "/api/v1/article/check", { token: t.rootToken, body: { id: [a.body.id], status: 1 } });
      expect(await seen()).toContain(published);

      // A comment shows once others can read it (a member's may wait for review).
      const c = await t.req("POST", "/api/v1/comment", { token, body: { article_id: a.body.id, content: "补充一点实验数据" } });
      expect(c.status).toBe(200);
      expect((await feed(token)).find((d) => d.content === commented)?.type).toBe(6);
      expect((await t.req("PUT", "/api/v1/comment/check", { token: t.rootToken, body: { id: [c.body.id], status: 1 } })).status).toBe(200);
      expect(await seen()).not.toContain(commented);
      await t.req("PUT", "/api/v1/comment/check", { token: t.rootToken, body: { id: [c.body.id], status: 0 } });
      expect(await seen()).toContain(commented);

      // Comments on documents name the document.
      const doc = makeDoc({ userId: t.rootId, title: "被评论的文档", onDisk: 0 });
      expect((await t.req("POST", "/api/v1/comment", { token, body: { document_id: doc.id, content: "很有帮助" } })).status).toBe(200);
      expect(await seen(token)).toContain("评论了文档《被评论的文档》");

      // In the recycle bin the article takes its lines private again; the owner keeps seeing them.
      await t.req("DELETE", `/api/v1/article?id=${a.body.id}`, { token: t.rootToken });
      expect(await seen()).not.toContain(published);
      expect(await seen()).not.toContain(commented);
      expect(await seen(token)).toEqual(expect.arrayContaining([published, commented]));
    } finally {
      await setConfig(t, "comment", { min_interval: 10 });
    }
  });

  test("/user/{id}: name, signature, join date, counts, displayed groups in colour, feed; tabs; 404 for unknown ids", async () => {
    const { token, user } = await t.createUser("homepage_user");
    await profile(token, { signature: "热爱分享" });
    getSqlite().query("insert into user_group (user_id, group_id) values (?, 2)").run(user.id);
    getSqlite().query("update user set doc_count = 7, article_count = 3, favorite_count = 2 where id = ?").run(user.id);
    getSqlite().query("insert into dynamic (user_id, type, content) values (?, 1, '注册成为会员')").run(user.id);
    const hidden = await t.req("GET", `/user/${user.id}`, { headers: html });
    expect(hidden.text).not.toContain("普通用户");
    getSqlite().query("update \"group\" set is_display = 1, color = '#fa541c' where id = 2").run();
    const page = await t.req("GET", `/user/${user.id}`, { headers: html });
    expect(page.status).toBe(200);
    for (const s of ["homepage_user", "热爱分享", "加入于", "注册成为会员", "普通用户", "color:#fa541c", "<strong>7</strong><span>文档</span>", "<strong>3</strong><span>文章</span>"]) expect(page.text).toContain(s);
    // Nothing private on a public page.
    expect(page.text).not.toContain("credit_count");
    const docs = await t.req("GET", `/user/${user.id}/document`, { headers: html });
    expect(docs.text).toContain("TA 还没有上传文档");
    const own = await t.req("GET", `/user/${user.id}/article`, { headers: asCookie(token) });
    expect(own.text).toContain("你还没有发布文章");
    expect(own.text.includes('href="/post"')).toBe(SECTIONS.articles);
    for (const bad of ["/user/999999", "/user/0", "/user/abc", "/user/999999/document", "/user/99999999999"]) {
      const r = await t.req("GET", bad, { headers: html });
      expect({ bad, status: r.status }).toEqual({ bad, status: 404 });
    }
  });
});
