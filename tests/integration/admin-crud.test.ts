// Navigation, friend links, banners and ads: Chinese 400s for bad input, 404 for unknown ids,
// partial updates re-checked, public lists without disabled rows or ads outside their window.
import { describe, expect, test } from "bun:test";
import { getSqlite } from "#db/client.ts";
import { contentVersion } from "#src/lib/contentVersion.ts";
import { setupTestApp } from "../helpers/testApp.ts";

const t = setupTestApp();
const post = (entity: string, body: unknown) => t.req("POST", `/api/v1/${entity}`, { token: t.rootToken, body });
const put = (entity: string, body: unknown) => t.req("PUT", `/api/v1/${entity}`, { token: t.rootToken, body });
const del = (entity: string, query: string) => t.req("DELETE", `/api/v1/${entity}?${query}`, { token: t.rootToken });
const count = (table: string) => (getSqlite().query(`select count(*) as n from "${table}"`).get() as { n: number }).n;

async function expect400(r: Promise<{ status: number; body: any }>, message: string) {
  const res = await r;
  expect([res.status, res.body?.message]).toEqual([400, message]);
}

describe("validation errors are Chinese 400s and write nothing", () => {
  test("navigation", async () => {
    const before = count("navigation");
    await expect400(post("navigation", {}), "请输入标题");
    await expect400(post("navigation", { title: "   " }), "请输入标题");
    await expect400(post("navigation", { title: "x".repeat(33) }), "标题不能超过 32 个字符");
    await expect400(post("navigation", { title: "a", href: "javascript:alert(1)" }), "链接地址格式不正确");
    await expect400(post("navigation", { title: "a", href: "//evil.example" }), "链接地址格式不正确");
    await expect400(post("navigation", { title: "a", target: "_top" }), "打开方式无效");
    await expect400(post("navigation", { title: "a", color: "red" }), "颜色格式不正确");
    await expect400(post("navigation", { title: "a", sort: 1.5 }), "排序必须是整数");
    await expect400(post("navigation", { title: "a", enable: "yes" }), "启用状态必须是是或否");
    await expect400(post("navigation", { title: "a", parent_id: 999 }), "上级导航不存在");
    expect(count("navigation")).toBe(before);
  });
  test("friendlink", async () => {
    await expect400(post("friendlink", { link: "https://a.cn" }), "请输入标题");
    await expect400(post("friendlink", { title: "a" }), "请输入链接地址");
    await expect400(post("friendlink", { title: "a", link: "ftp://a.cn" }), "链接地址格式不正确");
    await expect400(post("friendlink", { title: "a", link: "javascript:alert(1)" }), "链接地址格式不正确");
    expect(count("friendlink")).toBe(0);
  });
  test("banner", async () => {
    await expect400(post("banner", { title: "a" }), "请上传横幅图片");
    await expect400(post("banner", { title: "a", path: "/uploads/../wenku.db" }), "图片地址格式不正确");
    await expect400(post("banner", { title: "a", path: "/uploads/x.png", type: 3 }), "横幅类型无效");
    await expect400(post("banner", { title: "a", path: "/uploads/x.png", url: "javascript:x" }), "跳转链接格式不正确");
    expect(count("banner")).toBe(0);
  });
  test("advertisement", async () => {
    await expect400(post("advertisement", { position: "global_top", content: "x" }), "请输入标题");
    await expect400(post("advertisement", { title: "a", position: "global_middle", content: "x" }), "广告位置无效");
    await expect400(post("advertisement", { title: "a", position: "global_top" }), "请输入广告内容");
    await expect400(post("advertisement", { title: "a", position: "global_top", content: "x", start_time: 2000, end_time: 1000 }), "结束时间必须晚于开始时间");
    await expect400(post("advertisement", { title: "a", position: "global_top", content: "x", end_time: "tomorrow" }), "结束时间格式不正确");
    expect(count("advertisement")).toBe(0);
  });
  test("list queries", async () => {
    await expect400(t.req("GET", "/api/v1/navigation/list?size=0"), "每页数量不正确");
    await expect400(t.req("GET", "/api/v1/banner/list?type=7"), "横幅类型无效");
    await expect400(t.req("GET", "/api/v1/advertisement/list?position=nowhere"), "广告位置无效");
    await expect400(t.req("GET", "/api/v1/attachment/list?type=9", { token: t.rootToken }), "附件类型无效");
  });
});

describe("unknown ids", () => {
  for (const e of ["navigation", "friendlink", "banner", "advertisement", "attachment"]) {
    test(`${e}: 404 记录不存在 for GET, PUT and DELETE`, async () => {
      for (const r of [
        await t.req("GET", `/api/v1/${e}?id=424242`, { token: t.rootToken }),
        await put(e, e === "attachment" ? { id: 424242, description: "x" } : { id: 424242, sort: 1 }),
        await del(e, "id=424242"),
      ]) expect([r.status, r.body.message]).toEqual([404, "记录不存在"]);
    });
  }
  test("DELETE without an id is a 400", async () => {
    const r = await t.req("DELETE", "/api/v1/navigation", { token: t.rootToken });
    expect([r.status, r.body.message]).toEqual([400, "请选择要删除的记录"]);
  });
});

describe("navigation tree", () => {
  test("parent must exist and must not create a cycle; deleting re-parents children", async () => {
    const a = (await post("navigation", { title: "一级" })).body;
    const b = (await post("navigation", { title: "二级", parent_id: a.id })).body;
    const c = (await post("navigation", { title: "三级", parent_id: b.id })).body;
    await expect400(put("navigation", { id: a.id, parent_id: a.id }), "上级导航不能是自己");
    await expect400(put("navigation", { id: a.id, parent_id: c.id }), "上级导航不能是自己的下级");
    expect((await put("navigation", { id: c.id, parent_id: a.id })).body.parent_id).toBe(a.id);
    expect((await del("navigation", `id=${a.id}`)).status).toBe(200);
    const list = (await t.req("GET", "/api/v1/navigation/list", { token: t.rootToken })).body.navigation;
    expect(list.find((n: any) => n.id === b.id).parent_id).toBe(0);
    expect(list.find((n: any) => n.id === c.id).parent_id).toBe(0);
    expect((await del("navigation", `id=${b.id}&id=${c.id}`)).body.deleted).toBe(2);
  });
});

describe("writes", () => {
  test("create, partial update and delete bump the content version", async () => {
    let v = contentVersion();
    const f = await post("friendlink", { title: "魔豆", link: "https://www.moredoc.cn", sort: 2 });
    expect(f.status).toBe(200);
    expect(f.body).toMatchObject({ title: "魔豆", link: "https://www.moredoc.cn", sort: 2, enable: true, description: "" });
    expect(contentVersion()).toBeGreaterThan(v);
    v = contentVersion();
    const u = await put("friendlink", { id: f.body.id, enable: false });
    expect(u.body).toMatchObject({ title: "魔豆", enable: false });
    expect(contentVersion()).toBeGreaterThan(v);
    const got = await t.req("GET", `/api/v1/friendlink?id=${f.body.id}`, { token: t.rootToken });
    expect(got.body.enable).toBe(false);
    v = contentVersion();
    expect((await t.req("DELETE", "/api/v1/friendlink", { token: t.rootToken, body: { id: [f.body.id] } })).status).toBe(200);
    expect(contentVersion()).toBeGreaterThan(v);
  });
  test("a partial ad update cannot break the time window", async () => {
    const ad = (await post("advertisement", { title: "a", position: "index_1", content: "x", start_time: 1000, end_time: 5000 })).body;
    await expect400(put("advertisement", { id: ad.id, end_time: 500 }), "结束时间必须晚于开始时间");
    expect((await put("advertisement", { id: ad.id, start_time: null })).body.start_time).toBeNull();
    await del("advertisement", `id=${ad.id}`);
  });
});

describe("public lists hide disabled rows", () => {
  test("navigation, friend links and banners", async () => {
    await post("navigation", { title: "开着的导航" });
    await post("navigation", { title: "关着的导航", enable: false });
    await post("friendlink", { title: "开着的友链", link: "https://a.example" });
    await post("friendlink", { title: "关着的友链", link: "https://b.example", enable: false });
    await post("banner", { title: "开着的横幅", path: "/uploads/banner/a.png" });
    await post("banner", { title: "关着的横幅", path: "/uploads/banner/b.png", enable: false });
    await post("banner", { title: "App 横幅", path: "/uploads/banner/c.png", type: 2 });
    for (const [path, key] of [["/api/v1/navigation/list", "navigation"], ["/api/v1/friendlink/list", "friendlink"], ["/api/v1/banner/list", "banner"]] as const) {
      for (const token of [undefined, t.userToken]) {
        const r = await t.req("GET", path, { token });
        const titles = r.body[key].map((x: any) => x.title).join(",");
        expect(titles).toContain("开着的");
        expect(titles).not.toContain("关着的");
        expect(r.body.total).toBe(r.body[key].length);
      }
      const admin = await t.req("GET", path, { token: t.rootToken });
      expect(admin.body[key].map((x: any) => x.title).join(",")).toContain("关着的");
      const onlyOff = await t.req("GET", `${path}?enable=false`, { token: t.rootToken });
      expect(onlyOff.body[key].every((x: any) => x.enable === false)).toBe(true);
      // Visitors cannot ask for disabled rows.
      const sneaky = await t.req("GET", `${path}?enable=false`);
      expect(sneaky.body[key].every((x: any) => x.enable === true)).toBe(true);
    }
    const app = await t.req("GET", "/api/v1/banner/list?type=2");
    expect(app.body.banner.map((b: any) => b.title)).toEqual(["App 横幅"]);
    const web = await t.req("GET", "/api/v1/banner/list?type=0&type=1");
    expect(web.body.banner.map((b: any) => b.title)).toEqual(["开着的横幅"]);
  });
  test("friendlink `field` limits the answer", async () => {
    const r = await t.req("GET", "/api/v1/friendlink/list?field=id&field=title&field=link&field=password");
    expect(r.body.friendlink.length).toBeGreaterThan(0);
    for (const f of r.body.friendlink) expect(Object.keys(f).sort()).toEqual(["id", "link", "title"]);
  });
  test("navigation list defaults to 10000 rows and honours page/size", async () => {
    const all = await t.req("GET", "/api/v1/navigation/list", { token: t.rootToken });
    expect(all.body.navigation.length).toBe(all.body.total);
    const one = await t.req("GET", "/api/v1/navigation/list?page=2&size=1", { token: t.rootToken });
    expect(one.body.navigation.length).toBe(1);
    expect(one.body.navigation[0].id).toBe(all.body.navigation[1].id);
  });
});

describe("ads", () => {
  test("visitors get only enabled ads inside their time window", async () => {
    const now = Date.now();
    const mk = async (title: string, extra: object) => (await post("advertisement", { title, position: "search_right", content: `<i>${title}</i>`, ...extra })).body;
    await mk("一直有效", {});
    await mk("正在投放", { start_time: now - 60_000, end_time: now + 60_000 });
    await mk("尚未开始", { start_time: now + 3_600_000 });
    await mk("已经结束", { start_time: now - 7_200_000, end_time: now - 3_600_000 });
    await mk("已禁用", { enable: false });
    await post("advertisement", { title: "别处的广告", position: "search_top", content: "x" });
    const r = await t.req("GET", "/api/v1/advertisement/list?position=search_right");
    expect(r.body.advertisement.map((a: any) => a.title).sort()).toEqual(["一直有效", "正在投放"].sort());
    expect(Object.keys(r.body.advertisement[0]).sort()).toEqual(["content", "id", "position", "title"]);
    const both = await t.req("GET", "/api/v1/advertisement/list?position=search_right&position=search_top");
    expect(both.body.advertisement.length).toBe(3);
    const admin = await t.req("GET", "/api/v1/advertisement/list?all=1&position=search_right&size=2", { token: t.rootToken });
    expect(admin.body.total).toBe(5);
    expect(admin.body.advertisement.length).toBe(2);
  });
  test("positions come in labelled groups", async () => {
    const r = await t.req("GET", "/api/v1/advertisement/position");
    const groups = Object.fromEntries(r.body.position.map((g: any) => [g.value, g.children.map((c: any) => c.value)]));
    expect(groups).toEqual({
      global: ["global_top", "global_bottom"],
      index: ["index_1", "index_2", "index_3", "index_4"],
      list: ["list_1", "list_2", "list_3"],
      document: ["document_top", "document_bottom", "document_between"],
      user: ["user_1", "user_2"],
      search: ["search_top", "search_bottom", "search_right"],
    });
    expect(r.body.position[0].children[0].label).toBe("全站顶部");
  });
});
