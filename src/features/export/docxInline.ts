// Inline markdown tokens → docx runs: emphasis, code, links, equations, footnotes and citations.
import { ExternalHyperlink, FootnoteReferenceRun, Paragraph, ShadingType, TextRun, type ParagraphChild } from "docx";
import type { Token, Tokens } from "marked";
import { mathComponent } from "./docxMath.ts";
import { type CitationToken, decodeEntities, type FootnoteRefToken, type MathToken, softBreaks, stripHtml } from "./markdown.ts";

export interface Reference {
  title: string;
  uuid: string;
  page: number;
}

export interface DocxCtx {
  /** `[^label]: …` definitions of the markdown */
  defs: Map<string, Token[]>;
  references: Reference[];
  siteUrl?: string;
  /** the document's footnotes by id, filled while walking */
  footnotes: Record<number, { children: Paragraph[] }>;
  nextFootnoteId: number;
  /** Word has no footnotes inside footnotes: references there stay text */
  inFootnote?: boolean;
}

export interface Fmt {
  bold?: boolean;
  italics?: boolean;
  strike?: boolean;
  link?: boolean;
}

export const MONO = { ascii: "Consolas", hAnsi: "Consolas", cs: "Consolas" };
export const CODE_SHADING = { type: ShadingType.CLEAR, color: "auto", fill: "F2F2F2" };

export function run(text: string, fmt: Fmt = {}): TextRun {
  return new TextRun({ text, bold: fmt.bold, italics: fmt.italics, strike: fmt.strike, style: fmt.link ? "Hyperlink" : undefined });
}

const mono = (text: string, fmt: Fmt = {}) =>
  new TextRun({ text, font: MONO, shading: CODE_SHADING, bold: fmt.bold, italics: fmt.italics, strike: fmt.strike });

/** Only web and mail links become hyperlinks; site-relative ones are made absolute when the site URL is known. */
export function linkTarget(href: string, siteUrl?: string): string | null {
  const h = href.trim();
  if (/^(https?:\/\/|mailto:)/i.test(h)) return h;
  if (siteUrl && h.startsWith("/") && !h.startsWith("//")) return siteUrl.replace(/\/+$/, "") + h;
  return null;
}

/** Lines joined by Word line breaks. */
function lines(text: string, fmt: Fmt): ParagraphChild[] {
  return text.split("\n").flatMap((line, i) => (i ? [new TextRun({ break: 1 }), run(line, fmt)] : [run(line, fmt)]));
}

/** Adds a footnote with these paragraphs and returns the run that refers to it. */
function footnote(ctx: DocxCtx, children: Paragraph[]): FootnoteReferenceRun {
  const id = ctx.nextFootnoteId++;
  ctx.footnotes[id] = { children };
  return new FootnoteReferenceRun(id);
}

/** The footnote text of a citation: the document's title and page, plus its reader URL. */
export function citationParagraph(ref: Reference, siteUrl?: string): Paragraph {
  const children: ParagraphChild[] = [new TextRun(`《${ref.title}》第 ${ref.page} 页`)];
  if (siteUrl) {
    const url = `${siteUrl.replace(/\/+$/, "")}/document/${encodeURIComponent(ref.uuid)}?page=${ref.page}`;
    children.push(new TextRun(" "), new ExternalHyperlink({ link: url, children: [new TextRun({ text: url, style: "Hyperlink" })] }));
  }
  return new Paragraph({ children });
}

function citation(t: CitationToken, ctx: DocxCtx, fmt: Fmt): ParagraphChild[] {
  const known = t.numbers.map((n) => (n >= 1 ? ctx.references[n - 1] : undefined));
  if (ctx.inFootnote || known.every((r) => !r)) return [run(t.raw, fmt)];
  return t.numbers.map((n, i) => (known[i] ? footnote(ctx, [citationParagraph(known[i]!, ctx.siteUrl)]) : run(`[${n}]`, fmt)));
}

/** Renders inline tokens with the given formatting. */
export function inline(tokens: Token[] | undefined, ctx: DocxCtx, fmt: Fmt = {}): ParagraphChild[] {
  const out: ParagraphChild[] = [];
  for (const t of tokens ?? []) {
    switch (t.type) {
      case "text": {
        const x = t as Tokens.Text;
        if (x.tokens?.length) out.push(...inline(x.tokens, ctx, fmt));
        else out.push(run(softBreaks(decodeEntities(x.text)), fmt));
        break;
      }
      case "escape":
        out.push(run((t as Tokens.Escape).text, fmt));
        break;
      case "strong":
        out.push(...inline((t as Tokens.Strong).tokens, ctx, { ...fmt, bold: true }));
        break;
      case "em":
        out.push(...inline((t as Tokens.Em).tokens, ctx, { ...fmt, italics: true }));
        break;
      case "del":
        out.push(...inline((t as Tokens.Del).tokens, ctx, { ...fmt, strike: true }));
        break;
      case "codespan":
        out.push(mono(decodeEntities((t as Tokens.Codespan).text), fmt));
        break;
      case "br":
        out.push(new TextRun({ break: 1 }));
        break;
      case "link": {
        const x = t as Tokens.Link;
        const target = linkTarget(x.href, ctx.siteUrl);
        const children = inline(x.tokens, ctx, target ? { ...fmt, link: true } : fmt);
        out.push(...(target ? [new ExternalHyperlink({ link: target, children })] : children));
        break;
      }
      case "image": {
        const x = t as Tokens.Image;
        const label = `[图片${x.text ? `：${x.text}` : ""}]`;
        const target = linkTarget(x.href, ctx.siteUrl);
        out.push(target ? new ExternalHyperlink({ link: target, children: [run(label, { ...fmt, link: true })] }) : run(label, fmt));
        break;
      }
      case "html":
        out.push(...lines(stripHtml(t.raw), fmt));
        break;
      case "math": {
        const m = t as unknown as MathToken;
        out.push(mathComponent(m.tex, false) ?? mono(m.tex, fmt));
        break;
      }
      case "footnoteRef": {
        const label = (t as unknown as FootnoteRefToken).label;
        const def = ctx.defs.get(label);
        if (!def || ctx.inFootnote) out.push(run(t.raw, fmt));
        else out.push(footnote(ctx, [new Paragraph({ children: inline(def, { ...ctx, inFootnote: true }) })]));
        break;
      }
      case "citation":
        out.push(...citation(t as unknown as CitationToken, ctx, fmt));
        break;
      case "checkbox":
        out.push(run((t as Tokens.Checkbox).checked ? "☑ " : "☐ ", fmt));
        break;
      default: {
        const x = t as { tokens?: Token[]; text?: string };
        if (x.tokens) out.push(...inline(x.tokens, ctx, fmt));
        else if (typeof x.text === "string") out.push(run(x.text, fmt));
      }
    }
  }
  return out;
}
