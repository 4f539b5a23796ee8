import { describe, expect, test } from "bun:test";
import { getSqlite } from "#db/client.ts";
import { parseDiscounts } from "#src/features/settings/routes.ts";
import { setupTestApp } from "../helpers/testApp.ts";

const t = setupTestApp();

const SECRETS = {
  download: "dl-sign-key-7f3a9c1e55",
  wechat: "wx-apiv3-key-0b8d2e4f66",
  alipay: "-----BEGIN PRIVATE KEY-----MIIEvQalipay9911",
};

const put = (config: { category: string; name: string; value: unknown }[], token = t.rootToken) =>
  t.req("PUT", "/api/v1/config", { token, body: { config } });
const stored = () => getSqlite().query("SELECT category, name, value FROM config ORDER BY category, name").all();

describe("GET /api/v1/settings never leaks secrets", () => {
  test("secrets set by root appear in neither /settings nor /config/list", async () => {
    const r = await put([
      { category: "download", name: "secret_key", value: SECRETS.download },
      { category: "payment", name: "wechatpay_api_v3_key", value: SECRETS.wechat },
      { category: "payment", name: "alipay_private_key", value: SECRETS.alipay },
      { category: "payment", name: "wechatpay_mch_id", value: "1900000109" },
    ]);
    expect(r.status).toBe(200);
    expect(r.body.message).toBe("保存成功");
    // They were really saved: the server can use them.
    expect(JSON.stringify(stored())).toContain(SECRETS.wechat);

    const pub = await t.req("GET", "/api/v1/settings");
    expect(pub.status).toBe(200);
    for (const s of Object.values(SECRETS)) expect(pub.text).not.toContain(s);
    expect(pub.body.payment).toBeUndefined();
    expect(pub.text).not.toContain("1900000109");
    expect(pub.body.download).toBeDefined();
    expect("secret_key" in pub.body.download).toBe(false);
    expect(pub.body.system.sitename).toBe("魔豆文库");

    // Same for a logged-in root: /settings is the public view whoever asks.
    const asRoot = await t.req("GET", "/api/v1/settings", { token: t.rootToken });
    for (const s of Object.values(SECRETS)) expect(asRoot.text).not.toContain(s);

    const list = await t.req("GET", "/api/v1/config/list", { token: t.rootToken });
    expect(list.status).toBe(200);
    for (const s of Object.values(SECRETS)) expect(list.text).not.toContain(s);
    const item = (c: string, n: string) => list.body.config.find((i: any) => i.category === c && i.name === n);
    expect(item("download", "secret_key")).toMatchObject({ value: "", secret: true, has_value: true, input_type: "password" });
    expect(item("payment", "alipay_private_key")).toMatchObject({ value: "", has_value: true });
    expect(item("payment", "wechatpay_mch_id").value).toBe("1900000109");
  });

  test("saving a blank secret keeps the stored one", async () => {
    expect((await put([{ category: "download", name: "secret_key", value: "" }])).status).toBe(200);
    const row = getSqlite().query("SELECT value FROM config WHERE category = 'download' AND name = 'secret_key'").get() as { value: string };
    expect(row.value).toBe(SECRETS.download);
  });

  test("config/list filters by repeated or comma-separated category and rejects unknown ones", async () => {
    const one = await t.req("GET", "/api/v1/config/list?category=footer&category=vip", { token: t.rootToken });
    expect([...new Set(one.body.config.map((i: any) => i.category))].sort()).toEqual(["footer", "vip"]);
    const comma = await t.req("GET", "/api/v1/config/list?category=footer,vip", { token: t.rootToken });
    expect(comma.body.config.length).toBe(one.body.config.length);
    const bad = await t.req("GET", "/api/v1/config/list?category=nope", { token: t.rootToken });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("未知的配置分组：nope");
  });
});

describe("credit_name", () => {
  test("defaults to 魔豆, and blank falls back to 魔豆", async () => {
    expect((await t.req("GET", "/api/v1/settings")).body.system.credit_name).toBe("魔豆");
    expect((await put([{ category: "system", name: "credit_name", value: "   " }])).status).toBe(200);
    expect((await t.req("GET", "/api/v1/settings")).body.system.credit_name).toBe("魔豆");
    expect((await t.req("GET", "/api/v1/settings/recharge")).body.credit_name).toBe("魔豆");
    await put([{ category: "system", name: "credit_name", value: "金币" }]);
    expect((await t.req("GET", "/api/v1/settings")).body.system.credit_name).toBe("金币");
    expect((await t.req("GET", "/api/v1/settings/recharge")).body.credit_name).toBe("金币");
    await put([{ category: "system", name: "credit_name", value: "" }]);
    expect((await t.req("GET", "/api/v1/settings")).body.system.credit_name).toBe("魔豆");
  });
});

describe("PUT /api/v1/config permissions", () => {
  const body = { config: [{ category: "system", name: "icp", value: "京ICP备00000001号" }] };
  test("anonymous 401, ordinary user 403, root 200", async () => {
    const anon = await t.req("PUT", "/api/v1/config", { body });
    expect(anon.status).toBe(401);
    expect(anon.body.message).toBe("请先登录");
    const user = await t.req("PUT", "/api/v1/config", { body, token: t.userToken });
    expect(user.status).toBe(403);
    expect(user.body.message).toMatch(/[\u4e00-\u9fa5]/);
    expect((await t.req("GET", "/api/v1/settings")).body.system.icp).toBe("");
    const root = await t.req("PUT", "/api/v1/config", { body, token: t.rootToken });
    expect(root.status).toBe(200);
    expect((await t.req("GET", "/api/v1/settings")).body.system.icp).toBe("京ICP备00000001号");
  });

  test("config/list is for administrators only", async () => {
    expect((await t.req("GET", "/api/v1/config/list")).status).toBe(401);
    expect((await t.req("GET", "/api/v1/config/list", { token: t.userToken })).status).toBe(403);
  });
});

describe("bad values are 400 with a Chinese message and nothing is written", () => {
  const valid = { category: "system", name: "sitename", value: "不该被保存的站名" };
  const cases: [string, { category: string; name: string; value: unknown }, RegExp][] = [
    ["number below min", { category: "system", name: "copyright_start_year", value: 1800 }, /「版权起始年份」不能小于 1990/],
    ["number above max", { category: "display", name: "pages_per_read", value: 101 }, /「每次继续阅读页数」不能大于 100/],
    ["not a number", { category: "system", name: "copyright_start_year", value: "明年" }, /「版权起始年份」必须是数字/],
    ["switch given text", { category: "security", name: "is_close", value: "maybe" }, /「关闭网站」必须是开关值/],
    ["text given a number", { category: "system", name: "icp", value: 42 }, /「ICP 备案号」必须是文本/],
    ["text too long", { category: "system", name: "credit_name", value: "豆".repeat(17) }, /「积分名称」不能超过 16 个字符/],
    ["unknown key", { category: "system", name: "no_such_key", value: "x" }, /未知的配置项：system\.no_such_key/],
    ["unknown group", { category: "nope", name: "sitename", value: "x" }, /未知的配置项：nope\.sitename/],
  ];
  for (const [name, bad, msg] of cases) {
    test(name, async () => {
      const before = stored();
      const r = await put([valid, bad]);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe("bad_request");
      expect(r.body.message).toMatch(msg);
      expect(stored()).toEqual(before);
      expect((await t.req("GET", "/api/v1/settings")).body.system.sitename).toBe("魔豆文库");
    });
  }

  test("malformed bodies", async () => {
    const before = stored();
    const shapes: [unknown, RegExp][] = [
      [{ config: "sitename=x" }, /config 必须是配置项数组/],
      [{ config: [] }, /没有要保存的配置/],
      [{ config: [{ name: "sitename", value: "x" }] }, /缺少配置分组/],
      [{ config: [{ category: "system", name: "sitename", value: { nested: true } }] }, /[\u4e00-\u9fa5]/],
    ];
    for (const [body, msg] of shapes) {
      const r = await t.req("PUT", "/api/v1/config", { token: t.rootToken, body });
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(msg);
    }
    const notJson = await t.req("PUT", "/api/v1/config", { token: t.rootToken, body: "{oops", headers: { "content-type": "application/json" } });
    expect(notJson.status).toBe(400);
    expect(notJson.body.message).toMatch(/[\u4e00-\u9fa5]/);
    expect(stored()).toEqual(before);
  });
});

describe("GET /api/v1/settings/recharge", () => {
  const setDiscount = (v: string) => put([{ category: "recharge", name: "recharge_discount", value: v }]);

  test("default tiers parse, sorted by amount", async () => {
    const r = await t.req("GET", "/api/v1/settings/recharge");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ enable: false, credit_exchange: 10 });
    expect(r.body.tiers).toEqual([{ amount: 100, discount: 0.95 }, { amount: 500, discount: 0.9 }, { amount: 1000, discount: 0.85 }]);
  });

  test("one bad line yields no tiers at all", async () => {
    await setDiscount("100:0.95\n五百:0.9");
    const r = await t.req("GET", "/api/v1/settings/recharge");
    expect(r.body.tiers).toEqual([]);
    expect(r.body.recharge_discount).toBe("100:0.95\n五百:0.9");
  });

  test("unsorted lines, blank lines and a full-width colon", async () => {
    await setDiscount("500：0.9\n\n 100:0.95 \r\n");
    expect((await t.req("GET", "/api/v1/settings/recharge")).body.tiers).toEqual([{ amount: 100, discount: 0.95 }, { amount: 500, discount: 0.9 }]);
  });

  test("parseDiscounts rejects discounts outside (0, 1] and junk", () => {
    expect(parseDiscounts("100:1.5")).toEqual([]);
    expect(parseDiscounts("100:0")).toEqual([]);
    expect(parseDiscounts("100:1")).toEqual([{ amount: 100, discount: 1 }]);
    expect(parseDiscounts("100-0.9")).toEqual([]);
    expect(parseDiscounts("100:0.9:1")).toEqual([]);
    expect(parseDiscounts("")).toEqual([]);
  });
});
