// Loopback stand-ins for the five SMS providers. Each one re-derives the request signature from the
// provider's documented algorithm and the known test secret (independently of src/features/sms), checks
// the documented headers and parameters, records the code it was asked to deliver, and answers in the
// provider's own success or error shape. A request that does not verify gets the provider's auth error.
import { createHash, createHmac } from "node:crypto";

export type ProviderKey = "aliyun" | "tencent" | "baidu" | "huawei" | "haomas";
export const PROVIDER_NAME: Record<ProviderKey, string> = { aliyun: "smsAliyun", tencent: "smsTencent", baidu: "smsBaidu", huawei: "smsHuawei", haomas: "smsHaomas" };

export const CREDS = {
  aliyun: { id: "LTAI-test-key", secret: "aliyun-test-secret" },
  tencent: { id: "AKID-test-id", secret: "tencent-test-secret", appId: "1400012345" },
  baidu: { id: "baidu-test-ak", secret: "baidu-test-sk" },
  huawei: { id: "huawei-app-key", secret: "huawei-app-secret", sender: "csms12345678" },
  haomas: { id: "haomas-app", secret: "haomas-secret" },
};
export const SIGN = "魔豆文库";
export const TEMPLATE = "SMS_000001";

export interface Recorded { provider: ProviderKey; mobile: string; code: string; verified: boolean; problems: string[]; headers: Record<string, string>; body: string }

const enc = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const hmacB = (alg: string, key: string | Buffer, data: string) => createHmac(alg, key).update(data).digest();
const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
const fresh = (ms: number) => Math.abs(Date.now() - ms) < 15 * 60_000;

type Check = { mobile: string; code: string; problems: string[] };
const expect = (problems: string[], ok: boolean, what: string) => { if (!ok) problems.push(what); };

function aliyun(body: string): Check {
  const p = Object.fromEntries(new URLSearchParams(body));
  const problems: string[] = [];
  const { Signature, ...rest } = p;
  const canonical = Object.keys(rest).sort().map((k) => `${enc(k)}=${enc(rest[k]!)}`).join("&");
  const want = hmacB("sha1", `${CREDS.aliyun.secret}&`, `POST&${enc("/")}&${enc(canonical)}`).toString("base64");
  expect(problems, Signature === want, "Signature");
  expect(problems, p.AccessKeyId === CREDS.aliyun.id, "AccessKeyId");
  for (const [k, v] of [["Action", "SendSms"], ["Version", "2017-05-25"], ["Format", "JSON"], ["SignatureMethod", "HMAC-SHA1"], ["SignatureVersion", "1.0"], ["SignName", SIGN], ["TemplateCode", TEMPLATE]]) expect(problems, p[k!] === v, k!);
  expect(problems, !!p.SignatureNonce && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(p.Timestamp ?? "") && fresh(Date.parse(p.Timestamp!)), "Timestamp/SignatureNonce");
  return { mobile: p.PhoneNumbers ?? "", code: JSON.parse(p.TemplateParam ?? "{}").code ?? "", problems };
}

function tencent(req: Request, body: string): Check {
  const problems: string[] = [];
  const h = req.headers;
  const m = /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d\d-\d\d)\/sms\/tc3_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(h.get("authorization") ?? "");
  if (!m) return { mobile: "", code: "", problems: ["Authorization"] };
  const [, id, date, signed, sig] = m;
  const ts = Number(h.get("x-tc-timestamp"));
  expect(problems, id === CREDS.tencent.id, "SecretId");
  expect(problems, fresh(ts * 1000) && new Date(ts * 1000).toISOString().slice(0, 10) === date, "X-TC-Timestamp");
  expect(problems, h.get("x-tc-action") === "SendSms" && h.get("x-tc-version") === "2021-01-11" && h.get("x-tc-region") === "ap-guangzhou", "X-TC-Action/Version/Region");
  const names = signed!.split(";");
  const canonicalHeaders = names.map((n) => `${n}:${(h.get(n) ?? "").trim().toLowerCase()}\n`).join("");
  const canonicalRequest = ["POST", new URL(req.url).pathname, "", canonicalHeaders, signed, sha256(body)].join("\n");
  const toSign = ["TC3-HMAC-SHA256", String(ts), `${date}/sms/tc3_request`, sha256(canonicalRequest)].join("\n");
  const key = hmacB("sha256", hmacB("sha256", hmacB("sha256", `TC3${CREDS.tencent.secret}`, date!), "sms"), "tc3_request");
  expect(problems, hmacB("sha256", key, toSign).toString("hex") === sig, "Signature");
  const j = JSON.parse(body);
  expect(problems, j.SmsSdkAppId === CREDS.tencent.appId && j.SignName === SIGN && j.TemplateId === TEMPLATE, "SmsSdkAppId/SignName/TemplateId");
  return { mobile: String(j.PhoneNumberSet?.[0] ?? "").replace(/^\+86/, ""), code: j.TemplateParamSet?.[0] ?? "", problems };
}

function baidu(req: Request, body: string): Check {
  const problems: string[] = [];
  const auth = (req.headers.get("authorization") ?? "").split("/");
  if (auth.length !== 6 || auth[0] !== "bce-auth-v1") return { mobile: "", code: "", problems: ["Authorization"] };
  const [, ak, ts, exp, signed, sig] = auth;
  expect(problems, ak === CREDS.baidu.id, "AccessKey");
  expect(problems, ts === req.headers.get("x-bce-date") && fresh(Date.parse(ts!)), "x-bce-date");
  expect(problems, signed!.split(";").includes("host"), "signedHeaders must include host");
  const prefix = `bce-auth-v1/${ak}/${ts}/${exp}`;
  const headers = signed!.split(";").sort().map((n) => `${enc(n)}:${enc((req.headers.get(n) ?? "").trim())}`).join("\n");
  const canonical = ["POST", new URL(req.url).pathname.split("/").map(enc).join("/"), "", headers].join("\n");
  const key = hmacB("sha256", CREDS.baidu.secret, prefix).toString("hex");
  expect(problems, hmacB("sha256", key, canonical).toString("hex") === sig, "Signature");
  const j = JSON.parse(body);
  expect(problems, j.signatureId === SIGN && j.template === TEMPLATE, "signatureId/template");
  return { mobile: j.mobile ?? "", code: j.contentVar?.code ?? "", problems };
}

function huawei(req: Request, body: string): Check {
  const problems: string[] = [];
  expect(problems, req.headers.get("authorization") === 'WSSE realm="SDP",profile="UsernameToken",type="Appkey"', "Authorization");
  const w = /^UsernameToken Username="([^"]+)",PasswordDigest="([^"]+)",Nonce="([^"]+)",Created="([^"]+)"$/.exec(req.headers.get("x-wsse") ?? "");
  if (!w) return { mobile: "", code: "", problems: [...problems, "X-WSSE"] };
  const [, user, digest, nonce, created] = w;
  expect(problems, user === CREDS.huawei.id, "Username");
  expect(problems, fresh(Date.parse(created!)), "Created");
  // The documented example digest is Base64 of the lowercase hex SHA-256 of Nonce + Created + AppSecret.
  expect(problems, digest === Buffer.from(sha256(nonce! + created! + CREDS.huawei.secret)).toString("base64"), "PasswordDigest");
  const f = new URLSearchParams(body);
  expect(problems, f.get("from") === CREDS.huawei.sender && f.get("templateId") === TEMPLATE, "from/templateId");
  expect(problems, (req.headers.get("content-type") ?? "").startsWith("application/x-www-form-urlencoded"), "Content-Type");
  return { mobile: (f.get("to") ?? "").replace(/^\+86/, ""), code: JSON.parse(f.get("templateParas") ?? "[]")[0] ?? "", problems };
}

function haomas(body: string): Check {
  const problems: string[] = [];
  const j = JSON.parse(body) as Record<string, string>;
  const toSign = Object.keys(j).filter((k) => k !== "signature").sort().map((k) => `${k}=${j[k]}`).join("&");
  expect(problems, hmacB("sha256", CREDS.haomas.secret, toSign).toString("hex") === j.signature, "signature");
  expect(problems, j.app_key === CREDS.haomas.id && j.sign_name === SIGN && j.template_id === TEMPLATE && !!j.nonce, "app_key/sign_name/template_id/nonce");
  expect(problems, fresh(Number(j.timestamp) * 1000), "timestamp");
  return { mobile: j.mobile ?? "", code: JSON.parse(j.template_params ?? "{}").code ?? "", problems };
}

const json = (data: unknown, status = 200) => Response.json(data, { status });

// Success, signature rejection and a business error, each in the provider's own response shape.
const REPLIES: Record<ProviderKey, { ok: (m: string) => Response; auth: () => Response; biz: () => Response }> = {
  aliyun: {
    ok: () => json({ Code: "OK", Message: "OK", BizId: "900619746936498440^0", RequestId: crypto.randomUUID() }),
    auth: () => json({ Code: "SignatureDoesNotMatch", Message: "Specified signature is not matched with our calculation.", RequestId: crypto.randomUUID() }, 400),
    biz: () => json({ Code: "isv.BUSINESS_LIMIT_CONTROL", Message: "触发号码天级流控", RequestId: crypto.randomUUID() }),
  },
  tencent: {
    ok: (m) => json({ Response: { SendStatusSet: [{ SerialNo: "5000:1045710669157053657849499619", PhoneNumber: `+86${m}`, Fee: 1, SessionContext: "", Code: "Ok", Message: "send success", IsoCode: "CN" }], RequestId: crypto.randomUUID() } }),
    auth: () => json({ Response: { Error: { Code: "AuthFailure.SignatureFailure", Message: "The provided credentials could not be validated." }, RequestId: crypto.randomUUID() } }),
    biz: () => json({ Response: { SendStatusSet: [{ SerialNo: "", PhoneNumber: "", Fee: 0, SessionContext: "", Code: "LimitExceeded.PhoneNumberDailyLimit", Message: "单个手机号日下发短信条数超过设定的上限", IsoCode: "CN" }], RequestId: crypto.randomUUID() } }),
  },
  baidu: {
    ok: (m) => json({ requestId: crypto.randomUUID(), code: "1000", message: "成功", data: [{ code: "1000", message: "成功", mobile: m, messageId: `${crypto.randomUUID()}_${m}` }] }),
    auth: () => json({ requestId: crypto.randomUUID(), code: "6002", message: "用户认证失败" }, 401),
    biz: () => json({ requestId: crypto.randomUUID(), code: "1000", message: "成功", data: [{ code: "6006", message: "账号签名不可用", mobile: "", messageId: "" }] }),
  },
  huawei: {
    ok: (m) => json({ code: "000000", description: "Success", result: [{ smsMsgId: `${crypto.randomUUID()}_1`, from: CREDS.huawei.sender, originTo: `+86${m}`, status: "000000", createTime: new Date().toISOString() }] }),
    auth: () => json({ code: "E000004", description: "Authentication failed." }, 401),
    biz: () => json({ code: "E000510", description: "The SMS fails to be sent." }),
  },
  haomas: {
    ok: () => json({ code: 0, message: "ok", data: { message_id: crypto.randomUUID() } }),
    auth: () => json({ code: 40101, message: "签名校验失败" }, 401),
    biz: () => json({ code: 40301, message: "余额不足" }),
  },
};

const PATHS: Record<ProviderKey, string> = { aliyun: "/", tencent: "/", baidu: "/api/v3/sendSms", huawei: "/sms/batchSendSms/v1", haomas: "/sms/send" };

export interface StandIn {
  /** endpoint setting per provider (haomas: the full send URL) */
  endpoints: Record<ProviderKey, string>;
  requests: Recorded[];
  lastCode(mobile: string): string | undefined;
  /** the next n requests to this provider answer with its business error */
  failNext(provider: ProviderKey, n?: number): void;
  /** the next request waits this long before answering */
  delayNext(ms: number): void;
  stop(): void;
}

export function startSmsStandIn(): StandIn {
  const requests: Recorded[] = [];
  const fails: Partial<Record<ProviderKey, number>> = {};
  let delay = 0;
  const servers = (Object.keys(PATHS) as ProviderKey[]).map((provider) => {
    const server = Bun.serve({
      port: 0, hostname: "127.0.0.1",
      async fetch(req) {
        const body = await req.text();
        if (req.method !== "POST" || new URL(req.url).pathname !== PATHS[provider]) return new Response("not found", { status: 404 });
        if (delay) await Bun.sleep(delay), (delay = 0);
        let c: Check;
        try {
          c = provider === "aliyun" ? aliyun(body) : provider === "tencent" ? tencent(req, body) : provider === "baidu" ? baidu(req, body) : provider === "huawei" ? huawei(req, body) : haomas(body);
        } catch (err) {
          c = { mobile: "", code: "", problems: [`unparseable: ${(err as Error).message}`] };
        }
        requests.push({ provider, mobile: c.mobile, code: c.code, verified: !c.problems.length, problems: c.problems, headers: Object.fromEntries(req.headers), body });
        if (c.problems.length) return REPLIES[provider].auth();
        if (fails[provider]) return fails[provider]!--, REPLIES[provider].biz();
        return REPLIES[provider].ok(c.mobile);
      },
    });
    return [provider, server] as const;
  });
  const base = (p: ProviderKey) => `http://127.0.0.1:${servers.find(([k]) => k === p)![1].port}`;
  return {
    endpoints: { aliyun: base("aliyun"), tencent: base("tencent"), baidu: base("baidu"), huawei: base("huawei"), haomas: `${base("haomas")}/sms/send` },
    requests,
    lastCode: (mobile) => requests.findLast((r) => r.mobile === mobile && r.verified)?.code,
    failNext: (p, n = 1) => void (fails[p] = n),
    delayNext: (ms) => void (delay = ms),
    stop: () => servers.forEach(([, s]) => s.stop(true)),
  };
}

/** Config items (PUT /api/v1/config or updateConfig) that point the site at one stand-in provider. */
export function smsConfigFor(provider: ProviderKey, s: StandIn, extra: Record<string, string | number | boolean> = {}) {
  const v: Record<string, string | number | boolean> = {
    enable: true, provider: PROVIDER_NAME[provider], sign_name: SIGN,
    template_register: TEMPLATE, template_login: TEMPLATE, template_find_password: TEMPLATE,
    aliyun_access_key_id: CREDS.aliyun.id, aliyun_access_key_secret: CREDS.aliyun.secret, aliyun_endpoint: s.endpoints.aliyun,
    tencent_secret_id: CREDS.tencent.id, tencent_secret_key: CREDS.tencent.secret, tencent_sdk_app_id: CREDS.tencent.appId, tencent_endpoint: s.endpoints.tencent,
    baidu_access_key: CREDS.baidu.id, baidu_secret_key: CREDS.baidu.secret, baidu_endpoint: s.endpoints.baidu,
    huawei_app_key: CREDS.huawei.id, huawei_app_secret: CREDS.huawei.secret, huawei_sender: CREDS.huawei.sender, huawei_endpoint: s.endpoints.huawei,
    haomas_app_key: CREDS.haomas.id, haomas_app_secret: CREDS.haomas.secret, haomas_endpoint: s.endpoints.haomas,
    ...extra,
  };
  return Object.entries(v).map(([name, value]) => ({ category: "sms", name, value }));
}
