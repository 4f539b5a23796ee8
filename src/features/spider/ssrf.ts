import { lookup } from "node:dns/promises";
import { isIP } from "node:net";

// The spider fetches addresses an administrator typed and links other sites chose. Without these
// checks it could be pointed at the server's own services (loopback, the LAN, a cloud's metadata
// endpoint at 169.254.169.254) by a URL, by a DNS name resolving there, or by a redirect.

/** Why an address or URL is refused; the message is shown to the administrator as is. */
export class SsrfError extends Error {}

type V4 = [number, number, number, number];

function parseV4(s: string): V4 | null {
  const parts = s.split(".");
  if (parts.length !== 4) return null;
  const n = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : NaN));
  return n.every((x) => x >= 0 && x <= 255) ? (n as V4) : null;
}

const inV4 = (a: V4, base: V4, bits: number) => {
  const num = (x: V4) => ((x[0] << 24) | (x[1] << 16) | (x[2] << 8) | x[3]) >>> 0;
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return ((num(a) & mask) >>> 0) === ((num(base) & mask) >>> 0);
};

// Not routable on the public internet, or reaching something of ours (RFC 6890 special-purpose).
// `hard` ranges stay refused even when the setting allows private addresses: no site a spider
// should read lives on a link-local address (the cloud metadata service does), "this host" or
// a multicast group.
const V4_BLOCKED: [V4, number, string, boolean][] = [
  [[0, 0, 0, 0], 8, "本机地址（0.0.0.0/8）", true],
  [[10, 0, 0, 0], 8, "内网地址（10.0.0.0/8）", false],
  [[100, 64, 0, 0], 10, "运营商级 NAT 地址（100.64.0.0/10）", false],
  [[127, 0, 0, 0], 8, "本机回环地址（127.0.0.0/8）", false],
  [[169, 254, 0, 0], 16, "链路本地地址（169.254.0.0/16，含云服务器元数据地址）", true],
  [[172, 16, 0, 0], 12, "内网地址（172.16.0.0/12）", false],
  [[192, 0, 0, 0], 24, "保留地址（192.0.0.0/24）", false],
  [[192, 0, 2, 0], 24, "文档示例地址（192.0.2.0/24）", false],
  [[192, 88, 99, 0], 24, "6to4 中继地址（192.88.99.0/24）", false],
  [[192, 168, 0, 0], 16, "内网地址（192.168.0.0/16）", false],
  [[198, 18, 0, 0], 15, "测试网络地址（198.18.0.0/15）", false],
  [[198, 51, 100, 0], 24, "文档示例地址（198.51.100.0/24）", false],
  [[203, 0, 113, 0], 24, "文档示例地址（203.0.113.0/24）", false],
  [[224, 0, 0, 0], 4, "组播地址（224.0.0.0/4）", true],
  [[240, 0, 0, 0], 4, "保留地址（240.0.0.0/4）", true],
];

/** Why an address is refused; `hard` refusals hold even when private addresses are allowed. */
export interface Refusal { why: string; hard: boolean }

function v4Reason(a: V4): Refusal | null {
  for (const [base, bits, why, hard] of V4_BLOCKED) if (inV4(a, base, bits)) return { why, hard };
  return null;
}

/** The eight 16-bit groups of an IPv6 address (zone id dropped, embedded dotted IPv4 allowed). */
function parseV6(s: string): number[] | null {
  let t = s.replace(/^\[|\]$/g, "").split("%")[0]!.toLowerCase();
  if (isIP(t) !== 6) return null;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(t);
  if (dotted) {
    const v4 = parseV4(dotted[1]!);
    if (!v4) return null;
    t = t.slice(0, -dotted[1]!.length) + `${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  const [head, tail] = t.includes("::") ? t.split("::") as [string, string] : [t, null];
  const h = head ? head.split(":") : [];
  const tl = tail === null ? [] : tail ? tail.split(":") : [];
  const fill = tail === null ? 0 : 8 - h.length - tl.length;
  const groups = [...h, ...Array(fill).fill("0"), ...tl].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : null;
}

const v4Of = (hi: number, lo: number): V4 => [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff];

const soft = (why: string): Refusal => ({ why, hard: false });
const hard = (why: string): Refusal => ({ why, hard: true });
const via = (prefix: string, r: Refusal | null): Refusal | null => (r ? { why: `${prefix}指向${r.why}`, hard: r.hard } : null);

function v6Reason(g: number[]): Refusal | null {
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zero(0, 8)) return hard("未指定地址（::）");
  if (zero(0, 7) && g[7] === 1) return soft("本机回环地址（::1）");
  const embedded = v4Reason(v4Of(g[6]!, g[7]!));
  // IPv4-mapped (::ffff:a.b.c.d) and the old IPv4-compatible form (::a.b.c.d) reach the IPv4 address.
  if (zero(0, 5) && g[5] === 0xffff) return via("IPv4 映射地址", embedded);
  if (zero(0, 6)) return via("IPv4 兼容地址", embedded) ?? soft("IPv4 兼容地址（已废弃）");
  // NAT64 (64:ff9b::/96): the gateway connects to the embedded IPv4 address.
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return via("NAT64 地址", embedded);
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return soft("本地 NAT64 地址（64:ff9b:1::/48）");
  // 6to4 (2002::/16) carries an IPv4 address in bits 16–48.
  if (g[0] === 0x2002) {
    const r = via("6to4 地址", v4Reason(v4Of(g[1]!, g[2]!)));
    if (r) return r;
  }
  if (g[0] === 0x2001 && g[1] === 0) return soft("Teredo 隧道地址（2001::/32）");
  if (g[0] === 0x2001 && g[1] === 0xdb8) return soft("文档示例地址（2001:db8::/32）");
  if (g[0] === 0x100 && zero(1, 4)) return soft("丢弃地址（100::/64）");
  if ((g[0]! & 0xfe00) === 0xfc00) return soft("内网地址（fc00::/7）");
  if ((g[0]! & 0xffc0) === 0xfe80) return hard("链路本地地址（fe80::/10）");
  if ((g[0]! & 0xffc0) === 0xfec0) return soft("站点本地地址（fec0::/10）");
  if ((g[0]! & 0xff00) === 0xff00) return hard("组播地址（ff00::/8）");
  return null;
}

/**
 * Why connecting to this literal IP address is refused, or null when it is a public address.
 * Anything that is not a plain IPv4 or IPv6 address is refused too.
 */
export function addressRefusal(ip: string): Refusal | null {
  const v4 = parseV4(ip);
  if (v4) return v4Reason(v4);
  const v6 = parseV6(ip);
  if (v6) return v6Reason(v6);
  return hard("无法识别的 IP 地址");
}

export const isPublicAddress = (ip: string) => addressRefusal(ip) === null;

/** Resolves a host name to its addresses; tests inject their own (e.g. one answering 10.0.0.1). */
export type Resolver = (host: string) => Promise<string[]>;

export const systemResolver: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * A URL the spider may request: http or https only, no credentials. WHATWG parsing has already
 * turned decimal, octal and hex IPv4 forms (http://2130706433/, http://0x7f.1/) into dotted ones.
 */
export function checkUrl(raw: string | URL): URL {
  let u: URL;
  try {
    u = typeof raw === "string" ? new URL(raw) : raw;
  } catch {
    throw new SsrfError("网址格式不正确");
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new SsrfError(`只支持 http 和 https 网址，不支持 ${u.protocol.replace(/:$/, "")}`);
  if (u.username || u.password) throw new SsrfError("网址中不能包含用户名或密码");
  if (!u.hostname) throw new SsrfError("网址缺少主机名");
  return u;
}

export interface Pinned {
  url: URL;
  /** the checked address the connection must go to (no second lookup that could answer otherwise) */
  address: string;
}

/**
 * Checks a URL and resolves its host once: every address the name resolves to must be public
 * (unless `allowPrivate`), since a resolver may answer a public and a private address together.
 * Answers the address to connect to.
 */
export async function resolveChecked(raw: string | URL, opts: { allowPrivate: boolean; resolver?: Resolver }): Promise<Pinned> {
  const url = checkUrl(raw);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    if (host === "localhost" || host.endsWith(".localhost")) {
      if (!opts.allowPrivate) throw new SsrfError(`不允许访问本机地址（${host}）`);
    }
    try {
      addresses = await (opts.resolver ?? systemResolver)(host);
    } catch {
      throw new SsrfError(`无法解析域名 ${host}`);
    }
    if (!addresses.length) throw new SsrfError(`无法解析域名 ${host}`);
  }
  for (const a of addresses) {
    const r = addressRefusal(a);
    if (r && (r.hard || !opts.allowPrivate)) throw new SsrfError(isIP(host) ? `不允许访问${r.why}：${a}` : `域名 ${host} 解析到${r.why}：${a}，已拒绝`);
  }
  return { url, address: addresses[0]! };
}
