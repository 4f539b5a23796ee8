// A WeChat Pay API v3 stand-in on loopback, speaking the real protocol with its own keys: it
// verifies the merchant's WECHATPAY2-SHA256-RSA2048 request signatures (401 SIGN_ERROR otherwise,
// like the real service), signs every answer with the WeChat Pay public key (PUB_KEY_ID_…) or a
// platform certificate, keeps Native orders, serves GET /v3/certificates with certificates encrypted
// under the APIv3 key, and builds signed, AEAD-encrypted payment notifications (and forged ones).
// Written from the API reference, independently of src/features/payments, so a mistake there is
// not mirrored here.
import {
  createCipheriv, createPrivateKey, createSign, createVerify, generateKeyPairSync, randomBytes, randomUUID, type KeyObject,
} from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type FakeWechatMode = "public_key" | "platform_cert";
export type WechatTradeState = "NOTPAY" | "USERPAYING" | "SUCCESS" | "CLOSED" | "REVOKED" | "PAYERROR";

export interface FakeWechatPayOptions {
  /** which key signs answers and notifications; default public_key */
  mode?: FakeWechatMode;
  mchid?: string;
  appid?: string;
  apiV3Key?: string;
  /** public-key mode only: also hold a platform certificate, as a merchant switching over does */
  withPlatformCert?: boolean;
}

export interface FakeWechatOrder {
  outTradeNo: string;
  /** fen */
  amount: number;
  description: string;
  state: WechatTradeState;
  notifyUrl: string;
  codeUrl: string;
  timeExpire: string;
  transactionId: string;
  successTime: string;
}

export interface FakeWechatRequest {
  method: string;
  /** path + query, as signed */
  path: string;
  body: string;
  headers: Record<string, string>;
  signatureValid: boolean;
  /** why the signature (or the request) was refused; "" when fine */
  problem: string;
  status: number;
  at: number;
}

export interface WechatNotifyOptions {
  /** fen; default the order's amount (1 for an order the simulator never saw) */
  amount?: number;
  mchid?: string;
  appid?: string;
  /** default SUCCESS */
  tradeState?: WechatTradeState;
  /** sign with a key WeChat Pay does not own (same serial header) */
  forge?: boolean;
  /** Wechatpay-Timestamp in unix seconds (a stale one is signed correctly, and still refused) */
  timestamp?: number;
  /** encrypt the resource with another APIv3 key */
  badCiphertext?: boolean;
  /** which WeChat Pay key signs; default the mode's */
  signer?: FakeWechatMode;
  /** a signature probe (Wechatpay-Signature starting WECHATPAY/SIGNTEST/) */
  signTest?: boolean;
}

export interface FakeWechatPay {
  /** base URL for payment.wechatpay_base_url */
  url: string;
  mode: FakeWechatMode;
  mchid: string;
  appid: string;
  apiV3Key: string;
  /** the merchant API certificate serial the simulator expects in Authorization */
  merchantSerial: string;
  publicKeyId: string;
  /** serial of the newest platform certificate, "" without one */
  platformSerial: string;
  /** payment.* values that point our gateway at this simulator */
  settings: Record<string, string | boolean>;
  /** the same as updateConfig() items, with optional overrides */
  config(extra?: Record<string, string | boolean>): { category: string; name: string; value: string | boolean }[];
  orders: Map<string, FakeWechatOrder>;
  requests: FakeWechatRequest[];
  /** the buyer paid: queries now say SUCCESS; no notification is sent */
  pay(orderNo: string): FakeWechatOrder;
  /** a signed notification as a request (for app.request()); a genuine one (no options) also marks the order paid */
  notifyRequest(orderNo: string, opts?: WechatNotifyOptions): { headers: Record<string, string>; body: string };
  /** POSTs notifyRequest() to the order's notify_url */
  notify(orderNo: string, opts?: WechatNotifyOptions): Promise<Response>;
  /** the next answer's body is changed after signing, as a man in the middle would ("body"), or sent without any signature headers ("unsigned") */
  tamperNextAnswer(how?: "body" | "unsigned"): void;
  /** issues a new platform certificate (listed beside the old one) and signs with it from now on; its serial */
  rotatePlatformCertificate(): string;
  stop(): void;
}

interface PlatformCert { serial: string; pem: string; privateKey: KeyObject; effective: string; expire: string }

const pem = (k: KeyObject, type: "pkcs8" | "spki") => k.export({ type, format: "pem" }).toString();
const two = (n: number) => String(n).padStart(2, "0");

function beijing(ms: number): string {
  const d = new Date(ms + 8 * 3600_000);
  return `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}T${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}+08:00`;
}

function sign(message: string, key: KeyObject) {
  return createSign("RSA-SHA256").update(message, "utf8").sign(key, "base64");
}

function encrypt(plaintext: string, apiV3Key: string, associatedData: string) {
  const nonce = randomBytes(9).toString("base64url").slice(0, 12);
  const cipher = createCipheriv("aes-256-gcm", Buffer.from(apiV3Key, "utf8"), Buffer.from(nonce, "utf8"));
  cipher.setAAD(Buffer.from(associatedData, "utf8"));
  const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return { algorithm: "AEAD_AES_256_GCM", ciphertext: data.toString("base64"), associated_data: associatedData, nonce };
}

/** A self-signed X.509 certificate from the openssl CLI (node:crypto can read certificates but not issue them). */
function issueCertificate(): PlatformCert {
  const dir = mkdtempSync(join(tmpdir(), "wk-wxcert-"));
  try {
    const serialHex = `${(1 + (randomBytes(1)[0]! % 7)).toString(16)}${randomBytes(19).toString("hex")}`.toUpperCase();
    const r = Bun.spawnSync([
      "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-sha256", "-days", "1825",
      "-subj", "/C=CN/O=Tenpay.com/OU=Tenpay.com CA Center/CN=Tenpay.com Root CA",
      "-set_serial", `0x${serialHex}`, "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem"),
    ], { stdout: "pipe", stderr: "pipe" });
    if (r.exitCode !== 0) throw new Error(`openssl could not issue the platform certificate: ${r.stderr.toString()}`);
    const now = Date.now();
    return {
      serial: serialHex,
      pem: readFileSync(join(dir, "cert.pem"), "utf8"),
      privateKey: createPrivateKey(readFileSync(join(dir, "key.pem"), "utf8")),
      effective: beijing(now - 86_400_000),
      expire: beijing(now + 4 * 365 * 86_400_000),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const json = (body: unknown) => JSON.stringify(body);
const digits = (n: number) => Array.from(randomBytes(n), (b) => b % 10).join("");

export async function startFakeWechatPay(opts: FakeWechatPayOptions = {}): Promise<FakeWechatPay> {
  const mode = opts.mode ?? "public_key";
  const mchid = opts.mchid ?? "1900009191";
  const appid = opts.appid ?? "wxd678efh567hg6787";
  const apiV3Key = opts.apiV3Key ?? randomBytes(24).toString("base64url").slice(0, 32);
  const merchant = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const merchantSerial = randomBytes(20).toString("hex").toUpperCase();
  const wxp = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const publicKeyId = `PUB_KEY_ID_0119${String(Date.now()).padStart(20, "0")}${randomBytes(4).toString("hex").toUpperCase()}`;
  const attacker = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const platform: PlatformCert[] = mode === "platform_cert" || opts.withPlatformCert ? [issueCertificate()] : [];
  const orders = new Map<string, FakeWechatOrder>();
  const requests: FakeWechatRequest[] = [];
  let tamper: "" | "body" | "unsigned" = "";

  const signerKey = (who: FakeWechatMode) =>
    who === "platform_cert" && platform.length
      ? { serial: platform.at(-1)!.serial, key: platform.at(-1)!.privateKey }
      : { serial: publicKeyId, key: wxp.privateKey };

  function signedHeaders(body: string, who: FakeWechatMode, o: { forge?: boolean; timestamp?: number; signTest?: boolean } = {}) {
    const { serial, key } = signerKey(who);
    const timestamp = String(o.timestamp ?? Math.floor(Date.now() / 1000));
    const nonce = randomBytes(16).toString("hex");
    let signature = sign(`${timestamp}\n${nonce}\n${body}\n`, o.forge ? attacker.privateKey : key);
    if (o.signTest) signature = `WECHATPAY/SIGNTEST/${signature}`;
    return {
      "Wechatpay-Timestamp": timestamp, "Wechatpay-Nonce": nonce, "Wechatpay-Signature": signature,
      "Wechatpay-Serial": serial, "Wechatpay-Signature-Type": "WECHATPAY2-SHA256-RSA2048",
    };
  }

  /** Answers are signed with the public key when the request named its ID, else with a platform certificate. */
  function answer(req: Request, status: number, body: unknown) {
    let text = status === 204 ? "" : json(body);
    const who: FakeWechatMode = mode === "platform_cert" || (req.headers.get("wechatpay-serial") !== publicKeyId && platform.length) ? "platform_cert" : "public_key";
    const headers: Record<string, string> = { "Request-ID": randomUUID(), ...signedHeaders(text, who) };
    if (text) headers["Content-Type"] = "application/json; charset=utf-8";
    if (tamper === "unsigned") {
      for (const k of Object.keys(headers)) if (k.startsWith("Wechatpay-")) delete headers[k];
    } else if (tamper === "body") {
      if (text.includes('"code_url"')) text = text.replace(/"code_url":"[^"]*"/, '"code_url":"weixin://wxpay/bizpayurl?pr=attacker"');
      else if (text) text = text.replace(/"total":\d+/, '"total":1').replace(/}$/, " }");
      else headers["Wechatpay-Signature"] = sign("tampered\n", wxp.privateKey);
    }
    tamper = "";
    return new Response(status === 204 ? null : text, { status, headers });
  }

  function checkSignature(req: Request, path: string, body: string): string {
    const auth = req.headers.get("authorization") ?? "";
    if (!auth.startsWith("WECHATPAY2-SHA256-RSA2048 ")) return "Authorization 认证类型错误";
    const f: Record<string, string> = {};
    for (const m of auth.slice("WECHATPAY2-SHA256-RSA2048 ".length).matchAll(/(\w+)="([^"]*)"/g)) f[m[1]!] = m[2]!;
    for (const k of ["mchid", "nonce_str", "signature", "timestamp", "serial_no"]) if (!f[k]) return `Authorization 缺少 ${k}`;
    if (f.mchid !== mchid) return "商户号不符";
    if (f.serial_no !== merchantSerial) return "商户证书序列号不符";
    if (!/^\d+$/.test(f.timestamp!) || Math.abs(Date.now() / 1000 - Number(f.timestamp)) > 300) return "时间戳过期";
    const message = `${req.method}\n${path}\n${f.timestamp}\n${f.nonce_str}\n${body}\n`;
    let ok = false;
    try {
      ok = createVerify("RSA-SHA256").update(message, "utf8").verify(merchant.publicKey, f.signature!, "base64");
    } catch {}
    return ok ? "" : "签名错误";
  }

  function native(req: Request, body: string) {
    let b: any;
    try {
      b = JSON.parse(body);
    } catch {
      return answer(req, 400, { code: "PARAM_ERROR", message: "请求体不是 JSON" });
    }
    const problems: string[] = [];
    if (b.appid !== appid) problems.push("appid 与商户号不匹配");
    if (b.mchid !== mchid) problems.push("mchid 错误");
    if (typeof b.description !== "string" || !b.description || Buffer.byteLength(b.description, "utf8") > 127) problems.push("description 长度应为 1-127 字节");
    if (typeof b.out_trade_no !== "string" || !/^[0-9A-Za-z_\-|*]{6,32}$/.test(b.out_trade_no)) problems.push("out_trade_no 格式错误");
    if (typeof b.time_expire !== "string" || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+08:00$/.test(b.time_expire) || Date.parse(b.time_expire) <= Date.now()) problems.push("time_expire 格式错误或已过期");
    if (typeof b.notify_url !== "string" || !/^https?:\/\//.test(b.notify_url)) problems.push("notify_url 格式错误");
    if (!Number.isSafeInteger(b.amount?.total) || b.amount.total <= 0 || b.amount?.currency !== "CNY") problems.push("amount 错误");
    if (problems.length) return answer(req, 400, { code: "PARAM_ERROR", message: problems.join("；") });
    const existing = orders.get(b.out_trade_no);
    if (existing) {
      if (existing.state === "SUCCESS") return answer(req, 400, { code: "ORDERPAID", message: "该订单已支付" });
      if (existing.state === "CLOSED") return answer(req, 400, { code: "ORDER_CLOSED", message: "订单已关闭" });
      if (existing.amount !== b.amount.total) return answer(req, 400, { code: "INVALID_REQUEST", message: "201 商户订单号重复" });
      return answer(req, 200, { code_url: existing.codeUrl });
    }
    const order: FakeWechatOrder = {
      outTradeNo: b.out_trade_no, amount: b.amount.total, description: b.description, state: "NOTPAY",
      notifyUrl: b.notify_url, codeUrl: `weixin://wxpay/bizpayurl?pr=${randomBytes(6).toString("base64url")}`,
      timeExpire: b.time_expire, transactionId: "", successTime: "",
    };
    orders.set(order.outTradeNo, order);
    return answer(req, 200, { code_url: order.codeUrl });
  }

  function transaction(o: FakeWechatOrder, over: WechatNotifyOptions = {}) {
    const state = over.tradeState ?? o.state;
    const total = over.amount ?? o.amount;
    const t: Record<string, unknown> = {
      appid: over.appid ?? appid, mchid: over.mchid ?? mchid, out_trade_no: o.outTradeNo,
      trade_type: "NATIVE", trade_state: state, trade_state_desc: state === "SUCCESS" ? "支付成功" : state === "CLOSED" ? "订单已关闭" : "订单未支付",
      amount: { total, currency: "CNY" },
    };
    if (state === "SUCCESS") {
      Object.assign(t, {
        transaction_id: o.transactionId || `4200${digits(24)}`,
        bank_type: "OTHERS", attach: "", success_time: o.successTime || beijing(Date.now()),
        payer: { openid: "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o" },
        amount: { total, payer_total: total, currency: "CNY", payer_currency: "CNY" },
      });
    }
    return t;
  }

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const path = url.pathname + url.search;
      const body = await req.text();
      const rec: FakeWechatRequest = {
        method: req.method, path, body, headers: Object.fromEntries(req.headers), signatureValid: false, problem: "", status: 0, at: Date.now(),
      };
      requests.push(rec);
      const done = (r: Response) => ((rec.status = r.status), r);
      rec.problem = checkSignature(req, path, body);
      rec.signatureValid = !rec.problem;
      // The real service answers a bad signature with 401 SIGN_ERROR and does not sign that answer.
      if (rec.problem) return done(Response.json({ code: "SIGN_ERROR", message: `签名错误：${rec.problem}` }, { status: 401 }));
      if (!req.headers.get("user-agent")) return done(answer(req, 400, { code: "PARAM_ERROR", message: "HTTP 头缺少 User-Agent" }));
      if (req.method === "POST" && url.pathname === "/v3/pay/transactions/native") return done(native(req, body));
      if (req.method === "GET" && url.pathname === "/v3/certificates") {
        if (!platform.length) return done(answer(req, 404, { code: "RESOURCE_NOT_EXISTS", message: "无可用的平台证书" }));
        return done(answer(req, 200, {
          data: platform.map((c) => ({
            serial_no: c.serial, effective_time: c.effective, expire_time: c.expire,
            encrypt_certificate: encrypt(c.pem, apiV3Key, "certificate"),
          })),
        }));
      }
      const m = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)(\/close)?$/.exec(url.pathname);
      if (m) {
        const no = decodeURIComponent(m[1]!);
        const o = orders.get(no);
        if (m[2] && req.method === "POST") {
          let b: any = null;
          try {
            b = JSON.parse(body);
          } catch {}
          if (b?.mchid !== mchid) return done(answer(req, 400, { code: "PARAM_ERROR", message: "mchid 错误" }));
          if (!o) return done(answer(req, 404, { code: "ORDER_NOT_EXIST", message: "订单不存在" }));
          if (o.state === "SUCCESS") return done(answer(req, 400, { code: "ORDERPAID", message: "订单已支付" }));
          o.state = "CLOSED";
          return done(answer(req, 204, null));
        }
        if (!m[2] && req.method === "GET") {
          if (url.searchParams.get("mchid") !== mchid) return done(answer(req, 400, { code: "PARAM_ERROR", message: "mchid 错误" }));
          if (!o) return done(answer(req, 404, { code: "ORDER_NOT_EXIST", message: "订单不存在" }));
          return done(answer(req, 200, transaction(o)));
        }
      }
      return done(answer(req, 404, { code: "NOT_FOUND", message: "接口不存在" }));
    },
  });
  const base = `http://127.0.0.1:${server.port}`;

  const settings: Record<string, string | boolean> = {
    enable_wechatpay: true,
    wechatpay_app_id: appid,
    wechatpay_mch_id: mchid,
    wechatpay_api_v3_key: apiV3Key,
    wechatpay_serial_no: merchantSerial,
    wechatpay_private_key: pem(merchant.privateKey, "pkcs8"),
    wechatpay_public_key_id: mode === "public_key" ? publicKeyId : "",
    wechatpay_public_key: mode === "public_key" ? pem(wxp.publicKey, "spki") : "",
    wechatpay_base_url: base,
  };

  function pay(orderNo: string): FakeWechatOrder {
    const o = orders.get(orderNo);
    if (!o) throw new Error(`fakeWechatPay: no Native order ${orderNo} (POST /order/pay first)`);
    if (o.state === "CLOSED") throw new Error(`fakeWechatPay: order ${orderNo} is closed`);
    if (o.state !== "SUCCESS") {
      o.state = "SUCCESS";
      o.transactionId = `4200${digits(24)}`;
      o.successTime = beijing(Date.now());
    }
    return o;
  }

  function notifyRequest(orderNo: string, o: WechatNotifyOptions = {}) {
    const known = orders.get(orderNo);
    // Only a truthful notification moves the simulator's own state; altered or forged ones are just messages.
    const genuine = !!known && !o.forge && !o.badCiphertext && !o.signTest && o.amount === undefined && o.mchid === undefined
      && o.appid === undefined && o.timestamp === undefined && (o.tradeState ?? "SUCCESS") === "SUCCESS";
    if (genuine && (known.state === "NOTPAY" || known.state === "USERPAYING")) pay(orderNo);
    const order: FakeWechatOrder = known ?? {
      outTradeNo: orderNo, amount: 1, description: "", state: "NOTPAY", notifyUrl: "", codeUrl: "", timeExpire: "", transactionId: "", successTime: "",
    };
    const t = transaction(order, { ...o, tradeState: o.tradeState ?? "SUCCESS" });
    const state = String(t.trade_state);
    const key = o.badCiphertext ? randomBytes(24).toString("base64url").slice(0, 32) : apiV3Key;
    const body = json({
      id: randomUUID(),
      create_time: beijing(Date.now()),
      resource_type: "encrypt-resource",
      event_type: state === "SUCCESS" ? "TRANSACTION.SUCCESS" : "TRANSACTION.FAIL",
      summary: state === "SUCCESS" ? "支付成功" : "支付失败",
      resource: { original_type: "transaction", ...encrypt(json(t), key, "transaction") },
    });
    const headers = {
      "Content-Type": "application/json",
      "User-Agent": "Mozilla/4.0",
      ...signedHeaders(body, o.signer ?? mode, o),
    };
    return { headers, body };
  }

  return {
    url: base, mode, mchid, appid, apiV3Key, merchantSerial, publicKeyId,
    get platformSerial() {
      return platform.at(-1)?.serial ?? "";
    },
    settings,
    config: (extra = {}) => Object.entries({ ...settings, ...extra }).map(([name, value]) => ({ category: "payment", name, value })),
    orders,
    requests,
    pay,
    notifyRequest,
    async notify(orderNo, o) {
      const target = orders.get(orderNo)?.notifyUrl;
      if (!target) throw new Error(`fakeWechatPay: no notify_url known for ${orderNo}`);
      const { headers, body } = notifyRequest(orderNo, o);
      return fetch(target, { method: "POST", headers, body });
    },
    tamperNextAnswer: (how = "body") => void (tamper = how),
    rotatePlatformCertificate() {
      platform.push(issueCertificate());
      return platform.at(-1)!.serial;
    },
    stop: () => server.stop(true),
  };
}
