// Our WeChat Pay and Alipay gateways against the loopback simulators, which hold their own keys and
// check our signatures the way the real services do: Native orders, queries, closes, notifications
// (genuine, forged, altered, stale, undecryptable), tampered answers, both WeChat Pay key modes,
// Alipay's page/wap pay URL and cashier round trip, and fen-exact amounts.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, setSystemTime, test } from "bun:test";
import { createHash, createPublicKey, generateKeyPairSync } from "node:crypto";
import { alipayConfig } from "#src/features/payments/alipay/config.ts";
import { GatewayError, type GatewayOrder } from "#src/features/payments/gateway.ts";
import { enabledMoneyPayTypes, gatewayFor } from "#src/features/payments/registry.ts";
import { wechatPayCertificates } from "#src/features/payments/wechatpay/certificates.ts";
import { updateConfig } from "#src/features/settings/service.ts";
import { startFakeAlipay, type FakeAlipay } from "../helpers/fakeAlipay.ts";
import { startFakeWechatPay, type FakeWechatPay } from "../helpers/fakeWechatPay.ts";
import { useTempDatabase } from "../helpers/testDb.ts";

let db: ReturnType<typeof useTempDatabase>;
beforeAll(() => {
  db = useTempDatabase();
});
afterAll(() => db.cleanup());

const wechat = gatewayFor(1);
const alipay = gatewayFor(2);
const NOTIFY = "https://wenku.example.com/api/v1/payment/notify";
let seq = 0;
const orderNo = () => `T${Date.now()}${String(++seq).padStart(4, "0")}`;
const order = (over: Partial<GatewayOrder> = {}): GatewayOrder => ({
  orderNo: orderNo(), amount: 1999, description: "积分充值 1000 积分", expireAt: Date.now() + 30 * 60_000, ...over,
});

async function gatewayError(p: Promise<unknown>): Promise<GatewayError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(GatewayError);
    return e as GatewayError;
  }
  throw new Error("expected a GatewayError");
}

/** The payment.* settings blank, so each describe starts from nothing but what it saves. */
function resetPayment() {
  updateConfig([
    "enable_wechatpay", "wechatpay_app_id", "wechatpay_mch_id", "wechatpay_serial_no", "wechatpay_public_key_id",
    "wechatpay_public_key", "wechatpay_base_url", "enable_alipay", "alipay_app_id", "alipay_public_key", "alipay_gateway",
  ].map((name) => ({ category: "payment", name, value: name.startsWith("enable_") ? false : "" })));
}

describe("WeChat Pay v3 Native, public-key mode", () => {
  let fake: FakeWechatPay;
  beforeAll(async () => {
    fake = await startFakeWechatPay({ mode: "public_key" });
  });
  afterAll(() => fake.stop());
  beforeEach(() => updateConfig(fake.config()));

  test("Native order: signed request the simulator verifies, code_url back from a verified answer", async () => {
    const o = order({ notifyUrl: `${NOTIFY}/wechatpay` });
    const start = await wechat.start(o);
    const sent = fake.orders.get(o.orderNo)!;
    expect(start).toEqual({ kind: "qr", codeUrl: sent.codeUrl });
    expect(sent.codeUrl).toStartWith("weixin://wxpay/bizpayurl?pr=");
    const req = fake.requests.at(-1)!;
    expect(req).toMatchObject({ method: "POST", path: "/v3/pay/transactions/native", signatureValid: true, problem: "", status: 200 });
    expect(req.headers["wechatpay-serial"]).toBe(fake.publicKeyId);
    expect(req.headers["user-agent"]).toBeTruthy();
    expect(JSON.parse(req.body)).toEqual({
      appid: fake.appid, mchid: fake.mchid, description: "积分充值 1000 积分", out_trade_no: o.orderNo,
      time_expire: sent.timeExpire, notify_url: `${NOTIFY}/wechatpay`, amount: { total: 1999, currency: "CNY" },
    });
    expect(Date.parse(sent.timeExpire)).toBe(Math.floor(o.expireAt / 1000) * 1000);
    expect(sent.timeExpire).toEndWith("+08:00");
    // The same order asked again gets the same code (a page reload must not fail).
    expect(await wechat.start(o)).toEqual(start);
  });

  test("description longer than 127 bytes is cut on a character boundary", async () => {
    const o = order({ description: `购买文档《${"很长的标题".repeat(20)}》`, notifyUrl: `${NOTIFY}/wechatpay` });
    await wechat.start(o);
    const d = fake.orders.get(o.orderNo)!.description;
    expect(Buffer.byteLength(d, "utf8")).toBeLessThanOrEqual(127);
    expect(o.description.startsWith(d)).toBe(true);
  });

  test("the notify URL defaults to system.domain, and no domain is a Chinese error before any request", async () => {
    updateConfig([{ category: "system", name: "domain", value: "https://docs.example.cn/" }]);
    const o = order();
    await wechat.start(o);
    expect(fake.orders.get(o.orderNo)!.notifyUrl).toBe("https://docs.example.cn/api/v1/payment/notify/wechatpay");
    updateConfig([{ category: "system", name: "domain", value: "" }]);
    const before = fake.requests.length;
    expect((await gatewayError(wechat.start(order()))).message).toContain("网站域名");
    expect(fake.requests.length).toBe(before);
  });

  test("a tampered answer (body changed after WeChat Pay signed it) is refused", async () => {
    fake.tamperNextAnswer();
    const e = await gatewayError(wechat.start(order({ notifyUrl: `${NOTIFY}/wechatpay` })));
    expect(e.message).toBe("微信支付应答签名验证失败");
    // A 2xx answer without any signature counts as forged.
    fake.tamperNextAnswer("unsigned");
    expect((await gatewayError(wechat.start(order({ notifyUrl: `${NOTIFY}/wechatpay` })))).message).toBe("微信支付应答缺少签名");
  });

  test("a request signed with the wrong merchant key: the simulator answers 401 SIGN_ERROR", async () => {
    const other = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    updateConfig(fake.config({ wechatpay_private_key: other }));
    const o = order({ notifyUrl: `${NOTIFY}/wechatpay` });
    const e = await gatewayError(wechat.start(o));
    expect(e.message).toStartWith("微信支付下单失败：签名错误");
    expect(e.message).toContain("SIGN_ERROR");
    expect(fake.requests.at(-1)).toMatchObject({ signatureValid: false, status: 401 });
    expect(fake.orders.has(o.orderNo)).toBe(false);
  });

  test("invalid input never reaches WeChat Pay", async () => {
    const before = fake.requests.length;
    expect((await gatewayError(wechat.start(order({ amount: 0, notifyUrl: `${NOTIFY}/wechatpay` })))).message).toContain("金额");
    expect((await gatewayError(wechat.start(order({ amount: 12.5, notifyUrl: `${NOTIFY}/wechatpay` })))).message).toContain("金额");
    expect((await gatewayError(wechat.start(order({ orderNo: "a b", notifyUrl: `${NOTIFY}/wechatpay` })))).message).toContain("订单号");
    expect((await gatewayError(wechat.start(order({ expireAt: Date.now() - 1, notifyUrl: `${NOTIFY}/wechatpay` })))).message).toContain("过期");
    expect(fake.requests.length).toBe(before);
  });

  test("query: unknown, pending, paid with its own amount; close; a paid order cannot be closed", async () => {
    const o = order({ amount: 9500, notifyUrl: `${NOTIFY}/wechatpay` });
    expect(await wechat.query(o.orderNo)).toEqual({ state: "unknown" });
    expect(fake.requests.at(-1)!.path).toBe(`/v3/pay/transactions/out-trade-no/${o.orderNo}?mchid=${fake.mchid}`);
    await wechat.start(o);
    expect(await wechat.query(o.orderNo)).toEqual({ state: "pending" });
    const paid = fake.pay(o.orderNo);
    const q = await wechat.query(o.orderNo);
    expect(q).toMatchObject({ state: "paid", amount: 9500, transactionId: paid.transactionId, paidAt: Date.parse(paid.successTime) });
    expect((await gatewayError(wechat.close(o.orderNo))).message).toContain("微信支付关单失败");

    const c = order({ notifyUrl: `${NOTIFY}/wechatpay` });
    await wechat.start(c);
    await wechat.close(c.orderNo);
    expect(fake.requests.at(-1)).toMatchObject({ method: "POST", path: `/v3/pay/transactions/out-trade-no/${c.orderNo}/close`, body: JSON.stringify({ mchid: fake.mchid }), signatureValid: true, status: 204 });
    expect(fake.orders.get(c.orderNo)!.state).toBe("CLOSED");
    expect(await wechat.query(c.orderNo)).toEqual({ state: "closed" });
    // An order WeChat Pay never saw counts as closed.
    await wechat.close(orderNo());
  });

  test("a tampered 204 close answer is refused too", async () => {
    const c = order({ notifyUrl: `${NOTIFY}/wechatpay` });
    await wechat.start(c);
    fake.tamperNextAnswer();
    expect((await gatewayError(wechat.close(c.orderNo))).message).toBe("微信支付应答签名验证失败");
  });

  test("a genuine notification: verified, decrypted, merchant and app checked, amount in fen", async () => {
    const o = order({ amount: 1, notifyUrl: `${NOTIFY}/wechatpay` });
    await wechat.start(o);
    const { headers, body } = fake.notifyRequest(o.orderNo);
    const n = await wechat.verifyNotify(new Headers(headers), body);
    const sent = fake.orders.get(o.orderNo)!;
    expect(n).toMatchObject({ orderNo: o.orderNo, success: true, amount: 1, transactionId: sent.transactionId, paidAt: Date.parse(sent.successTime) });
    expect(n.raw).toMatchObject({ mchid: fake.mchid, appid: fake.appid, trade_state: "SUCCESS", event_type: "TRANSACTION.SUCCESS" });
    expect(wechat.reply(true)).toEqual({ status: 204, body: "", contentType: "text/plain; charset=utf-8" });
    const refused = wechat.reply(false, "签名验证失败");
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(JSON.parse(refused.body)).toEqual({ code: "FAIL", message: "签名验证失败" });
    // The notification also moved the simulator's order: the gateway now reports it paid.
    expect(await wechat.query(o.orderNo)).toMatchObject({ state: "paid", amount: 1 });
  });

  test("notify() posts the signed notification to the order's notify_url, answered 204", async () => {
    const seen: string[] = [];
    const sink = Bun.serve({
      hostname: "127.0.0.1", port: 0,
      async fetch(req) {
        try {
          const n = await wechat.verifyNotify(req.headers, await req.text());
          seen.push(`${n.orderNo}:${n.amount}:${n.success}`);
          const r = wechat.reply(true);
          return new Response(r.body || null, { status: r.status });
        } catch (e) {
          const r = wechat.reply(false, (e as Error).message);
          return new Response(r.body, { status: r.status, headers: { "Content-Type": r.contentType } });
        }
      },
    });
    try {
      const o = order({ amount: 9500, notifyUrl: `http://127.0.0.1:${sink.port}/api/v1/payment/notify/wechatpay` });
      await wechat.start(o);
      expect((await fake.notify(o.orderNo)).status).toBe(204);
      expect(seen).toEqual([`${o.orderNo}:9500:true`]);
      const forged = await fake.notify(o.orderNo, { forge: true });
      expect(forged.status).toBe(400);
      expect(await forged.json()).toEqual({ code: "FAIL", message: "微信支付通知签名验证失败" });
    } finally {
      sink.stop(true);
    }
  });

  test("amounts stay exact through the notification", async () => {
    for (const amount of [1, 9500, 1999, 10_000_000]) {
      const { headers, body } = fake.notifyRequest(orderNo(), { amount });
      expect((await wechat.verifyNotify(new Headers(headers), body)).amount).toBe(amount);
    }
  });

  test("forged, altered, stale, probing, undecryptable or mismatching notifications are refused", async () => {
    const no = orderNo();
    const refuse = async (r: { headers: Record<string, string>; body: string }) => (await gatewayError(wechat.verifyNotify(new Headers(r.headers), r.body))).message;
    expect(await refuse(fake.notifyRequest(no, { forge: true }))).toBe("微信支付通知签名验证失败");
    const good = fake.notifyRequest(no, { amount: 100 });
    expect(await refuse({ headers: good.headers, body: good.body.replace('"id":"', '"id":"x') })).toBe("微信支付通知签名验证失败");
    expect(await refuse(fake.notifyRequest(no, { timestamp: Math.floor(Date.now() / 1000) - 301 }))).toContain("5 分钟");
    expect(await refuse(fake.notifyRequest(no, { timestamp: Math.floor(Date.now() / 1000) + 301 }))).toContain("5 分钟");
    expect(await refuse(fake.notifyRequest(no, { signTest: true }))).toContain("签名探测");
    expect(await refuse(fake.notifyRequest(no, { badCiphertext: true }))).toBe("微信支付通知解密失败");
    expect(await refuse(fake.notifyRequest(no, { mchid: "1900000001" }))).toBe("微信支付通知商户号与配置不符");
    expect(await refuse(fake.notifyRequest(no, { appid: "wx0000000000000000" }))).toBe("微信支付通知 AppID 与配置不符");
    const { "Wechatpay-Signature": _s, ...unsigned } = good.headers;
    expect(await refuse({ headers: unsigned, body: good.body })).toBe("微信支付通知缺少签名");
    expect(await refuse({ headers: { ...good.headers, "Wechatpay-Serial": "PUB_KEY_ID_0000000000000000000000000000000000" }, body: good.body })).toContain("证书序列号未知");
  });

  test("a verified notification of another trade state is not a success", async () => {
    const { headers, body } = fake.notifyRequest(orderNo(), { tradeState: "PAYERROR" });
    expect((await wechat.verifyNotify(new Headers(headers), body)).success).toBe(false);
  });

  test("switched off: no new payments, but late notifications and queries still work", async () => {
    updateConfig(fake.config({ enable_wechatpay: false }));
    expect(wechat.enabled()).toBe(false);
    expect((await gatewayError(wechat.start(order({ notifyUrl: `${NOTIFY}/wechatpay` })))).message).toBe("微信支付未开启");
    const { headers, body } = fake.notifyRequest(orderNo(), { amount: 5 });
    expect((await wechat.verifyNotify(new Headers(headers), body)).amount).toBe(5);
    expect(await wechat.query(orderNo())).toEqual({ state: "unknown" });
  });

  test("GET /wechatpay/cert data: the public key in use", async () => {
    const info = await wechatPayCertificates();
    const spki = createPublicKey(fake.settings.wechatpay_public_key as string).export({ type: "spki", format: "der" });
    expect(info).toEqual({
      mode: "public_key",
      certificates: [{
        serial_no: fake.publicKeyId, effective_time: null, expire_time: null,
        fingerprint: createHash("sha256").update(spki).digest("hex").toUpperCase().match(/../g)!.join(":"),
      }],
    });
  });
});

describe("WeChat Pay v3, platform-certificate mode", () => {
  let fake: FakeWechatPay;
  beforeAll(async () => {
    fake = await startFakeWechatPay({ mode: "platform_cert" });
  });
  afterAll(() => fake.stop());
  beforeEach(() => updateConfig(fake.config()));
  afterEach(() => setSystemTime());

  test("certificates are fetched (signed request, encrypted list), then the answer verifies with one", async () => {
    const o = order({ notifyUrl: `${NOTIFY}/wechatpay` });
    const start = await wechat.start(o);
    expect(start).toEqual({ kind: "qr", codeUrl: fake.orders.get(o.orderNo)!.codeUrl });
    const certCalls = fake.requests.filter((r) => r.path === "/v3/certificates");
    expect(certCalls.length).toBe(1);
    expect(certCalls[0]).toMatchObject({ method: "GET", signatureValid: true, status: 200 });
    expect(certCalls[0]!.headers["wechatpay-serial"]).toBeUndefined();
    // Cached: the next call does not fetch them again.
    await wechat.query(o.orderNo);
    expect(fake.requests.filter((r) => r.path === "/v3/certificates").length).toBe(1);
  });

  test("a notification signed by the platform certificate verifies", async () => {
    const { headers, body } = fake.notifyRequest(orderNo(), { amount: 9500 });
    expect(headers["Wechatpay-Serial"]).toBe(fake.platformSerial);
    expect((await wechat.verifyNotify(new Headers(headers), body)).amount).toBe(9500);
  });

  test("GET /wechatpay/cert data: the decrypted platform certificates", async () => {
    const info = await wechatPayCertificates();
    expect(info.mode).toBe("platform_cert");
    expect(info.certificates).toHaveLength(1);
    const c = info.certificates[0]!;
    expect(c.serial_no).toBe(fake.platformSerial);
    expect(c.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(Date.parse(c.expire_time!)).toBeGreaterThan(Date.now());
    expect(Date.parse(c.effective_time!)).toBeLessThan(Date.now());
  });

  test("an unknown serial fetches the certificates again, at most once a minute", async () => {
    await wechatPayCertificates();
    const oldSerial = fake.platformSerial;
    const newSerial = fake.rotatePlatformCertificate();
    const fetches = () => fake.requests.filter((r) => r.path === "/v3/certificates").length;
    const before = fetches();
    // Right after a fetch an unknown serial is refused without asking WeChat Pay again…
    const early = fake.notifyRequest(orderNo(), { amount: 3 });
    expect(early.headers["Wechatpay-Serial"]).toBe(newSerial);
    expect((await gatewayError(wechat.verifyNotify(new Headers(early.headers), early.body))).message).toContain("证书序列号未知");
    expect(fetches()).toBe(before);
    // …a minute later it is fetched, the new certificate found and the notification accepted.
    setSystemTime(new Date(Date.now() + 61_000));
    const later = fake.notifyRequest(orderNo(), { amount: 3 });
    expect((await wechat.verifyNotify(new Headers(later.headers), later.body)).amount).toBe(3);
    expect(fetches()).toBe(before + 1);
    // Both are listed while WeChat Pay rotates.
    expect((await wechatPayCertificates()).certificates.map((c) => c.serial_no).sort()).toEqual([newSerial, oldSerial].sort());
  });

  test("a wrong APIv3 key cannot decrypt the certificates: nothing is trusted", async () => {
    updateConfig(fake.config({ wechatpay_api_v3_key: "ABCDEFGHIJKLMNOPQRSTUVWXYZ123456" }));
    expect((await gatewayError(wechatPayCertificates())).message).toBe("微信支付平台证书解密失败，请检查 APIv3 密钥");
    const { headers, body } = fake.notifyRequest(orderNo(), { amount: 3 });
    expect((await gatewayError(wechat.verifyNotify(new Headers(headers), body))).message).toContain("证书序列号未知");
  });
});

describe("WeChat Pay v3, public key while switching over from platform certificates", () => {
  let fake: FakeWechatPay;
  beforeAll(async () => {
    fake = await startFakeWechatPay({ mode: "public_key", withPlatformCert: true });
  });
  afterAll(() => fake.stop());
  beforeEach(() => updateConfig(fake.config()));

  test("answers come signed with the public key because requests name its ID", async () => {
    await wechat.start(order({ notifyUrl: `${NOTIFY}/wechatpay` }));
    expect(fake.requests.filter((r) => r.path === "/v3/certificates")).toHaveLength(0);
  });

  test("a notification still signed by the old platform certificate is verified through it", async () => {
    const { headers, body } = fake.notifyRequest(orderNo(), { amount: 42, signer: "platform_cert" });
    expect(headers["Wechatpay-Serial"]).toBe(fake.platformSerial);
    expect((await wechat.verifyNotify(new Headers(headers), body)).amount).toBe(42);
    expect(fake.requests.filter((r) => r.path === "/v3/certificates").at(-1)).toMatchObject({ signatureValid: true, status: 200 });
  });
});

describe("Alipay (alipay-sdk)", () => {
  let fake: FakeAlipay;
  let sink: ReturnType<typeof Bun.serve>;
  const received: { ok: boolean; message: string; amount?: number; orderNo?: string }[] = [];
  beforeAll(async () => {
    fake = await startFakeAlipay();
    // Stands in for our notify endpoint: verify, answer as the gateway says.
    sink = Bun.serve({
      hostname: "127.0.0.1", port: 0,
      async fetch(req) {
        const body = await req.text();
        try {
          const n = await alipay.verifyNotify(req.headers, body);
          received.push({ ok: true, message: "", amount: n.amount, orderNo: n.orderNo });
          const r = alipay.reply(true);
          return new Response(r.body, { status: r.status, headers: { "Content-Type": r.contentType } });
        } catch (e) {
          received.push({ ok: false, message: (e as Error).message });
          const r = alipay.reply(false, (e as Error).message);
          return new Response(r.body, { status: r.status, headers: { "Content-Type": r.contentType } });
        }
      },
    });
  });
  afterAll(() => {
    fake.stop();
    sink.stop(true);
  });
  beforeEach(() => updateConfig(fake.config()));
  const notifyUrl = () => `http://127.0.0.1:${sink.port}/api/v1/payment/notify/alipay`;

  test("desktop page pay: a signed GET URL the simulator verifies, opening its cashier", async () => {
    const o = order({ amount: 1999, notifyUrl: notifyUrl(), returnUrl: "https://wenku.example.com/order?order_no=X" });
    const start = await alipay.start(o);
    expect(start.kind).toBe("redirect");
    const url = new URL((start as { url: string }).url);
    expect(`${url.origin}${url.pathname}`).toBe(fake.url);
    const p = Object.fromEntries(url.searchParams);
    expect(p).toMatchObject({ method: "alipay.trade.page.pay", app_id: fake.appId, sign_type: "RSA2", charset: "utf-8", version: "1.0", notify_url: notifyUrl(), return_url: o.returnUrl });
    expect(JSON.parse(p.biz_content!)).toMatchObject({ out_trade_no: o.orderNo, total_amount: "19.99", subject: "积分充值 1000 积分", product_code: "FAST_INSTANT_TRADE_PAY" });
    // Beijing time, whatever the server's zone.
    expect(Math.abs(Date.parse(`${p.timestamp!.replace(" ", "T")}+08:00`) - Date.now())).toBeLessThan(60_000);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("支付</button>");
    expect(html).toContain("¥19.99");
    expect(fake.requests.at(-1)).toMatchObject({ method: "alipay.trade.page.pay", http: "GET", signatureValid: true, problem: "" });
    expect(fake.orders.get(o.orderNo)).toMatchObject({ amount: 1999, state: "WAIT_BUYER_PAY", notifyUrl: notifyUrl(), returnUrl: o.returnUrl });
  });

  test("a URL changed after signing is refused by the simulator", async () => {
    const o = order({ amount: 1999, notifyUrl: notifyUrl() });
    const { url } = (await alipay.start(o)) as { url: string };
    const forged = new URL(url);
    forged.searchParams.set("biz_content", forged.searchParams.get("biz_content")!.replace('"19.99"', '"0.01"'));
    const r = await fetch(forged);
    expect(r.status).toBe(400);
    expect(await r.text()).toContain("invalid-signature");
    expect(fake.requests.at(-1)!.signatureValid).toBe(false);
    expect(fake.orders.has(o.orderNo)).toBe(false);
  });

  test("phones get alipay.trade.wap.pay (QUICK_WAP_WAY)", async () => {
    const o = order({ device: "mobile", notifyUrl: notifyUrl(), returnUrl: "https://wenku.example.com/order" });
    const { url } = (await alipay.start(o)) as { url: string };
    const p = Object.fromEntries(new URL(url).searchParams);
    expect(p.method).toBe("alipay.trade.wap.pay");
    expect(JSON.parse(p.biz_content!)).toMatchObject({ product_code: "QUICK_WAP_WAY", quit_url: "https://wenku.example.com/order" });
    expect((await fetch(url)).status).toBe(200);
    expect(fake.requests.at(-1)!.signatureValid).toBe(true);
  });

  test("cashier 支付: the trade is paid, the signed notification verifies at notify_url, the buyer returns", async () => {
    const o = order({ amount: 9500, notifyUrl: notifyUrl(), returnUrl: "https://wenku.example.com/order?order_no=R" });
    const { url } = (await alipay.start(o)) as { url: string };
    const html = await (await fetch(url)).text();
    const action = /action="([^"]+)"/.exec(html)![1]!.replaceAll("&amp;", "&");
    const r = await fetch(new URL(action, fake.url), { method: "POST", redirect: "manual" });
    expect(r.status).toBe(302);
    const back = new URL(r.headers.get("location")!);
    expect(`${back.origin}${back.pathname}`).toBe("https://wenku.example.com/order");
    expect(back.searchParams.get("order_no")).toBe("R");
    expect(back.searchParams.get("out_trade_no")).toBe(o.orderNo);
    // Alipay signs the parameters it appended, not the ones our return_url already carried.
    const { order_no: _ours, ...returned } = Object.fromEntries(back.searchParams);
    expect(alipayConfig().sdk.checkNotifySignV2(returned)).toBe(true);
    expect(received.at(-1)).toEqual({ ok: true, message: "", amount: 9500, orderNo: o.orderNo });
    expect(fake.delivered.at(-1)).toEqual({ orderNo: o.orderNo, status: 200, body: "success" });
    expect(await alipay.query(o.orderNo)).toMatchObject({ state: "paid", amount: 9500, transactionId: fake.orders.get(o.orderNo)!.tradeNo });
  });

  test("query: unknown before the buyer opened the page, pending, paid with the exact amount", async () => {
    const o = order({ amount: 1, notifyUrl: notifyUrl() });
    expect(await alipay.query(o.orderNo)).toEqual({ state: "unknown" });
    expect(fake.requests.at(-1)).toMatchObject({ method: "alipay.trade.query", http: "POST", signatureValid: true });
    await fetch(((await alipay.start(o)) as { url: string }).url);
    expect(await alipay.query(o.orderNo)).toEqual({ state: "pending" });
    const paid = fake.pay(o.orderNo);
    const q = await alipay.query(o.orderNo);
    expect(q).toMatchObject({ state: "paid", amount: 1, transactionId: paid.tradeNo, paidAt: Date.parse(`${paid.paidAt.replace(" ", "T")}+08:00`) });
  });

  test("a tampered answer fails the SDK's sign check", async () => {
    fake.pay("TAMPER1", { amount: 1999 });
    fake.tamperNextAnswer();
    expect((await gatewayError(alipay.query("TAMPER1"))).message).toBe("支付宝应答签名验证失败");
    fake.tamperNextAnswer("unsigned");
    expect((await gatewayError(alipay.query("TAMPER1"))).message).toBe("支付宝应答签名验证失败");
    expect(await alipay.query("TAMPER1")).toMatchObject({ state: "paid", amount: 1999 });
  });

  test("a request signed with the wrong app key: Alipay answers isv.invalid-signature", async () => {
    const other = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs1", format: "pem" }).toString();
    updateConfig(fake.config({ alipay_private_key: other }));
    const e = await gatewayError(alipay.query(orderNo()));
    expect(e.message).toStartWith("支付宝查单失败：");
    expect(e.message).toContain("isv.invalid-signature");
    expect(fake.requests.at(-1)!.signatureValid).toBe(false);
  });

  test("close: a waiting trade closes, an unknown one counts as closed, a paid one is refused", async () => {
    const o = order({ notifyUrl: notifyUrl() });
    await fetch(((await alipay.start(o)) as { url: string }).url);
    await alipay.close(o.orderNo);
    expect(fake.requests.at(-1)).toMatchObject({ method: "alipay.trade.close", signatureValid: true });
    expect(fake.orders.get(o.orderNo)!.state).toBe("TRADE_CLOSED");
    expect(await alipay.query(o.orderNo)).toEqual({ state: "closed" });
    await alipay.close(orderNo());
    const paid = orderNo();
    fake.pay(paid, { amount: 100 });
    expect((await gatewayError(alipay.close(paid))).message).toBe("支付宝关单失败：交易状态不合法（ACQ.TRADE_STATUS_ERROR）");
  });

  test("notification: RSA2 verified, app_id checked, amount in exact fen, success only when paid", async () => {
    for (const [amount, text] of [[1, "0.01"], [9500, "95.00"], [1999, "19.99"], [29, "0.29"]] as const) {
      const { headers, body } = fake.notifyRequest(orderNo(), { amount });
      expect(new URLSearchParams(body).get("total_amount")).toBe(text);
      const n = await alipay.verifyNotify(new Headers(headers), body);
      expect(n).toMatchObject({ success: true, amount });
    }
    const finished = fake.notifyRequest(orderNo(), { tradeState: "TRADE_FINISHED" });
    expect((await alipay.verifyNotify(new Headers(finished.headers), finished.body)).success).toBe(true);
    const waiting = fake.notifyRequest(orderNo(), { tradeState: "WAIT_BUYER_PAY" });
    expect((await alipay.verifyNotify(new Headers(waiting.headers), waiting.body)).success).toBe(false);
    expect(alipay.reply(true)).toEqual({ status: 200, body: "success", contentType: "text/plain; charset=utf-8" });
    expect(alipay.reply(false).body).toBe("fail");
  });

  test("notify() posts to the notify_url the pay URL named", async () => {
    const o = order({ amount: 1999, notifyUrl: notifyUrl() });
    await fetch(((await alipay.start(o)) as { url: string }).url);
    const r = await fake.notify(o.orderNo);
    expect(await r.text()).toBe("success");
    expect(received.at(-1)).toEqual({ ok: true, message: "", amount: 1999, orderNo: o.orderNo });
    expect(fake.orders.get(o.orderNo)!.state).toBe("TRADE_SUCCESS");
    expect(await (await fake.notify(o.orderNo, { forge: true })).text()).toBe("fail");
  });

  test("forged, altered or foreign notifications are refused", async () => {
    const no = orderNo();
    const refuse = async (r: { headers: Record<string, string>; body: string }) => (await gatewayError(alipay.verifyNotify(new Headers(r.headers), r.body))).message;
    expect(await refuse(fake.notifyRequest(no, { forge: true }))).toBe("支付宝通知签名验证失败");
    const good = fake.notifyRequest(no, { amount: 1 });
    expect(await refuse({ headers: good.headers, body: good.body.replace("total_amount=0.01", "total_amount=100.00") })).toBe("支付宝通知签名验证失败");
    expect(await refuse({ headers: good.headers, body: good.body.replace(/&sign=[^&]*/, "") })).toBe("支付宝通知缺少签名");
    expect(await refuse(fake.notifyRequest(no, { appId: "2021000000000000" }))).toBe("支付宝通知 AppID 与配置不符");
  });
});

describe("registry", () => {
  let wx: FakeWechatPay;
  let ali: FakeAlipay;
  beforeAll(async () => {
    [wx, ali] = await Promise.all([startFakeWechatPay(), startFakeAlipay()]);
  });
  afterAll(() => {
    wx.stop();
    ali.stop();
  });
  beforeEach(resetPayment);

  test("a gateway is offered only when switched on and fully configured", () => {
    expect(enabledMoneyPayTypes()).toEqual([]);
    updateConfig([{ category: "payment", name: "enable_wechatpay", value: true }, { category: "payment", name: "enable_alipay", value: true }]);
    expect(enabledMoneyPayTypes()).toEqual([]);
    updateConfig(wx.config());
    expect(enabledMoneyPayTypes()).toEqual([1]);
    updateConfig(ali.config());
    expect(enabledMoneyPayTypes()).toEqual([1, 2]);
    updateConfig(wx.config({ enable_wechatpay: false }));
    expect(enabledMoneyPayTypes()).toEqual([2]);
    // Half of the public-key pair is neither mode.
    updateConfig(wx.config({ wechatpay_public_key: "" }));
    expect(enabledMoneyPayTypes()).toEqual([2]);
    updateConfig(ali.config({ alipay_public_key: "" }));
    expect(enabledMoneyPayTypes()).toEqual([]);
  });

  test("gatewayFor answers the gateway of each payment type", () => {
    expect(gatewayFor(1).paymentType).toBe(1);
    expect(gatewayFor(2).paymentType).toBe(2);
    expect(() => gatewayFor(5 as 1)).toThrow("不支持的支付方式");
  });

  test("configuration gaps and unreadable keys are Chinese errors naming the setting", async () => {
    updateConfig(wx.config({ wechatpay_mch_id: "" }));
    expect((await gatewayError(gatewayFor(1).query("T1"))).message).toBe("微信支付未配置完整：缺少微信支付商户号");
    updateConfig(wx.config({ wechatpay_private_key: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----" }));
    expect((await gatewayError(gatewayFor(1).query("T1"))).message).toContain("商户 API 私钥无法解析");
    updateConfig(ali.config({ alipay_public_key: ali.settings.alipay_private_key as string }));
    expect((await gatewayError(gatewayFor(2).query("T1"))).message).toContain("支付宝公钥无法解析");
  });
});
