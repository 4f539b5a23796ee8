// Punishments: the checks other features call, account disabling (sessions, login, expiry at
// login and by the periodic job), the admin API's rules and messages.
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { punishment } from "#db/schema/accounts.ts";
import { user } from "#db/schema/users.ts";
import { activePunishments, assertNotPunished, liftExpiredDisable, syncDisabledAccounts } from "#src/features/users/punishments/service.ts";
import { PUNISH } from "#src/features/users/punishments/types.ts";
import { AppError } from "#src/lib/errors.ts";
import { formatDateTime } from "#src/lib/format.ts";
import { resetAll } from "#src/lib/rateLimit.ts";
import { ROOT, setupTestApp } from "../helpers/testApp.ts";

const t = setupTestApp();
const asRoot = (method: string, path: string, body?: unknown) => t.req(method, path, { token: t.rootToken, body });
const login = (username: string, password: string) => (resetAll(), t.req("POST", "/api/v1/user/login", { body: { username, password } }));
let n = 0;
async function newUser() {
  const username = `punished_${++n}`;
  const r = await asRoot("POST", "/api/v1/user", { username, password: "punish-pass-1" });
  expect(r.status).toBe(200);
  return { id: r.body.id as number, username, password: "punish-pass-1" };
}
const statusOf = (id: number) => getDb().select({ status: user.status }).from(user).where(eq(user.id, id)).get()!.status;
function thrown(fn: () => void): AppError | null {
  try {
    fn();
    return null;
  } catch (e) {
    return e as AppError;
  }
}

describe("assertNotPunished / activePunishments", () => {
  test("a ban on upload blocks uploads only, with the reason and 永久 when it has no end", async () => {
    const u = await newUser();
    const r = await asRoot("POST", "/api/v1/punishment", { user_id: u.id, type: [PUNISH.UPLOAD], reason: "上传侵权内容" });
    expect(r.status).toBe(200);
    expect(r.body.punishment).toHaveLength(1);
    expect(r.body.punishment[0]).toMatchObject({ type: 3, enable: true, reason: "上传侵权内容", operators: ROOT.username, end_time: null });
    const e = thrown(() => assertNotPunished(u.id, PUNISH.UPLOAD));
    expect(e).toBeInstanceOf(AppError);
    expect([e!.status, e!.message]).toEqual([403, "您已被禁止上传文档：上传侵权内容，解除时间：永久"]);
    expect(thrown(() => assertNotPunished(u.id, PUNISH.COMMENT))).toBeNull();
    expect(activePunishments(u.id).map((p) => p.type)).toEqual([3]);
    expect(statusOf(u.id)).toBe(0);
  });

  test("several types at once make one row each; an end time is spelled out; a disabled or ended one no longer acts", async () => {
    const u = await newUser();
    const end = Date.now() + 3 * 86400_000;
    const r = await asRoot("POST", "/api/v1/punishment", { user_id: u.id, type: [2, 4, 5, 6], end_time: end });
    expect(r.body.punishment.map((p: { type: number }) => p.type)).toEqual([2, 4, 5, 6]);
    expect(thrown(() => assertNotPunished(u.id, PUNISH.DOWNLOAD))!.message).toBe(`您已被禁止下载文档，解除时间：${formatDateTime(end)}`);
    expect(thrown(() => assertNotPunished(u.id, PUNISH.FAVORITE))!.message).toStartWith("您已被禁止收藏");
    expect(thrown(() => assertNotPunished(u.id, PUNISH.ARTICLE))!.message).toStartWith("您已被禁止发布文章");
    const comment = r.body.punishment[0];
    await asRoot("PUT", "/api/v1/punishment", { id: comment.id, enable: false });
    expect(thrown(() => assertNotPunished(u.id, PUNISH.COMMENT))).toBeNull();
    getDb().update(punishment).set({ end_time: Date.now() - 1000 }).where(eq(punishment.id, r.body.punishment[1].id)).run();
    expect(thrown(() => assertNotPunished(u.id, PUNISH.DOWNLOAD))).toBeNull();
    expect(activePunishments(u.id).map((p) => p.type).sort()).toEqual([5, 6]);
  });

  test("a punishment that starts later does not act yet", async () => {
    const u = await newUser();
    await asRoot("POST", "/api/v1/punishment", { user_id: u.id, type: [3], start_time: Date.now() + 3600_000 });
    expect(thrown(() => assertNotPunished(u.id, PUNISH.UPLOAD))).toBeNull();
  });
});

describe("disable account", () => {
  test("revokes sessions and refuses login with the reason; disabling or deleting the punishment restores the account", async () => {
    const u = await newUser();
    const session = (await login(u.username, u.password)).body.token;
    const r = await asRoot("POST", "/api/v1/punishment", { user_id: u.id, type: [1], reason: "发布广告" });
    expect(statusOf(u.id)).toBe(1);
    expect((await t.req("GET", "/api/v1/user", { token: session })).status).toBe(401);
    const refused = await login(u.username, u.password);
    expect([refused.status, refused.body.message]).toEqual([403, "您的账号已被禁用：发布广告，解除时间：永久"]);
    // A wrong password does not learn the reason.
    expect((await login(u.username, "wrong-password")).body.message).toBe("用户名或密码错误");

    await asRoot("PUT", "/api/v1/punishment", { id: r.body.punishment[0].id, enable: false });
    expect(statusOf(u.id)).toBe(0);
    expect((await login(u.username, u.password)).status).toBe(200);

    await asRoot("PUT", "/api/v1/punishment", { id: r.body.punishment[0].id, enable: true });
    expect(statusOf(u.id)).toBe(1);
    expect((await t.req("DELETE", `/api/v1/punishment?id=${r.body.punishment[0].id}`, { token: t.rootToken })).body).toEqual({ message: "删除成功", deleted: 1 });
    expect(statusOf(u.id)).toBe(0);
  });

  test("an expired disable is lifted at login, and the expired row is switched off", async () => {
    const u = await newUser();
    const r = await asRoot("POST", "/api/v1/punishment", { user_id: u.id, type: [1], reason: "刷屏", end_time: Date.now() + 60_000 });
    expect(statusOf(u.id)).toBe(1);
    const refused = await login(u.username, u.password);
    expect(refused.body.message).toStartWith("您的账号已被禁用：刷屏，解除时间：");
    getDb().update(punishment).set({ end_time: Date.now() - 1 }).where(eq(punishment.id, r.body.punishment[0].id)).run();
    const ok = await login(u.username, u.password);
    expect(ok.status).toBe(200);
    expect(statusOf(u.id)).toBe(0);
    expect(getDb().select().from(punishment).where(eq(punishment.id, r.body.punishment[0].id)).get()!.enable).toBe(false);
  });

  test("a manual disable is not undone by an old expired punishment", async () => {
    const u = await newUser();
    const r = await asRoot("POST", "/api/v1/punishment", { user_id: u.id, type: [1], end_time: Date.now() + 60_000 });
    getDb().update(punishment).set({ end_time: Date.now() - 1 }).where(eq(punishment.id, r.body.punishment[0].id)).run();
    expect(liftExpiredDisable(u.id)).toBe(true);
    await asRoot("PUT", "/api/v1/user", { id: u.id, status: 1 });
    expect(liftExpiredDisable(u.id)).toBe(false);
    const refused = await login(u.username, u.password);
    expect([refused.status, refused.body.message]).toEqual([403, "账号已被禁用"]);
  });

  test("the periodic job lifts expired disables and applies ones whose start has come", async () => {
    const a = await newUser();
    const b = await newUser();
    const pa = await asRoot("POST", "/api/v1/punishment", { user_id: a.id, type: [1], end_time: Date.now() + 60_000 });
    const pb = await asRoot("POST", "/api/v1/punishment", { user_id: b.id, type: [1], start_time: Date.now() + 60_000 });
    expect([statusOf(a.id), statusOf(b.id)]).toEqual([1, 0]);
    const session = (await login(b.username, b.password)).body.token;
    getDb().update(punishment).set({ end_time: Date.now() - 1 }).where(eq(punishment.id, pa.body.punishment[0].id)).run();
    getDb().update(punishment).set({ start_time: Date.now() - 1 }).where(eq(punishment.id, pb.body.punishment[0].id)).run();
    expect(syncDisabledAccounts()).toEqual({ lifted: 1, applied: 1 });
    expect([statusOf(a.id), statusOf(b.id)]).toEqual([0, 1]);
    expect((await t.req("GET", "/api/v1/user", { token: session })).status).toBe(401);
    expect(syncDisabledAccounts()).toEqual({ lifted: 0, applied: 0 });
  });

  test("re-enabling the account by hand ends the disable punishment", async () => {
    const u = await newUser();
    const r = await asRoot("POST", "/api/v1/punishment", { user_id: u.id, type: [1] });
    await asRoot("PUT", "/api/v1/user", { id: u.id, enable: true });
    expect(statusOf(u.id)).toBe(0);
    expect((await asRoot("GET", `/api/v1/punishment?id=${r.body.punishment[0].id}`)).body.enable).toBe(false);
    expect(syncDisabledAccounts().applied).toBe(0);
    expect((await login(u.username, u.password)).status).toBe(200);
  });
});

describe("punishment API rules", () => {
  test("Chinese 400/404 for bad input; root and yourself cannot be punished", async () => {
    const u = await newUser();
    const bad = async (body: unknown, message: string | RegExp, status = 400) => {
      const r = await asRoot("POST", "/api/v1/punishment", body);
      expect([r.status, r.body.message]).toEqual([status, typeof message === "string" ? message : expect.stringMatching(message)]);
    };
    await bad({ user_id: u.id }, "请选择处罚类型");
    await bad({ user_id: u.id, type: [] }, "请选择处罚类型");
    await bad({ user_id: u.id, type: [7] }, "处罚类型无效");
    await bad({ type: [2] }, "请选择用户");
    await bad({ user_id: 99999, type: [2] }, "用户不存在", 404);
    await bad({ user_id: t.rootId, type: [2] }, "不能处罚超级管理员");
    await bad({ user_id: u.id, type: [2], start_time: Date.now() + 7200_000, end_time: Date.now() + 3600_000 }, "结束时间必须晚于开始时间");
    await bad({ user_id: u.id, type: [2], end_time: Date.now() - 1000 }, "结束时间必须晚于当前时间");
    await bad({ user_id: u.id, type: [2], end_time: "明天" }, "结束时间格式不正确");
    await bad({ user_id: u.id, type: [2], reason: "因".repeat(256) }, "处罚原因不能超过 255 个字符");
    await bad({ user_id: u.id, type: [2], remark: "注".repeat(1001) }, "备注不能超过 1000 个字符");
    expect((await asRoot("GET", `/api/v1/punishment/list?user_id=${u.id}`)).body.total).toBe(0);

    // A punishment manager who is not root cannot punish themself.
    const g = await asRoot("POST", "/api/v1/group", { title: "处罚管理员" });
    const perms = await asRoot("GET", "/api/v1/permission/list?category=punishment");
    await asRoot("PUT", "/api/v1/group/permission", { id: g.body.id, permission_id: perms.body.permission.map((p: { id: number }) => p.id) });
    const mgr = await asRoot("POST", "/api/v1/user", { username: "judge", password: "judge-pass-1", group_id: [g.body.id] });
    const token = (await login("judge", "judge-pass-1")).body.token;
    const self = await t.req("POST", "/api/v1/punishment", { token, body: { user_id: mgr.body.id, type: [2] } });
    expect([self.status, self.body.message]).toEqual([400, "不能处罚自己"]);
    const ok = await t.req("POST", "/api/v1/punishment", { token, body: { user_id: u.id, type: 2, reason: "辱骂" } });
    expect(ok.body.punishment[0].operators).toBe("judge");
    const edited = await asRoot("PUT", "/api/v1/punishment", { id: ok.body.punishment[0].id, reason: "辱骂他人" });
    expect(edited.body).toMatchObject({ reason: "辱骂他人", operators: `judge,${ROOT.username}` });
    const window = await asRoot("PUT", "/api/v1/punishment", { id: ok.body.punishment[0].id, start_time: Date.now() + 7200_000, end_time: Date.now() + 3600_000 });
    expect([window.status, window.body.message]).toEqual([400, "结束时间必须晚于开始时间"]);
  });

  test("list filters by user, type, state and keyword, with usernames and whether each acts now", async () => {
    const u = await newUser();
    await asRoot("POST", "/api/v1/punishment", { user_id: u.id, type: [3, 4], reason: "批量违规" });
    const byUser = await asRoot("GET", `/api/v1/punishment/list?user_id=${u.id}`);
    expect(byUser.body.total).toBe(2);
    expect(byUser.body.punishment[0]).toMatchObject({ username: u.username, in_force: true, until: "永久" });
    const byType = await asRoot("GET", `/api/v1/punishment/list?user_id=${u.id}&type=4`);
    expect(byType.body.punishment.map((p: { type: number }) => p.type)).toEqual([4]);
    const byWord = await asRoot("GET", `/api/v1/punishment/list?wd=${encodeURIComponent(u.username)}`);
    expect(byWord.body.total).toBe(2);
    const off = await asRoot("GET", `/api/v1/punishment/list?user_id=${u.id}&enable=false`);
    expect(off.body.total).toBe(0);
    const badType = await asRoot("GET", "/api/v1/punishment/list?type=9");
    expect([badType.status, badType.body.message]).toEqual([400, "处罚类型无效"]);
    expect((await asRoot("GET", "/api/v1/punishment?id=99999")).status).toBe(404);
    expect((await t.req("DELETE", "/api/v1/punishment?id=99999", { token: t.rootToken })).status).toBe(404);
  });
});
