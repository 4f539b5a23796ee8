// Each SMS provider against its loopback stand-in, which re-derives the signature from the documented
// algorithm: a verified send is stored as status 1; a business error, a wrong secret (the stand-in
// rejects the signature) and a time-out are stored as status 2 with the provider's reason.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { desc, eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { verifyCode } from "#db/schema/accounts.ts";
import { user } from "#db/schema/users.ts";
import { updateConfig } from "#src/features/settings/service.ts";
import { resetAll } from "#src/lib/rateLimit.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { CREDS, PROVIDER_NAME, smsConfigFor, startSmsStandIn, type ProviderKey, type StandIn } from "../helpers/smsStandIn.ts";

const t = setupTestApp();
let standIn: StandIn;
const MOBILE = "13912345678";

beforeAll(() => {
  standIn = startSmsStandIn();
  getDb().update(user).set({ mobile: MOBILE }).where(eq(user.id, t.userId)).run();
});
afterAll(() => standIn?.stop());
beforeEach(() => {
  resetAll();
  // Each test starts with a clean slate of send history so the resend interval never interferes.
  getDb().delete(verifyCode).run();
});

const send = (ip = "203.0.113.7") => t.req("POST", "/api/v1/sms", { body: { mobile: MOBILE, type: 2 }, headers: { "x-forwarded-for": ip } });
const lastRow = () => getDb().select().from(verifyCode).orderBy(desc(verifyCode.id)).get()!;
const PROVIDERS: ProviderKey[] = ["aliyun", "tencent", "baidu", "huawei", "haomas"];

describe.each(PROVIDERS)("%s", (p) => {
  test("a signed request the stand-in verifies; stored as sent, code hashed", async () => {
    updateConfig(smsConfigFor(p, standIn));
    const before = standIn.requests.length;
    const r = await send();
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ message: "短信验证码已发送，请注意查收", interval: 60, expires_in: 300 });
    const req = standIn.requests.at(-1)!;
    expect(standIn.requests.length).toBe(before + 1);
    expect(req.provider).toBe(p);
    expect(req.problems).toEqual([]);
    expect(req.mobile).toBe(MOBILE);
    expect(req.code).toMatch(/^\d{6}$/);
    const row = lastRow();
    expect(row).toMatchObject({ channel: "mobile", target: MOBILE, type: 2, status: 1, provider: PROVIDER_NAME[p], error: "", ip: "203.0.113.7" });
    expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.code_hash).not.toContain(req.code);
    expect(JSON.stringify(r.body)).not.toContain(req.code);
  });

  test("a provider business error: 503 for the visitor, status 2 with the reason for the admin", async () => {
    updateConfig(smsConfigFor(p, standIn));
    standIn.failNext(p);
    const r = await send();
    expect(r.status).toBe(503);
    expect(r.body).toEqual({ code: "sms_failed", message: "短信发送失败，请稍后重试" });
    const row = lastRow();
    expect(row.status).toBe(2);
    expect(row.error).toMatch(/发送失败：/);
    expect(row.error).toMatch({ aliyun: /isv\.BUSINESS_LIMIT_CONTROL/, tencent: /LimitExceeded\.PhoneNumberDailyLimit/, baidu: /6006/, huawei: /E000510/, haomas: /余额不足/ }[p]);
  });

  test("a wrong secret fails the stand-in's signature check and is stored as failed", async () => {
    const secretKey = { aliyun: "aliyun_access_key_secret", tencent: "tencent_secret_key", baidu: "baidu_secret_key", huawei: "huawei_app_secret", haomas: "haomas_app_secret" }[p];
    updateConfig(smsConfigFor(p, standIn, { [secretKey]: "not-the-secret" }));
    const r = await send();
    expect(r.status).toBe(503);
    const req = standIn.requests.at(-1)!;
    expect(req.verified).toBe(false);
    expect(req.problems.join()).toMatch(/Signature|PasswordDigest|signature/);
    const row = lastRow();
    expect(row.status).toBe(2);
    expect(row.error).toMatch({ aliyun: /SignatureDoesNotMatch/, tencent: /AuthFailure\.SignatureFailure/, baidu: /6002/, huawei: /E000004/, haomas: /签名校验失败/ }[p]);
    updateConfig(smsConfigFor(p, standIn, { [secretKey]: (CREDS[p] as { secret: string }).secret }));
  });
});

describe("provider failures that never reach a provider reply", () => {
  test("a time-out is a failed send with a Chinese reason naming the provider", async () => {
    updateConfig(smsConfigFor("tencent", standIn, { timeout_seconds: 1 }));
    standIn.delayNext(1500);
    const r = await send();
    expect(r.status).toBe(503);
    expect(lastRow()).toMatchObject({ status: 2, error: "腾讯云短信接口请求超时（1 秒）" });
    updateConfig([{ category: "sms", name: "timeout_seconds", value: 10 }]);
  });

  test("an unreachable endpoint is a failed send", async () => {
    updateConfig(smsConfigFor("aliyun", standIn, { aliyun_endpoint: "http://127.0.0.1:9" }));
    const r = await send();
    expect(r.status).toBe(503);
    expect(lastRow().error).toStartWith("无法连接阿里云短信接口");
  });

  test("missing credentials are reported before any request is made", async () => {
    updateConfig(smsConfigFor("baidu", standIn, { baidu_access_key: "" }));
    const before = standIn.requests.length;
    const r = await send();
    expect(r.status).toBe(503);
    expect(standIn.requests.length).toBe(before);
    expect(lastRow()).toMatchObject({ status: 2, error: "未配置百度云 Access Key" });
  });

  test("the template with minutes passes code and validity to positional templates", async () => {
    updateConfig(smsConfigFor("huawei", standIn, { template_with_minutes: true, code_duration: 7 }));
    const r = await send();
    expect(r.status).toBe(200);
    const form = new URLSearchParams(standIn.requests.at(-1)!.body);
    expect(JSON.parse(form.get("templateParas")!)).toEqual([standIn.requests.at(-1)!.code, "7"]);
    updateConfig([{ category: "sms", name: "template_with_minutes", value: false }, { category: "sms", name: "code_duration", value: 5 }]);
  });
});
