// An Alipay open-platform gateway stand-in on loopback, speaking the real protocol with its own
// keys: it verifies the RSA2 signature of every request (sorted key=value pairs without `sign`,
// SHA256withRSA with the app's public key; a bad one gets code 40002 isv.invalid-signature, like the
// real gateway), signs every JSON answer over the exact text of its *_response member, keeps trades,
// serves the cashier page behind the page.pay / wap.pay redirect (a 支付 button that pays, posts the
// signed notification to notify_url and goes back to return_url), and builds signed notifications
// (and forged ones). Written from the API reference, independently of src/features/payments.
import { createSign, createVerify, generateKeyPairSync, randomBytes, randomUUID, type KeyObject } from "node:crypto";

export type AlipayTradeStatus = "WAIT_BUYER_PAY" | "TRADE_SUCCESS" | "TRADE_FINISHED" | "TRADE_CLOSED";

export interface FakeAlipayOptions {
  appId?: string;
}

export interface FakeAlipayOrder {
  outTradeNo: string;
  /** fen */
  amount: number;
  subject: string;
  state: AlipayTradeStatus;
  /** alipay.trade.page.pay or alipay.trade.wap.pay */
  method: string;
  notifyUrl: string;
  returnUrl: string;
  timeExpire: string;
  tradeNo: string;
  /** Beijing "yyyy-MM-dd HH:mm:ss", "" until paid */
  paidAt: string;
}

export interface FakeAlipayRequest {
  /** the API method parameter, e.g. alipay.trade.query */
  method: string;
  http: string;
  params: Record<string, string>;
  signatureValid: boolean;
  /** why the request was refused; "" when fine */
  problem: string;
  at: number;
}

export interface AlipayNotifyOptions {
  /** fen; default the order's amount (1 for an order the simulator never saw) */
  amount?: number;
  appId?: string;
  /** default TRADE_SUCCESS */
  tradeState?: AlipayTradeStatus;
  /** signed with a key Alipay does not own */
  forge?: boolean;
}

export interface FakeAlipay {
  /** the gateway URL for payment.alipay_gateway */
  url: string;
  appId: string;
  /** payment.* values that point our gateway at this simulator */
  settings: Record<string, string | boolean>;
  /** the same as updateConfig() items, with optional overrides */
  config(extra?: Record<string, string | boolean>): { category: string; name: string; value: string | boolean }[];
  orders: Map<string, FakeAlipayOrder>;
  requests: FakeAlipayRequest[];
  /** notifications the cashier page posted: the notify URL's answer status and body */
  delivered: { orderNo: string; status: number; body: string }[];
  /**
   * The buyer paid; queries now say TRADE_SUCCESS; no notification is sent. Alipay knows a trade
   * once the buyer opened the pay URL (GET it); `amount` (fen) stands in for that visit.
   */
  pay(orderNo: string, opts?: { amount?: number }): FakeAlipayOrder;
  /** a signed notification as a request (for app.request()); a genuine one (no options) also marks the order paid */
  notifyRequest(orderNo: string, opts?: AlipayNotifyOptions): { headers: Record<string, string>; body: string };
  /** POSTs notifyRequest() to the order's notify_url */
  notify(orderNo: string, opts?: AlipayNotifyOptions): Promise<Response>;
  /** the next JSON answer is changed after signing, as a man in the middle would ("body"), or sent without its sign ("unsigned") */
  tamperNextAnswer(how?: "body" | "unsigned"): void;
  stop(): void;
}

const two = (n: number) => String(n).padStart(2, "0");
function beijing(ms: number): string {
  const d = new Date(ms + 8 * 3600_000);
  return `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}
const yuan = (fen: number) => `${Math.floor(fen / 100)}.${two(fen % 100)}`;
function fenOf(text: unknown): number | null {
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(String(text ?? ""));
  return m ? Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0")) : null;
}
const digits = (n: number) => Array.from(randomBytes(n), (b) => b % 10).join("");
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Sorted key=value pairs joined by &, without the excluded keys and without empty values. */
function signContent(params: Record<string, string>, exclude: string[]): string {
  return Object.keys(params).filter((k) => !exclude.includes(k) && params[k] !== "").sort().map((k) => `${k}=${params[k]}`).join("&");
}
const rsa2 = (content: string, key: KeyObject) => createSign("RSA-SHA256").update(content, "utf8").sign(key, "base64");
function rsa2Verify(content: string, sig: string, key: KeyObject) {
  try {
    return createVerify("RSA-SHA256").update(content, "utf8").verify(key, sig, "base64");
  } catch {
    return false;
  }
}

function page(title: string, body: string, status = 200) {
  return new Response(`<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>${esc(title)}</title></head><body>${body}</body></html>`, {
    status, headers: { "Content-Type": "text/html; charset=utf-8" },
  });
}

export async function startFakeAlipay(opts: FakeAlipayOptions = {}): Promise<FakeAlipay> {
  const appId = opts.appId ?? `2021${digits(12)}`;
  const app = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const alipay = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const attacker = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const sellerId = `2088${digits(12)}`;
  const orders = new Map<string, FakeAlipayOrder>();
  const requests: FakeAlipayRequest[] = [];
  const delivered: FakeAlipay["delivered"] = [];
  let tamper: "" | "body" | "unsigned" = "";

  function check(p: Record<string, string>): { signatureValid: boolean; problem: string } {
    // Request signatures cover every parameter except sign itself (sign_type included).
    const signatureValid = !!p.sign && rsa2Verify(signContent(p, ["sign"]), p.sign, app.publicKey);
    const ts = Date.parse(`${(p.timestamp ?? "").replace(" ", "T")}+08:00`);
    let problem = "";
    if (p.app_id !== appId) problem = "app_id 不存在";
    else if (p.sign_type !== "RSA2") problem = "sign_type 必须是 RSA2";
    else if (!signatureValid) problem = "验签出错";
    else if ((p.charset ?? "").toLowerCase() !== "utf-8") problem = "charset 必须是 utf-8";
    else if (p.version !== "1.0") problem = "version 必须是 1.0";
    else if (!/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(p.timestamp ?? "") || !(Math.abs(Date.now() - ts) < 15 * 60_000)) problem = "timestamp 与支付宝服务器时间相差过大";
    return { signatureValid, problem };
  }

  /** {"<method>_response":{…},"sign":"…"} signed over the exact text of the response member. */
  function answer(method: string, data: Record<string, unknown>) {
    let inner = JSON.stringify(data);
    const sign = rsa2(inner, alipay.privateKey);
    if (tamper === "body") {
      inner = inner.includes('"total_amount"') ? inner.replace(/"total_amount":"[^"]*"/, '"total_amount":"0.01"') : inner.replace(/}$/, ',"x":"1"}');
    }
    const signPart = tamper === "unsigned" ? "" : `,"sign":"${sign}"`;
    tamper = "";
    return new Response(`{"${method.replaceAll(".", "_")}_response":${inner}${signPart}}`, {
      headers: { "Content-Type": "text/html;charset=utf-8", trace_id: randomBytes(12).toString("hex") },
    });
  }

  const bizFailed = (subCode: string, subMsg: string) => ({ code: "40004", msg: "Business Failed", sub_code: subCode, sub_msg: subMsg });

  function tradeFields(o: FakeAlipayOrder) {
    const base: Record<string, unknown> = {
      code: "10000", msg: "Success", out_trade_no: o.outTradeNo, trade_no: o.tradeNo, trade_status: o.state,
      total_amount: yuan(o.amount), buyer_logon_id: "159****5620", buyer_user_id: "2088101117955611",
    };
    if (o.paidAt) Object.assign(base, { send_pay_date: o.paidAt, buyer_pay_amount: yuan(o.amount), receipt_amount: yuan(o.amount), point_amount: "0.00", invoice_amount: yuan(o.amount) });
    return base;
  }

  function cashier(p: Record<string, string>, method: string) {
    let biz: any;
    try {
      biz = JSON.parse(p.biz_content ?? "");
    } catch {
      return page("支付宝 - 错误", "<h1>错误代码 invalid-parameter</h1><p>biz_content 不是 JSON</p>", 400);
    }
    const amount = fenOf(biz.total_amount);
    const product = method === "alipay.trade.wap.pay" ? "QUICK_WAP_WAY" : "FAST_INSTANT_TRADE_PAY";
    const problems: string[] = [];
    if (!/^[0-9A-Za-z_]{1,64}$/.test(String(biz.out_trade_no ?? ""))) problems.push("out_trade_no");
    if (amount === null || amount <= 0) problems.push("total_amount");
    if (!biz.subject) problems.push("subject");
    if (biz.product_code !== product) problems.push("product_code");
    if (!/^https?:\/\//.test(p.notify_url ?? "")) problems.push("notify_url");
    if (problems.length) return page("支付宝 - 错误", `<h1>错误代码 invalid-parameter</h1><p>${esc(problems.join(", "))}</p>`, 400);
    let o = orders.get(biz.out_trade_no);
    if (o && o.amount !== amount) return page("支付宝 - 错误", "<h1>错误代码 ACQ.TRADE_HAS_CHANGE</h1><p>交易信息被篡改</p>", 400);
    if (!o) {
      o = {
        outTradeNo: biz.out_trade_no, amount: amount!, subject: String(biz.subject), state: "WAIT_BUYER_PAY", method,
        notifyUrl: p.notify_url!, returnUrl: p.return_url ?? "", timeExpire: String(biz.time_expire ?? ""), tradeNo: `${beijing(Date.now()).replace(/\D/g, "").slice(0, 8)}2200${digits(16)}`, paidAt: "",
      };
      orders.set(o.outTradeNo, o);
    }
    if (o.state !== "WAIT_BUYER_PAY") return page("支付宝 - 收银台", `<h1>${o.state === "TRADE_CLOSED" ? "交易已关闭" : "订单已支付"}</h1>`);
    return page("支付宝 - 收银台", `<main><h1>支付宝收银台</h1><p class="subject">${esc(o.subject)}</p>`
      + `<p class="amount">¥${yuan(o.amount)}</p>`
      + `<form method="post" action="/cashier/pay?out_trade_no=${encodeURIComponent(o.outTradeNo)}"><button type="submit">支付</button></form></main>`);
  }

  function markPaid(o: FakeAlipayOrder) {
    if (o.state === "WAIT_BUYER_PAY") {
      o.state = "TRADE_SUCCESS";
      o.paidAt = beijing(Date.now());
    }
  }

  function notifyRequest(orderNo: string, n: AlipayNotifyOptions = {}) {
    const known = orders.get(orderNo);
    // Only a truthful notification moves the simulator's own state; altered or forged ones are just messages.
    const genuine = !!known && !n.forge && n.amount === undefined && n.appId === undefined && (n.tradeState ?? "TRADE_SUCCESS") === "TRADE_SUCCESS";
    if (genuine) markPaid(known);
    const amount = n.amount ?? known?.amount ?? 1;
    const now = beijing(Date.now());
    const params: Record<string, string> = {
      gmt_create: now, charset: "utf-8", seller_email: "shop@example.com", subject: known?.subject ?? "订单",
      sign_type: "RSA2", buyer_id: "2088102177846880", invoice_amount: yuan(amount), notify_id: `2024${randomUUID().replaceAll("-", "")}`,
      fund_bill_list: JSON.stringify([{ amount: yuan(amount), fundChannel: "ALIPAYACCOUNT" }]), notify_type: "trade_status_sync",
      trade_status: n.tradeState ?? "TRADE_SUCCESS", receipt_amount: yuan(amount), buyer_pay_amount: yuan(amount),
      app_id: n.appId ?? appId, seller_id: sellerId, gmt_payment: known?.paidAt || now, notify_time: now, version: "1.0",
      out_trade_no: orderNo, total_amount: yuan(amount), trade_no: known?.tradeNo || `20240101${digits(20)}`, auth_app_id: n.appId ?? appId,
      buyer_logon_id: "159****5620", point_amount: "0.00",
    };
    // Notification signatures leave out both sign and sign_type.
    params.sign = rsa2(signContent(params, ["sign", "sign_type"]), n.forge ? attacker.privateKey : alipay.privateKey);
    return { headers: { "Content-Type": "application/x-www-form-urlencoded; charset=utf-8" }, body: new URLSearchParams(params).toString() };
  }

  /** The synchronous return to return_url: the same kind of signed parameters, on the query string. */
  function returnUrlFor(o: FakeAlipayOrder): string {
    const params: Record<string, string> = {
      charset: "utf-8", out_trade_no: o.outTradeNo, method: `${o.method}.return`, total_amount: yuan(o.amount),
      trade_no: o.tradeNo, auth_app_id: appId, version: "1.0", app_id: appId, sign_type: "RSA2", seller_id: sellerId, timestamp: beijing(Date.now()),
    };
    params.sign = rsa2(signContent(params, ["sign", "sign_type"]), alipay.privateKey);
    const u = new URL(o.returnUrl);
    for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
    return u.toString();
  }

  async function deliver(o: FakeAlipayOrder) {
    const { headers, body } = notifyRequest(o.outTradeNo);
    try {
      const r = await fetch(o.notifyUrl, { method: "POST", headers, body });
      delivered.push({ orderNo: o.outTradeNo, status: r.status, body: await r.text() });
    } catch (e) {
      delivered.push({ orderNo: o.outTradeNo, status: 0, body: String((e as Error).message) });
    }
  }

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      if (url.pathname === "/cashier/pay" && req.method === "POST") {
        const o = orders.get(url.searchParams.get("out_trade_no") ?? "");
        if (!o) return page("支付宝 - 错误", "<h1>交易不存在</h1>", 404);
        if (o.state !== "WAIT_BUYER_PAY") return page("支付宝 - 收银台", `<h1>${o.state === "TRADE_CLOSED" ? "交易已关闭" : "订单已支付"}</h1>`);
        markPaid(o);
        await deliver(o);
        if (!o.returnUrl) return page("支付宝 - 支付成功", "<h1>支付成功</h1>");
        return new Response(null, { status: 302, headers: { Location: returnUrlFor(o) } });
      }
      if (url.pathname !== "/gateway.do") return page("支付宝 - 错误", "<h1>404</h1>", 404);
      const params: Record<string, string> = Object.fromEntries(url.searchParams);
      if (req.method === "POST") Object.assign(params, Object.fromEntries(new URLSearchParams(await req.text())));
      const method = params.method ?? "";
      const { signatureValid, problem } = check(params);
      requests.push({ method, http: req.method, params, signatureValid, problem, at: Date.now() });
      if (method === "alipay.trade.page.pay" || method === "alipay.trade.wap.pay") {
        if (problem) return page("支付宝 - 错误", `<h1>错误代码 ${problem === "验签出错" ? "invalid-signature" : "invalid-parameter"}</h1><p>${esc(problem)}</p>`, 400);
        return cashier(params, method);
      }
      if (!method) return Response.json({ error_response: { code: "40001", msg: "Missing Required Arguments", sub_code: "isv.missing-method", sub_msg: "缺少方法名参数" } });
      if (problem) {
        return answer(method, {
          code: "40002", msg: "Invalid Arguments",
          sub_code: problem === "验签出错" ? "isv.invalid-signature" : problem.startsWith("timestamp") ? "isv.invalid-timestamp" : "isv.invalid-parameter",
          sub_msg: problem,
        });
      }
      let biz: any = {};
      try {
        biz = JSON.parse(params.biz_content ?? "{}");
      } catch {
        return answer(method, { code: "40002", msg: "Invalid Arguments", sub_code: "isv.invalid-parameter", sub_msg: "biz_content 不是 JSON" });
      }
      const o = orders.get(String(biz.out_trade_no ?? ""));
      if (method === "alipay.trade.query") {
        if (!o) return answer(method, bizFailed("ACQ.TRADE_NOT_EXIST", "交易不存在"));
        return answer(method, tradeFields(o));
      }
      if (method === "alipay.trade.close") {
        if (!o) return answer(method, bizFailed("ACQ.TRADE_NOT_EXIST", "交易不存在"));
        if (o.state !== "WAIT_BUYER_PAY" && o.state !== "TRADE_CLOSED") return answer(method, bizFailed("ACQ.TRADE_STATUS_ERROR", "交易状态不合法"));
        o.state = "TRADE_CLOSED";
        return answer(method, { code: "10000", msg: "Success", trade_no: o.tradeNo, out_trade_no: o.outTradeNo });
      }
      return answer(method, { code: "40004", msg: "Business Failed", sub_code: "isv.invalid-method", sub_msg: "不存在的方法名" });
    },
  });
  const gateway = `http://127.0.0.1:${server.port}/gateway.do`;

  const settings: Record<string, string | boolean> = {
    enable_alipay: true,
    alipay_app_id: appId,
    alipay_private_key: app.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    alipay_public_key: alipay.publicKey.export({ type: "spki", format: "pem" }).toString(),
    alipay_gateway: gateway,
  };

  function pay(orderNo: string, p: { amount?: number } = {}): FakeAlipayOrder {
    let o = orders.get(orderNo);
    if (!o) {
      if (p.amount === undefined) throw new Error(`fakeAlipay: trade ${orderNo} unknown; GET its pay URL first or pass { amount }`);
      o = {
        outTradeNo: orderNo, amount: p.amount, subject: "订单", state: "WAIT_BUYER_PAY", method: "alipay.trade.page.pay",
        notifyUrl: "", returnUrl: "", timeExpire: "", tradeNo: `20240101${digits(20)}`, paidAt: "",
      };
      orders.set(orderNo, o);
    }
    if (o.state === "TRADE_CLOSED") throw new Error(`fakeAlipay: trade ${orderNo} is closed`);
    markPaid(o);
    return o;
  }

  return {
    url: gateway,
    appId,
    settings,
    config: (extra = {}) => Object.entries({ ...settings, ...extra }).map(([name, value]) => ({ category: "payment", name, value })),
    orders,
    requests,
    delivered,
    pay,
    notifyRequest,
    async notify(orderNo, n) {
      const target = orders.get(orderNo)?.notifyUrl;
      if (!target) throw new Error(`fakeAlipay: no notify_url known for ${orderNo} (GET its pay URL first)`);
      const { headers, body } = notifyRequest(orderNo, n);
      return fetch(target, { method: "POST", headers, body });
    },
    tamperNextAnswer: (how = "body") => void (tamper = how),
    stop: () => server.stop(true),
  };
}
