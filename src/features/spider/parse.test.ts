import { describe, expect, test } from "bun:test";
import { extractLinks, sameSite, titleOf, urlExt } from "./links.ts";
import { agentToken, allowedBy, parseRobots } from "./robots.ts";

describe("link extraction (htmlparser2)", () => {
  test("resolves relative links against the page and <base>, decodes entities, drops fragments and other schemes", () => {
    const html = `<html><head><base href="/docs/"></head><body>
      <a href="a.pdf">第一份 <b>文档</b></a>
      <A HREF="../b.DOCX#part2" title="备用标题"></A>
      <a href="https://cdn.example.com/c.pdf?x=1&amp;y=2">C</a>
      <a href="javascript:alert(1)">坏链接</a><a href="mailto:a@b.c">邮件</a>
      <a href='<script>'>奇怪</a><!-- <a href="commented.pdf">不算</a> -->
      <script>document.write('<a href="inline.pdf">x</a>')</script>
    </body></html>`;
    const links = extractLinks(html, new URL("https://example.com/index.html"));
    const urls = links.map((l) => l.url.href);
    expect(urls).toContain("https://example.com/docs/a.pdf");
    expect(urls).toContain("https://example.com/b.DOCX");
    expect(urls).toContain("https://cdn.example.com/c.pdf?x=1&y=2");
    expect(urls.some((u) => u.startsWith("javascript:") || u.startsWith("mailto:"))).toBe(false);
    expect(urls.some((u) => u.includes("commented") || u.includes("inline"))).toBe(false);
    expect(links.find((l) => l.url.href.endsWith("a.pdf"))!.text).toBe("第一份 文档");
    expect(titleOf(links.find((l) => l.url.href.endsWith("b.DOCX"))!)).toBe("备用标题");
  });
  test("extensions, titles and same-site", () => {
    expect(urlExt(new URL("https://x.cn/a/%E6%8A%A5%E5%91%8A.PDF?dl=1"))).toBe("pdf");
    expect(urlExt(new URL("https://x.cn/a/"))).toBe("");
    expect(titleOf({ url: new URL("https://x.cn/%E6%8A%A5%E5%91%8A.pdf"), text: "" })).toBe("报告");
    expect(sameSite(new URL("https://www.x.cn/"), new URL("http://x.cn:8080/a"))).toBe(true);
    expect(sameSite(new URL("https://x.cn/"), new URL("https://y.cn/"))).toBe(false);
  });
});

describe("robots.txt", () => {
  const text = `# comment
User-agent: *
Disallow: /private/
Allow: /private/open/
Disallow: /*.xls$

User-agent: WenkuSpider
User-agent: other
Disallow: /no-spider/
Crawl-delay: 2
`;
  test("our own group wins over *; longest rule wins, Allow on a tie; wildcards", () => {
    const ours = parseRobots(text, agentToken("WenkuSpider/1.0 (+https://x)"));
    expect(allowedBy(ours, "/no-spider/a.pdf")).toBe(false);
    expect(allowedBy(ours, "/private/a.pdf")).toBe(true);
    expect(ours.crawlDelayMs).toBe(2000);
    const anyone = parseRobots(text, "somebot");
    expect(allowedBy(anyone, "/private/a.pdf")).toBe(false);
    expect(allowedBy(anyone, "/private/open/a.pdf")).toBe(true);
    expect(allowedBy(anyone, "/data/x.xls")).toBe(false);
    expect(allowedBy(anyone, "/data/x.xlsx")).toBe(true);
    expect(allowedBy(parseRobots("", "x"), "/anything")).toBe(true);
    expect(allowedBy(parseRobots("User-agent: *\nDisallow:\n", "x"), "/anything")).toBe(true);
  });
});

describe("per-host politeness", () => {
  test("requests to one host are spaced by the delay; another host is not held up", async () => {
    const { politeWait } = await import("./fetch.ts");
    const t0 = performance.now();
    await Promise.all([politeWait("a.test:1", 60), politeWait("a.test:1", 60), politeWait("a.test:1", 60)]);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(115);
    const t1 = performance.now();
    await politeWait("b.test:1", 60);
    expect(performance.now() - t1).toBeLessThan(30);
  });
});
