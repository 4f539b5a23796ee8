// The one markdown lexer shared by the Word and image exports: marked plus the syntax an AI answer
// uses that CommonMark lacks — TeX math, `[^n]` footnotes with their `[^n]: text` definitions, and
// numbered citations `[1]` / `[1, 2]` of the answer's references.
import { Marked, type Token, type TokenizerExtension, type Tokens } from "marked";

export type MathToken = { type: "math"; raw: string; tex: string; display: boolean };
export type FootnoteRefToken = { type: "footnoteRef"; raw: string; label: string };
export type FootnoteDefToken = { type: "footnoteDef"; raw: string; label: string; tokens: Token[] };
export type CitationToken = { type: "citation"; raw: string; numbers: number[] };

const blockMath: TokenizerExtension = {
  name: "blockMath",
  level: "block",
  start: (src) => src.match(/^ {0,3}(?:\$\$|\\\[)/m)?.index,
  tokenizer(src) {
    const m = /^ {0,3}(?:\$\$([\s\S]+?)\$\$|\\\[([\s\S]+?)\\\])[ \t]*(?:\n+|$)/.exec(src);
    if (!m) return undefined;
    return { type: "math", raw: m[0], tex: (m[1] ?? m[2] ?? "").trim(), display: true };
  },
};

// `$x$` follows pandoc's rule: no space just inside the dollars, no digit right after the closing one,
// so "花了 $5 和 $10" stays text.
const INLINE_MATH = [
  { re: /^\$\$((?:\\[\s\S]|[^\\$])+?)\$\$/, display: true },
  { re: /^\\\[([\s\S]+?)\\\]/, display: true },
  { re: /^\\\(([\s\S]+?)\\\)/, display: false },
  { re: /^\$(?![\s$])((?:\\[^\n]|[^\\$\n])*?[^\\\s$])\$(?!\d)/, display: false },
];

const inlineMath: TokenizerExtension = {
  name: "inlineMath",
  level: "inline",
  start: (src) => {
    const i = src.search(/\$|\\[([]/);
    return i < 0 ? undefined : i;
  },
  tokenizer(src) {
    for (const { re, display } of INLINE_MATH) {
      const m = re.exec(src);
      if (m) return { type: "math", raw: m[0], tex: m[1]!.trim(), display };
    }
    return undefined;
  },
};

const footnoteDef: TokenizerExtension = {
  name: "footnoteDef",
  level: "block",
  start: (src) => src.match(/^ {0,3}\[\^[^\]\s]+\]:/m)?.index,
  tokenizer(src) {
    const m = /^ {0,3}\[\^([^\]\s]+)\]:[ \t]*([^\n]*(?:\n(?:[ \t]+)[^\n]*)*)(?:\n+|$)/.exec(src);
    if (!m) return undefined;
    const token: FootnoteDefToken = { type: "footnoteDef", raw: m[0], label: m[1]!, tokens: [] };
    this.lexer.inline(m[2]!.replace(/\n[ \t]+/g, " ").trim(), token.tokens);
    return token as unknown as Tokens.Generic;
  },
};

const footnoteRef: TokenizerExtension = {
  name: "footnoteRef",
  level: "inline",
  start: (src) => {
    const i = src.indexOf("[^");
    return i < 0 ? undefined : i;
  },
  tokenizer(src) {
    const m = /^\[\^([^\]\s]+)\]/.exec(src);
    return m ? { type: "footnoteRef", raw: m[0], label: m[1]! } : undefined;
  },
};

// `[1]` not followed by `(` (a link) and not a reference-style link the author defined.
const citation: TokenizerExtension = {
  name: "citation",
  level: "inline",
  start: (src) => {
    const i = src.search(/\[\d/);
    return i < 0 ? undefined : i;
  },
  tokenizer(src) {
    const m = /^\[(\d{1,3}(?:[ \t]*[,，、][ \t]*\d{1,3})*)\](?!\()/.exec(src);
    if (!m) return undefined;
    const links = (this.lexer.tokens as { links?: Record<string, unknown> }).links ?? {};
    if (links[m[1]!]) return undefined;
    return { type: "citation", raw: m[0], numbers: m[1]!.split(/[,，、]/).map((s) => Number(s.trim())) };
  },
};

const marked = new Marked({ gfm: true, extensions: [blockMath, footnoteDef, inlineMath, footnoteRef, citation] });

/** Block tokens of a markdown text, with the extension tokens above mixed in. */
export function lexMarkdown(markdown: string): Token[] {
  return marked.lexer(markdown.replace(/\r\n?/g, "\n"));
}

/** Raw HTML is never passed through: tags go, `<br>` becomes a line break, entities are decoded. */
export function stripHtml(html: string): string {
  return decodeEntities(html.replace(/<br\s*\/?>/gi, "\n").replace(/<[^>]*>/g, ""));
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };
export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, e: string) => {
    if (e[0] === "#") {
      const code = e[1] === "x" || e[1] === "X" ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
      return code > 0 && code < 0x110000 ? String.fromCodePoint(code) : all;
    }
    return ENTITIES[e.toLowerCase()] ?? all;
  });
}

/** Soft line breaks inside a paragraph: nothing between two CJK characters, a space otherwise. */
export function softBreaks(text: string): string {
  return text.replace(/([\u2e80-\u9fff\uff00-\uffef])\n(?=[\u2e80-\u9fff\uff00-\uffef])/g, "$1").replace(/\n/g, " ");
}

/** Footnote definitions anywhere in the tree, by label. */
export function collectFootnoteDefs(tokens: Token[], out = new Map<string, Token[]>()): Map<string, Token[]> {
  for (const t of tokens) {
    if (t.type === "footnoteDef") {
      const d = t as unknown as FootnoteDefToken;
      if (!out.has(d.label)) out.set(d.label, d.tokens);
    } else if (t.type === "blockquote") collectFootnoteDefs((t as Tokens.Blockquote).tokens, out);
    else if (t.type === "list") for (const item of (t as Tokens.List).items) collectFootnoteDefs(item.tokens, out);
  }
  return out;
}

/** The first heading's plain text, for a file name. */
export function firstHeading(markdown: string): string | undefined {
  const t = lexMarkdown(markdown).find((x) => x.type === "heading") as Tokens.Heading | undefined;
  return t ? plainText(t.tokens).trim() || undefined : undefined;
}

/** Inline tokens as plain text (math as its TeX, citations as [n]). */
export function plainText(tokens: Token[] | undefined): string {
  let s = "";
  for (const t of tokens ?? []) {
    const any = t as Token & { tokens?: Token[]; text?: string };
    if (t.type === "math") s += (t as unknown as MathToken).tex;
    else if (t.type === "html") s += stripHtml(t.raw);
    else if (t.type === "br") s += "\n";
    else if (any.tokens) s += plainText(any.tokens);
    else if (t.type === "citation" || t.type === "footnoteRef") s += t.raw;
    else if (typeof any.text === "string") s += any.text;
  }
  return s;
}
