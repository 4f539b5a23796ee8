// Article markdown → HTML on the server: GFM through marked, raw HTML shown as text, headings
// with anchors collected into a table of contents, code coloured, math through temml with the
// chat's delimiters. The HTML then passes the allow-list sanitiser, which also decides links (other
// sites get nofollow noopener) and images (only the site's article attachments); render.ts caches.
import { Marked, Renderer, type Tokens, type Token } from "marked";
import temml from "temml";
import { BLOCK_MATH, INLINE_MATH } from "#islands/chat/markdown.ts";
import { highlightCode } from "./codeHighlight.ts";
import { ARTICLE_IMAGE, sanitizeHtml } from "./sanitize.ts";

const ESC: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESC[c]!);

export interface TocItem { level: number; id: string; text: string }
export interface Rendered { html: string; toc: TocItem[] }

// One render's state: marked renders synchronously, so module state set around a parse is safe.
let toc: TocItem[] = [];
let slugs = new Map<string, number>();

const textOf = (html: string) => html.replace(/<[^>]*>/g, "").replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (m, e: string) => {
  const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" };
  if (named[e]) return named[e]!;
  if (e[0] === "#") return String.fromCodePoint(e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
  return m;
});

/** A heading's id: its words joined by "-", prefixed so no id can shadow a page global; repeats get -2, -3… */
function slug(text: string): string {
  const base = `h-${text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-+|-+$/g, "").slice(0, 60) || "section"}`;
  const n = (slugs.get(base) ?? 0) + 1;
  slugs.set(base, n);
  return n === 1 ? base : `${base}-${n}`;
}

function mathHtml(tex: string, display: boolean, raw: string, block: boolean): string {
  const tag = block ? "div" : "span";
  try {
    const mathml = temml.renderToString(tex.trim(), { displayMode: display, throwOnError: true, trust: false, maxExpand: 500 });
    return `<${tag} class="${display ? "math math-display" : "math"}">${mathml}</${tag}>`;
  } catch {
    return `<${tag} class="math-tex">${escapeHtml(raw)}</${tag}>`;
  }
}

type MathToken = Tokens.Generic & { tex: string; display: boolean };

const mathExtensions = [
  {
    name: "mathBlock", level: "block" as const,
    tokenizer(src: string) {
      const m = BLOCK_MATH.exec(src);
      if (m) return { type: "mathBlock", raw: m[0], tex: m[1] ?? m[2] ?? "", display: true };
    },
    renderer: (t: Tokens.Generic) => mathHtml((t as MathToken).tex, true, t.raw.trim(), true),
  },
  {
    name: "math", level: "inline" as const,
    start: (src: string) => {
      const i = src.search(/\$|\\[(\[]/);
      return i < 0 ? undefined : i;
    },
    tokenizer(src: string) {
      for (const [re, display] of INLINE_MATH) {
        const m = re.exec(src);
        if (m) return { type: "math", raw: m[0], tex: m[1]!, display };
      }
    },
    renderer: (t: Tokens.Generic) => mathHtml((t as MathToken).tex, (t as MathToken).display, t.raw, false),
  },
];

const md = new Marked({
  gfm: true,
  breaks: true,
  extensions: mathExtensions,
  renderer: {
    // Raw HTML in an article is shown as text, never parsed.
    html: ({ text, block }: Tokens.HTML | Tokens.Tag) => (block ? `<p>${escapeHtml(text)}</p>` : escapeHtml(text)),
    heading({ tokens, depth }) {
      const inner = this.parser.parseInline(tokens);
      const text = textOf(inner).trim();
      const id = slug(text);
      // The page's title is the h1: markdown "#" is h2.
      const level = Math.min(6, depth + 1);
      if (depth <= 3 && text) toc.push({ level: depth, id, text });
      return `<h${level} id="${id}">${inner}<a class="heading-anchor" href="#${id}" title="本节链接">#</a></h${level}>\n`;
    },
    // URLs, rel/target and which images may show are the sanitiser's call: one rule for both walls.
    link({ href, title, tokens }) {
      return `<a href="${escapeHtml(href)}"${title ? ` title="${escapeHtml(title)}"` : ""}>${this.parser.parseInline(tokens)}</a>`;
    },
    image({ href, title, text }) {
      return `<img src="${escapeHtml(href)}" alt="${escapeHtml(text)}"${title ? ` title="${escapeHtml(title)}"` : ""}>`;
    },
    code({ text, lang }) {
      const language = (lang ?? "").trim().split(/\s+/)[0]!.toLowerCase().replace(/[^a-z0-9#+_-]/g, "").slice(0, 20);
      const cls = language ? ` class="language-${language.replace(/[#+]/g, (c) => (c === "#" ? "sharp" : "plus"))}"` : "";
      return `<pre><code${cls}>${highlightCode(text, language)}</code></pre>\n`;
    },
    table(token) {
      return `<div class="md-table">${Renderer.prototype.table.call(this, token)}</div>`;
    },
  },
});

/** Every image path the markdown asks for (render.ts checks them against the attachments). */
export function imagePaths(markdown: string): string[] {
  const out = new Set<string>();
  md.walkTokens(md.lexer(markdown ?? ""), (t) => {
    if (t.type !== "image") return;
    const src = (t as Tokens.Image).href.trim();
    if (ARTICLE_IMAGE.test(src)) out.add(src);
  });
  return [...out];
}

/** Markdown → sanitised HTML and the table of contents; `allowedImages` are the paths that may show. */
export function renderMarkdown(markdown: string, allowedImages: ReadonlySet<string> = new Set()): Rendered {
  toc = [];
  slugs = new Map();
  try {
    const html = md.parse(markdown ?? "", { async: false }) as string;
    return { html: sanitizeHtml(html, allowedImages), toc };
  } finally {
    toc = [];
    slugs = new Map();
  }
}

/**
 * The words of the markdown without its syntax: for the search index and keywords. `prose` keeps
 * only what reads as running text (a summary): no headings, code blocks, display math or images.
 */
export function markdownText(markdown: string, prose = false): string {
  const parts: string[] = [];
  const walk = (tokens: Token[]) => {
    for (const t of tokens) {
      const x = t as Tokens.Generic;
      if (prose && (x.type === "heading" || x.type === "code" || x.type === "mathBlock" || x.type === "image" || x.type === "hr")) continue;
      if (x.type === "math" || x.type === "mathBlock") parts.push((x as MathToken).tex);
      else if (x.type === "image") parts.push((x as Tokens.Image).text);
      else if (x.type === "code" || x.type === "codespan" || x.type === "html") parts.push(x.text ?? "");
      else if (x.type === "list") walk((x as Tokens.List).items.flatMap((it) => it.tokens));
      else if (x.type === "table") {
        const tb = x as Tokens.Table;
        walk([...tb.header.flatMap((c) => c.tokens), ...tb.rows.flat().flatMap((c) => c.tokens)]);
      } else if (x.tokens?.length) walk(x.tokens);
      else if (x.type === "text" || x.type === "escape") parts.push(x.text ?? "");
      if (x.type === "heading" || x.type === "paragraph" || x.type === "code" || x.type === "mathBlock" || x.type === "list_item") parts.push("\n");
    }
  };
  walk(md.lexer(markdown ?? ""));
  return parts.join(" ").replace(/[ \t]+/g, " ").replace(/ ?\n ?/g, "\n").replace(/\n{2,}/g, "\n").trim();
}
