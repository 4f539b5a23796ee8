import { describe, expect, test } from "bun:test";
import { addressRefusal, checkUrl, resolveChecked, SsrfError, type Resolver } from "./ssrf.ts";

const refused = (ip: string) => addressRefusal(ip) !== null;
const fixed = (answers: Record<string, string[]>): Resolver => async (host) => {
  const a = answers[host];
  if (!a) throw new Error("ENOTFOUND");
  return a;
};

describe("address checks", () => {
  test("IPv4 private, loopback, CGNAT, link-local, metadata, this-host, multicast are refused", () => {
    for (const ip of ["127.0.0.1", "127.8.9.10", "10.0.0.1", "10.255.255.255", "172.16.0.1", "172.31.255.254", "192.168.1.1", "100.64.0.1",
      "100.127.255.255", "169.254.169.254", "169.254.0.1", "0.0.0.0", "0.1.2.3", "224.0.0.1", "239.255.255.250", "255.255.255.255", "198.18.0.1"]) {
      expect(refused(ip), ip).toBe(true);
    }
  });
  test("public IPv4 and the edges of the private ranges are allowed", () => {
    for (const ip of ["8.8.8.8", "1.1.1.1", "172.15.255.255", "172.32.0.1", "100.63.255.255", "100.128.0.1", "11.0.0.1", "192.169.0.1", "223.255.255.255"]) {
      expect(refused(ip), ip).toBe(false);
    }
  });
  test("IPv6 loopback, unique-local, link-local, multicast, unspecified are refused", () => {
    for (const ip of ["::1", "::", "fc00::1", "fd12:3456::1", "fe80::1", "fe80::1%eth0", "febf::1", "ff02::1", "[::1]", "0:0:0:0:0:0:0:1"]) {
      expect(refused(ip), ip).toBe(true);
    }
    for (const ip of ["2606:4700::1111", "2400:3200::1", "2001:4860:4860::8888"]) expect(refused(ip), ip).toBe(false);
  });
  test("IPv4-mapped, IPv4-compatible, NAT64 and 6to4 forms are judged by the IPv4 address inside", () => {
    for (const ip of ["::ffff:127.0.0.1", "::ffff:7f00:1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::ffff:a9fe:a9fe", "::127.0.0.1",
      "64:ff9b::127.0.0.1", "64:ff9b::a00:1", "64:ff9b::169.254.169.254", "2002:7f00:1::1", "2002:c0a8:101::1"]) {
      expect(refused(ip), ip).toBe(true);
    }
    expect(refused("::ffff:8.8.8.8")).toBe(false);
    expect(refused("64:ff9b::8.8.8.8")).toBe(false);
    expect(addressRefusal("::ffff:169.254.169.254")!.hard).toBe(true);
  });
  test("metadata and link-local stay refused even when private addresses are allowed; loopback does not", () => {
    expect(addressRefusal("169.254.169.254")!.hard).toBe(true);
    expect(addressRefusal("fe80::1")!.hard).toBe(true);
    expect(addressRefusal("127.0.0.1")!.hard).toBe(false);
    expect(addressRefusal("10.1.2.3")!.hard).toBe(false);
  });
  test("garbage is not an address", () => {
    expect(refused("example.com")).toBe(true);
    expect(refused("1.2.3")).toBe(true);
    expect(refused("999.1.1.1")).toBe(true);
  });
});

describe("URL checks", () => {
  test("only http and https, no credentials", () => {
    for (const u of ["file:///etc/passwd", "ftp://example.com/a.pdf", "gopher://example.com/", "javascript:alert(1)", "data:text/plain,x"]) {
      expect(() => checkUrl(u), u).toThrow(SsrfError);
    }
    expect(() => checkUrl("http://user:pw@example.com/")).toThrow("用户名或密码");
    expect(() => checkUrl("not a url")).toThrow("网址格式不正确");
    expect(checkUrl("https://example.com/a.pdf").hostname).toBe("example.com");
  });
  test("decimal, octal and hex IPv4 forms are normalised and refused", async () => {
    for (const u of ["http://2130706433/", "http://0x7f000001/", "http://017700000001/", "http://0x7f.1/", "http://127.1/", "http://0177.0.0.1/",
      "http://3232235777/", "http://0xa9fea9fe/", "http://[::ffff:127.0.0.1]/", "http://[::1]:8080/", "http://[fe80::1]/"]) {
      await expect(resolveChecked(u, { allowPrivate: false, resolver: fixed({}) }), u).rejects.toThrow(SsrfError);
    }
  });
  test("a name that resolves to a private address is refused, also when only one of its answers is private", async () => {
    const resolver = fixed({ "evil.example": ["10.0.0.7"], "mixed.example": ["93.184.216.34", "127.0.0.1"], "meta.example": ["169.254.169.254"], "good.example": ["93.184.216.34"], "v6.example": ["::ffff:192.168.0.1"] });
    await expect(resolveChecked("http://evil.example/a.pdf", { allowPrivate: false, resolver })).rejects.toThrow("解析到内网地址");
    await expect(resolveChecked("http://mixed.example/", { allowPrivate: false, resolver })).rejects.toThrow("127.0.0.1");
    await expect(resolveChecked("http://v6.example/", { allowPrivate: false, resolver })).rejects.toThrow("IPv4 映射地址");
    await expect(resolveChecked("http://meta.example/", { allowPrivate: true, resolver })).rejects.toThrow("元数据");
    await expect(resolveChecked("http://nowhere.example/", { allowPrivate: false, resolver })).rejects.toThrow("无法解析域名");
    await expect(resolveChecked("http://localhost:8080/", { allowPrivate: false, resolver })).rejects.toThrow("本机地址");
    const ok = await resolveChecked("http://good.example/x", { allowPrivate: false, resolver });
    expect(ok.address).toBe("93.184.216.34");
  });
  test("with private addresses allowed, loopback passes (the tests' own site)", async () => {
    const ok = await resolveChecked("http://127.0.0.1:9/x", { allowPrivate: true });
    expect(ok.address).toBe("127.0.0.1");
    await expect(resolveChecked("http://127.0.0.1:9/x", { allowPrivate: false })).rejects.toThrow("本机回环地址");
  });
});
