// Admin user, group and permission APIs: rules, Chinese messages, conflicts, injection strings kept
// as text and escaped on the admin screens, over-long fields refused.
import { describe, expect, test } from "bun:test";
import { getDb } from "#db/client.ts";
import { user } from "#db/schema/users.ts";
import { registerPermissions } from "#src/features/permissions/sync.ts";
import { resetAll } from "#src/lib/rateLimit.ts";
import { ROOT, setupTestApp } from "../helpers/testApp.ts";

const t = setupTestApp();
const html = { accept: "text/html" };
const asRoot = (method: string, path: string, body?: unknown) => t.req(method, path, { token: t.rootToken, body });
const login = (username: string, password: string) => (resetAll(), t.req("POST", "/api/v1/user/login", { body: { username, password } }));
const expect400 = async (p: Promise<{ status: number; body: any }>, message: string | RegExp) => {
  const r = await p;
  expect([r.status, r.body?.message]).toEqual([400, typeof message === "string" ? message : expect.stringMatching(message)]);
};

describe("users", () => {
  test("create, search by each field, filter by group and status, page", async () => {
    const g = await asRoot("POST", "/api/v1/group", { title: "编辑组", color: "#1677ff" });
    expect(g.status).toBe(200);
    const a = await asRoot("POST", "/api/v1/user", { username: "zhangsan", password: "secret-123", email: "zs@example.com", mobile: "13800138000", realname: "张三", group_id: [g.body.id] });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ username: "zhangsan", email: "zs@example.com", mobile: "13800138000", realname: "张三", status: 0, enable: true, group_ids: [g.body.id] });
    expect(a.body.groups).toEqual([{ id: g.body.id, title: "编辑组", color: "#1677ff" }]);
    expect(a.body.password).toBeUndefined();
    const b = await asRoot("POST", "/api/v1/user", { username: "lisi", password: "secret-456", status: 1 });
    expect(b.body).toMatchObject({ status: 1, group_ids: [2] });

    const list = await asRoot("GET", "/api/v1/user/list?size=100");
    expect(list.status).toBe(200);
    expect(list.text).not.toContain("$argon2");
    expect(list.text).not.toContain('"password"');
    for (const wd of ["zhangs", "ZS@EXAMPLE", "1380013", "张三", String(a.body.id)]) {
      const r = await asRoot("GET", `/api/v1/user/list?wd=${encodeURIComponent(wd)}`);
      expect([wd, r.body.user.map((u: { username: string }) => u.username)]).toEqual([wd, ["zhangsan"]]);
    }
    const inGroup = await asRoot("GET", `/api/v1/user/list?group_id=${g.body.id}`);
    expect(inGroup.body).toMatchObject({ total: 1, user: [{ username: "zhangsan" }] });
    const disabled = await asRoot("GET", "/api/v1/user/list?status=1");
    expect(disabled.body.user.map((u: { username: string }) => u.username)).toEqual(["lisi"]);
    const page = await asRoot("GET", "/api/v1/user/list?page=2&size=1");
    expect(page.body.total).toBe(list.body.total);
    expect(page.body.user.length).toBe(1);
    expect((await login("zhangsan", "secret-123")).status).toBe(200);
  });

  test("create: Chinese 400s for bad input, 409 for taken names", async () => {
    const base = { username: "wangwu", password: "secret-789" };
    await expect400(asRoot("POST", "/api/v1/user", { password: "secret-789" }), "请输入登录用户名");
    await expect400(asRoot("POST", "/api/v1/user", { ...base, password: "12345" }), "密码至少 6 位");
    await expect400(asRoot("POST", "/api/v1/user", { ...base, email: "not-an-email" }), "请输入正确的邮箱");
    await expect400(asRoot("POST", "/api/v1/user", { ...base, mobile: "12800138000" }), "请输入正确的手机号");
    await expect400(asRoot("POST", "/api/v1/user", { ...base, mobile: "1380013800" }), "请输入正确的手机号");
    await expect400(asRoot("POST", "/api/v1/user", { ...base, group_id: [99999] }), "用户组不存在");
    await expect400(asRoot("POST", "/api/v1/user", { ...base, username: "长".repeat(65) }), "用户名长度为 2-64 个字符");
    await expect400(asRoot("POST", "/api/v1/user", { ...base, username: "a" }), "用户名长度为 2-64 个字符");
    await expect400(asRoot("POST", "/api/v1/user", { ...base, username: "wang wu" }), "用户名只能包含字母、数字、下划线和汉字");
    await expect400(asRoot("POST", "/api/v1/user", { ...base, realname: "名".repeat(65) }), "真实姓名不能超过 64 个字符");
    await expect400(asRoot("POST", "/api/v1/user", { ...base, password: "p".repeat(129) }), "密码不能超过 128 位");
    await expect400(asRoot("POST", "/api/v1/user", { ...base, status: 3 }), /状态只能是/);
    const dup = await asRoot("POST", "/api/v1/user", { username: "zhangsan", password: "secret-123" });
    expect([dup.status, dup.body.message]).toEqual([409, "用户名已被占用"]);
    const dupMail = await asRoot("POST", "/api/v1/user", { ...base, email: "zs@example.com" });
    expect([dupMail.status, dupMail.body.message]).toEqual([409, "邮箱已被占用"]);
    expect((await asRoot("GET", "/api/v1/user/list?wd=wangwu")).body.total).toBe(0);
  });

  test("update: fields, groups, password; disabling ends sessions and blocks login; enable restores", async () => {
    const created = await asRoot("POST", "/api/v1/user", { username: "zhaoliu", password: "first-pass-1" });
    const id = created.body.id;
    const session = (await login("zhaoliu", "first-pass-1")).body.token;
    expect((await t.req("GET", "/api/v1/user", { token: session })).status).toBe(200);

    const up = await asRoot("PUT", "/api/v1/user", { id, email: "zl@example.com", mobile: "13900139000", realname: "赵六", group_id: [1, 2] });
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ email: "zl@example.com", mobile: "13900139000", realname: "赵六", group_ids: [1, 2] });
    await expect400(asRoot("PUT", "/api/v1/user", { id, mobile: "123" }), "请输入正确的手机号");
    const taken = await asRoot("PUT", "/api/v1/user", { id, email: "zs@example.com" });
    expect([taken.status, taken.body.message]).toEqual([409, "邮箱已被占用"]);
    const missing = await asRoot("PUT", "/api/v1/user", { id: 99999, realname: "x" });
    expect([missing.status, missing.body.message]).toEqual([404, "用户不存在"]);

    const off = await asRoot("PUT", "/api/v1/user", { id, enable: false });
    expect(off.body).toMatchObject({ status: 1, enable: false });
    expect((await t.req("GET", "/api/v1/user", { token: session })).status).toBe(401);
    const refused = await login("zhaoliu", "first-pass-1");
    expect([refused.status, refused.body.message]).toEqual([403, "账号已被禁用"]);
    expect((await asRoot("PUT", "/api/v1/user", { id, status: 0 })).body.enable).toBe(true);

    // An empty password keeps the old one; a new one replaces it.
    await asRoot("PUT", "/api/v1/user", { id, password: "" });
    expect((await login("zhaoliu", "first-pass-1")).status).toBe(200);
    await asRoot("PUT", "/api/v1/user", { id, password: "second-pass-2" });
    expect((await login("zhaoliu", "first-pass-1")).status).toBe(401);
    expect((await login("zhaoliu", "second-pass-2")).status).toBe(200);
  });

  test("the root administrator and yourself cannot be deleted or disabled", async () => {
    const rootDel = await t.req("DELETE", `/api/v1/user?id=${t.rootId}`, { token: t.rootToken });
    expect([rootDel.status, rootDel.body.message]).toEqual([400, "不能删除超级管理员"]);
    await expect400(asRoot("PUT", "/api/v1/user", { id: t.rootId, status: 1 }), "不能禁用当前登录的账号");

    // A user manager who is not root: may not touch root, may not delete or disable themself.
    const g = await asRoot("POST", "/api/v1/group", { title: "用户管理员" });
    const perms = await asRoot("GET", "/api/v1/permission/list?category=user");
    await asRoot("PUT", "/api/v1/group/permission", { id: g.body.id, permission_id: perms.body.permission.map((p: { id: number }) => p.id) });
    const mgr = await asRoot("POST", "/api/v1/user", { username: "manager", password: "manager-pass", group_id: [g.body.id] });
    const token = (await login("manager", "manager-pass")).body.token;
    const self = await t.req("DELETE", `/api/v1/user?id=${mgr.body.id}`, { token });
    expect([self.status, self.body.message]).toEqual([400, "不能删除当前登录的账号"]);
    const touchRoot = await t.req("PUT", "/api/v1/user", { token, body: { id: t.rootId, password: "hijacked-1" } });
    expect([touchRoot.status, touchRoot.body.message]).toEqual([403, "不能修改超级管理员"]);
    const escalate = await t.req("PUT", "/api/v1/user", { token, body: { id: mgr.body.id, group_id: [1, g.body.id] } });
    expect([escalate.status, escalate.body.message]).toEqual([403, "只有超级管理员可以把用户加入超级管理员分组"]);

    const victim = await asRoot("POST", "/api/v1/user", { username: "to_delete", password: "delete-me-1" });
    const del = await t.req("DELETE", `/api/v1/user?id=${victim.body.id}`, { token });
    expect(del.body).toEqual({ message: "删除成功", deleted: 1 });
    expect((await asRoot("GET", "/api/v1/user/list?wd=to_delete")).body.total).toBe(0);
    const gone = await t.req("DELETE", "/api/v1/user?id=99999", { token });
    expect(gone.status).toBe(404);
    const none = await t.req("DELETE", "/api/v1/user", { token });
    expect([none.status, none.body.message]).toEqual([400, "请选择要删除的记录"]);
  });

  test("the self-service routes still answer after the admin routes were added", async () => {
    const me = await t.req("GET", "/api/v1/user", { token: t.rootToken });
    expect(me.body.user.username).toBe(ROOT.username);
    const prof = await t.req("PUT", "/api/v1/user/profile", { token: t.userToken, body: { signature: "你好" } });
    expect([prof.status, prof.body.message]).toEqual([200, "修改成功"]);
  });
});

describe("groups", () => {
  test("create, duplicate title 409, bad color and over-long fields 400", async () => {
    const r = await asRoot("POST", "/api/v1/group", { title: "VIP 作者", color: "#f50", description: "签约作者", sort: 3, enable_upload: true, enable_document_review: false });
    expect(r.body).toMatchObject({ title: "VIP 作者", color: "#f50", sort: 3, enable_upload: true, enable_document_review: false, is_default: false });
    const dup = await asRoot("POST", "/api/v1/group", { title: "VIP 作者" });
    expect([dup.status, dup.body.message]).toEqual([409, "分组名称已存在"]);
    const other = await asRoot("POST", "/api/v1/group", { title: "临时组" });
    const dupEdit = await asRoot("PUT", "/api/v1/group", { id: other.body.id, title: "VIP 作者" });
    expect([dupEdit.status, dupEdit.body.message]).toEqual([409, "分组名称已存在"]);
    await expect400(asRoot("POST", "/api/v1/group", { title: "" }), "请输入标题");
    await expect400(asRoot("POST", "/api/v1/group", { title: "组".repeat(33) }), "标题不能超过 32 个字符");
    await expect400(asRoot("POST", "/api/v1/group", { title: "颜色组", color: "red" }), /颜色格式不正确/);
    await expect400(asRoot("POST", "/api/v1/group", { title: "描述组", description: "长".repeat(256) }), "描述不能超过 255 个字符");
    await expect400(asRoot("POST", "/api/v1/group", { title: "开关组", enable_upload: "yes" }), "允许上传必须是是或否");
  });

  test("exactly one default group; the administrators' group is never the default", async () => {
    const g = await asRoot("POST", "/api/v1/group", { title: "新默认组", is_default: true });
    expect(g.body.is_default).toBe(true);
    const list = await asRoot("GET", "/api/v1/group/list");
    expect(list.body.group.filter((x: { is_default: boolean }) => x.is_default).map((x: { id: number }) => x.id)).toEqual([g.body.id]);
    await expect400(asRoot("PUT", "/api/v1/group", { id: g.body.id, is_default: false }), "必须保留一个默认分组，请把其他分组设为默认");
    await expect400(asRoot("PUT", "/api/v1/group", { id: 1, is_default: true }), "超级管理员分组不能设为默认分组");
    // New accounts join the default group.
    const u = await asRoot("POST", "/api/v1/user", { username: "joins_default", password: "default-1" });
    expect(u.body.group_ids).toEqual([g.body.id]);
    await asRoot("PUT", "/api/v1/group", { id: 2, is_default: true });
    expect((await asRoot("GET", `/api/v1/group?id=${g.body.id}`)).body.is_default).toBe(false);
  });

  test("deleting: not group 1, not the default group, not a group with users", async () => {
    await expect400(t.req("DELETE", "/api/v1/group?id=1", { token: t.rootToken }), "不能删除超级管理员分组");
    await expect400(t.req("DELETE", "/api/v1/group?id=2", { token: t.rootToken }), /默认分组/);
    const g = await asRoot("POST", "/api/v1/group", { title: "有人组" });
    const u = await asRoot("POST", "/api/v1/user", { username: "member_of", password: "member-of-1", group_id: [g.body.id] });
    await expect400(t.req("DELETE", `/api/v1/group?id=${g.body.id}`, { token: t.rootToken }), /^该分组下还有用户/);
    await asRoot("PUT", "/api/v1/user", { id: u.body.id, group_id: [2] });
    const ok = await t.req("DELETE", `/api/v1/group?id=${g.body.id}`, { token: t.rootToken });
    expect(ok.body).toEqual({ message: "删除成功", deleted: 1 });
    expect((await asRoot("GET", `/api/v1/group?id=${g.body.id}`)).status).toBe(404);
  });

  test("group/list: everyone sees displayed groups with public fields; admins see all with member counts", async () => {
    await asRoot("POST", "/api/v1/group", { title: "公开组", is_display: true, description: "对外展示" });
    const anon = await t.req("GET", "/api/v1/group/list");
    expect(anon.status).toBe(200);
    expect(anon.body.group.map((g: { title: string }) => g.title)).toEqual(["超级管理员", "公开组"]);
    expect(Object.keys(anon.body.group[0]).sort()).toEqual(["color", "description", "id", "sort", "title"]);
    const admin = await asRoot("GET", "/api/v1/group/list");
    expect(admin.body.total).toBeGreaterThan(anon.body.total);
    expect(admin.body.group.find((g: { id: number }) => g.id === 1).user_count).toBe(1);
  });

  test("group permissions: read, replace, unknown ids dropped, group 1 fixed", async () => {
    const g = await asRoot("POST", "/api/v1/group", { title: "权限组" });
    const perms = (await asRoot("GET", "/api/v1/permission/list?category=friendlink")).body.permission.map((p: { id: number }) => p.id);
    const set = await asRoot("PUT", "/api/v1/group/permission", { id: g.body.id, permission_id: [...perms, 999999] });
    expect(set.body.permission_id.sort()).toEqual([...perms].sort());
    expect((await asRoot("GET", `/api/v1/group/permission?id=${g.body.id}`)).body.permission_id.length).toBe(perms.length);
    await expect400(asRoot("PUT", "/api/v1/group/permission", { id: 1, permission_id: [] }), "超级管理员分组拥有全部权限，无需设置");
    await expect400(asRoot("PUT", "/api/v1/group/permission", { id: g.body.id, permission_id: "all" }), "权限 ID 必须是数组");
    expect((await asRoot("PUT", "/api/v1/group/permission", { id: 99999, permission_id: [] })).status).toBe(404);
  });
});

describe("permissions", () => {
  test("list carries category labels and pages; filters by category and keyword", async () => {
    const r = await asRoot("GET", "/api/v1/permission/list?category=group");
    expect(r.body.total).toBe(6);
    expect(r.body.permission[0]).toMatchObject({ category: "group", category_label: "用户组", page: "/admin/user/group" });
    const wd = await asRoot("GET", "/api/v1/permission/list?wd=/api/v1/punishment/list");
    expect(wd.body.permission.map((p: { method: string }) => p.method)).toEqual(["GET"]);
  });

  test("titles and descriptions are editable and survive the start-up sync; method and path are not", async () => {
    const p = (await asRoot("GET", "/api/v1/permission/list?wd=/api/v1/friendlink")).body.permission.find((x: { method: string; path: string }) => x.method === "DELETE" && x.path === "/api/v1/friendlink");
    const up = await asRoot("PUT", "/api/v1/permission", { id: p.id, title: "删除友链", description: "谨慎授予", method: "GET", path: "/x" });
    expect(up.body).toMatchObject({ id: p.id, title: "删除友链", description: "谨慎授予", method: "DELETE", path: "/api/v1/friendlink" });
    registerPermissions(t.app);
    const after = (await asRoot("GET", "/api/v1/permission/list?wd=/api/v1/friendlink")).body.permission.find((x: { id: number }) => x.id === p.id);
    expect(after).toMatchObject({ title: "删除友链", description: "谨慎授予" });
    // Untouched titles still follow the code.
    const other = (await asRoot("GET", "/api/v1/permission/list?wd=/api/v1/friendlink")).body.permission.find((x: { method: string }) => x.method === "POST");
    expect(other.title).toBe("新增友情链接");
    await expect400(asRoot("PUT", "/api/v1/permission", { id: p.id, title: "" }), "请输入权限名称");
    await expect400(asRoot("PUT", "/api/v1/permission", { id: p.id, title: "权".repeat(65) }), "权限名称不能超过 64 个字符");
    expect((await asRoot("PUT", "/api/v1/permission", { id: 999999, title: "x" })).status).toBe(404);
  });
});

describe("injection strings are stored as text and escaped on the admin screens", () => {
  const XSS = "<script>alert(1)</script>";
  const IMG = '<img src=x onerror="alert(2)">';
  const SQL = "'; DROP TABLE user; --";

  test("users, groups, permissions and punishments", async () => {
    // Usernames follow the registration rule, so markup never becomes one.
    await expect400(asRoot("POST", "/api/v1/user", { username: XSS, password: "xss-pass-1" }), "用户名只能包含字母、数字、下划线和汉字");
    await expect400(asRoot("POST", "/api/v1/user", { username: SQL, password: "xss-pass-1" }), "用户名只能包含字母、数字、下划线和汉字");
    const g = await asRoot("POST", "/api/v1/group", { title: IMG, description: SQL });
    expect(g.body).toMatchObject({ title: IMG, description: SQL });
    const u = await asRoot("POST", "/api/v1/user", { username: "xss_target", password: "xss-pass-1", realname: XSS, group_id: [g.body.id] });
    expect(u.status).toBe(200);
    expect(u.body).toMatchObject({ realname: XSS, groups: [{ title: IMG }] });
    const found = await asRoot("GET", `/api/v1/user/list?wd=${encodeURIComponent(XSS)}`);
    expect(found.body.user.map((x: { username: string }) => x.username)).toEqual(["xss_target"]);
    const pun = await asRoot("POST", "/api/v1/punishment", { user_id: u.body.id, type: [2], reason: XSS, remark: SQL });
    expect(pun.body.punishment[0]).toMatchObject({ reason: XSS, remark: SQL });
    const perm = (await asRoot("GET", "/api/v1/permission/list?size=1")).body.permission[0];
    expect((await asRoot("PUT", "/api/v1/permission", { id: perm.id, title: XSS, description: SQL })).body.title).toBe(XSS);
    // The table is still there and the row holds the literal text.
    expect(getDb().select({ realname: user.realname }).from(user).all().map((r) => r.realname)).toContain(XSS);

    for (const path of ["/admin/user/list", "/admin/user/group", "/admin/user/permission", "/admin/user/punishment"]) {
      const page = await t.req("GET", path, { token: t.rootToken, headers: html });
      expect([path, page.status]).toEqual([path, 200]);
      expect([path, page.text.includes(XSS), page.text.includes("<img src=x")]).toEqual([path, false, false]);
    }
    const list = await t.req("GET", "/admin/user/list", { token: t.rootToken, headers: html });
    expect(list.text).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    const groups = await t.req("GET", "/admin/user/group", { token: t.rootToken, headers: html });
    expect(groups.text).toContain("&lt;img src=x onerror=");
  });
});
