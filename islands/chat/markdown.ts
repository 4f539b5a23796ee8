// Answer markdown → safe HTML, shared by the chat islands and the server views (same output on
// both sides, so history rendered on the server and answers streamed in the browser look alike).
// Raw HTML is shown as text, links keep only http(s)/relative targets, images only same-site
// paths; [n] citations become links to the cited page; math goes through an optional renderer
// (temml on the server; loaded lazily in the browser) and otherwise shows as its TeX source.
import { Marked, Renderer, type Tokens } from "marked";

export interface CiteRef { title: string; uuid: string; page: number; score?: number }
/** TeX → MathML (or throws); `display` for $$…$$ and \[…\]. */
export type MathRenderer = (tex: string, display: boolean) => string;

const ESC: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => ESC[ch]!);

/** Where reference n points: the reader at that page. */
export const refHref = (r: CiteRef) => `/document/${encodeURIComponent(r.uuid)}?page=${Math.max(1, Math.floor(r.page) || 1)}`;
export const refLabel = (r: CiteRef) => `《${r.title}》第 ${r.page} 页`;

/** Does this text contain math in any supported delimiter? (decides whether to load temml) */
export const hasMath = (md: string) => /\$\$[\s\S]+?\$\$|\\\([\s\S]+?\\\)|\\\[[\s\S]+?\\\]|\$(?!\s)[^$\n]+?(?<!\s)\$(?!\d)/.test(md);

/** An href the answer may link to: http(s), or a path on this site; anything else is dropped. */
export function safeHref(raw: string): string | null {
  const decoded = raw.replace(/&#(x[0-9a-f]+|\d+);?/gi, (_, n: string) => String.fromCodePoint(n[0] === "x" || n[0] === "X" ? parseInt(n.slice(1), 16) : Number(n)))
    .replace(/&colon;/gi, ":").replace(/[\u0000-\u0020\u007f-\u009f]/g, "");
  if (!decoded) return null;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(decoded);
  if (scheme) return /^https?$/i.test(scheme[1]!) ? raw.trim() : null;
  if (decoded.startsWith("\\") || decoded.startsWith("/\\")) return null;
  return raw.trim();
}

// The current render's references and math renderer: marked renders synchronously, so module
// state set around one parse call is safe.
let refs: CiteRef[] = [];
let math: MathRenderer | undefined;

function citeHtml(n: number): string {
  const r = refs[n - 1];
  if (!r) return `[${n}]`;
  return `<a class="chat-cite" href="${escapeHtml(refHref(r))}" title="${escapeHtml(refLabel(r))}">[${n}]</a>`;
}

function mathHtml(tex: string, display: boolean, raw: string, block: boolean): string {
  const tag = block ? "div" : "span";
  if (math) {
    try {
      return `<${tag} class="${display ? "math math-display" : "math"}">${math(tex.trim(), display)}</${tag}>`;
    } catch {}
  }
  return `<${tag} class="math-tex">${escapeHtml(raw)}</${tag}>`;
}

type MathToken = Tokens.Generic & { tex: string; display: boolean };
// Exported so articles (features/articles/markdown.ts) accept exactly the delimiters the chat does.
export const INLINE_MATH: [RegExp, boolean][] = [
  [/^\$\$([\s\S]+?)\$\$/, true],
  [/^\\\[([\s\S]+?)\\\]/, true],
  [/^\\\(([\s\S]+?)\\\)/, false],
  [/^\$(?!\s)((?:\\.|[^\\$\n])+?)(?<!\s)\$(?!\d)/, false],
];
export const BLOCK_MATH = /^ {0,3}(?:\$\$([\s\S]+?)\$\$|\\\[([\s\S]+?)\\\])[ \t]*(?:\n+|$)/;
const CITE = /^(?:\[(\d{1,3}(?:\s*[,，、]\s*\d{1,3})*)\]|【(\d{1,3}(?:\s*[,，、]\s*\d{1,3})*)】)(?!\()/;

const md = new Marked({
  gfm: true,
  breaks: true,
  extensions: [
    {
      name: "mathBlock", level: "block",
      tokenizer(src) {
        const m = BLOCK_MATH.exec(src);
        if (m) return { type: "mathBlock", raw: m[0], tex: m[1] ?? m[2] ?? "", display: true };
      },
      renderer: (t) => mathHtml((t as MathToken).tex, true, t.raw.trim(), true),
    },
    {
      name: "math", level: "inline",
      start: (src) => {
        const i = src.search(/\$|\\[(\[]/);
        return i < 0 ? undefined : i;
      },
      tokenizer(src) {
        for (const [re, display] of INLINE_MATH) {
          const m = re.exec(src);
          if (m) return { type: "math", raw: m[0], tex: m[1]!, display };
        }
      },
      renderer: (t) => mathHtml((t as MathToken).tex, (t as MathToken).display, t.raw, false),
    },
    {
      name: "cite", level: "inline",
      start: (src) => {
        const i = src.search(/\[\d|【\d/);
        return i < 0 ? undefined : i;
      },
      tokenizer(src) {
        const m = CITE.exec(src);
        if (m) return { type: "cite", raw: m[0], nums: (m[1] ?? m[2]!).split(/\s*[,，、]\s*/).map(Number) };
      },
      renderer: (t) => (t.nums as number[]).map(citeHtml).join(""),
    },
  ],
  renderer: {
    // Raw HTML from the model is shown as text, never parsed.
    html: ({ text, block }: Tokens.HTML | Tokens.Tag) => (block ? `<p>${escapeHtml(text)}</p>` : escapeHtml(text)),
    heading({ tokens, depth }) {
      const level = Math.min(6, depth + 2);
      return `<h${level}>${this.parser.parseInline(tokens)}</h${level}>\n`;
    },
    link({ href, title, tokens }) {
      const text = this.parser.parseInline(tokens);
      const safe = safeHref(href);
      if (!safe) return text;
      const external = /^https?:/i.test(safe);
      return `<a href="${escapeHtml(safe)}"${title ? ` title="${escapeHtml(title)}"` : ""}${external ? ' target="_blank" rel="noopener noreferrer nofollow"' : ""}>${text}</a>`;
    },
    // Images: only same-site paths (a model could otherwise make the browser call any server).
    image({ href, text }) {
      if (!/^\/(?!\/|\\)/.test(href) || !safeHref(href)) return escapeHtml(text);
      return `<img src="${escapeHtml(href)}" alt="${escapeHtml(text)}" loading="lazy">`;
    },
    table(token) {
      return `<div class="md-table">${Renderer.prototype.table.call(this, token)}</div>`;
    },
  },
});

/** Markdown of an answer → HTML safe to put in the page. */
export function renderMarkdown(text: string, references: CiteRef[] = [], mathRenderer?: MathRenderer): string {
  refs = references;
  math = mathRenderer;
  try {
    return md.parse(text ?? "", { async: false }) as string;
  } finally {
    refs = [];
    math = undefined;
  }
}
