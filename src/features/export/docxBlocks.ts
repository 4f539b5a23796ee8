// Block markdown tokens → docx paragraphs and tables: headings, lists, code, quotes, tables, rules,
// display equations.
import { AlignmentType, BorderStyle, HeadingLevel, Paragraph, type ParagraphChild, Table, TableCell, TableRow, TextRun, WidthType } from "docx";
import type { Token, Tokens } from "marked";
import { CODE_SHADING, type DocxCtx, inline, MONO, run } from "./docxInline.ts";
import { mathComponent } from "./docxMath.ts";
import { type MathToken, stripHtml } from "./markdown.ts";

export type Block = Paragraph | Table;

export interface BlockCtx extends DocxCtx {
  /** start numbers of the ordered lists met: one numbering definition each (`ol-<start>`) */
  orderedStarts: Set<number>;
  /** one numbering instance per list, so every list counts from its own start */
  listInstance: number;
}

/** A4 with 1-inch margins: the text width in twentieths of a point. */
export const TEXT_WIDTH = 11906 - 2 * 1440;

const HEADINGS = [HeadingLevel.HEADING_1, HeadingLevel.HEADING_2, HeadingLevel.HEADING_3, HeadingLevel.HEADING_4, HeadingLevel.HEADING_5, HeadingLevel.HEADING_6];
const ALIGN = { left: AlignmentType.LEFT, center: AlignmentType.CENTER, right: AlignmentType.RIGHT } as const;

/** Paragraph properties of text inside `quote` levels of block quote: indented, grey bar on the left. */
function quoteProps(quote: number) {
  if (!quote) return {};
  return { indent: { left: 360 * quote }, border: { left: { style: BorderStyle.SINGLE, size: 18, color: "BFBFBF", space: 8 } } };
}

function displayMath(tex: string, quote: number): Paragraph {
  const eq = mathComponent(tex, true);
  if (eq) return new Paragraph({ ...quoteProps(quote), children: [eq] });
  // TeX that does not parse is kept as monospace text, centred like the equation would be.
  return new Paragraph({ ...quoteProps(quote), alignment: AlignmentType.CENTER, children: [new TextRun({ text: tex, font: MONO })] });
}

/** A paragraph that holds nothing but one display formula is an equation paragraph. */
function onlyDisplayMath(tokens: Token[] | undefined): MathToken | null {
  const parts = (tokens ?? []).filter((t) => !(t.type === "text" && !t.raw.trim()));
  return parts.length === 1 && parts[0]!.type === "math" && (parts[0] as unknown as MathToken).display ? (parts[0] as unknown as MathToken) : null;
}

function code(t: Tokens.Code, quote: number): Paragraph {
  const children: ParagraphChild[] = [];
  t.text.replace(/\t/g, "    ").split("\n").forEach((line, i) => {
    if (i) children.push(new TextRun({ break: 1 }));
    children.push(new TextRun({ text: line, font: MONO, size: 20 }));
  });
  return new Paragraph({ ...quoteProps(quote), shading: CODE_SHADING, spacing: { before: 120, after: 120, line: 276 }, children });
}

function table(t: Tokens.Table, ctx: BlockCtx): Table {
  const cols = Math.max(1, t.header.length);
  const colWidth = Math.floor(TEXT_WIDTH / cols);
  const cell = (c: Tokens.TableCell | undefined, header: boolean) =>
    new TableCell({
      width: { size: colWidth, type: WidthType.DXA },
      shading: header ? CODE_SHADING : undefined,
      children: [new Paragraph({ alignment: c?.align ? ALIGN[c.align] : undefined, children: inline(c?.tokens, ctx, header ? { bold: true } : {}) })],
    });
  const row = (cells: Tokens.TableCell[], header: boolean) =>
    new TableRow({ tableHeader: header, children: Array.from({ length: cols }, (_, i) => cell(cells[i], header)) });
  return new Table({
    width: { size: colWidth * cols, type: WidthType.DXA },
    columnWidths: Array(cols).fill(colWidth),
    rows: [row(t.header, true), ...t.rows.map((r) => row(r, false))],
  });
}

function list(t: Tokens.List, ctx: BlockCtx, quote: number, level: number): Block[] {
  const instance = ctx.listInstance++;
  const start = typeof t.start === "number" && t.start >= 0 ? t.start : 1;
  if (t.ordered) ctx.orderedStarts.add(start);
  const marker = t.ordered ? { numbering: { reference: `ol-${start}`, level, instance } } : { bullet: { level } };
  const out: Block[] = [];
  for (const item of t.items) {
    let first = true;
    let prefix: ParagraphChild[] = [];
    const para = (children: ParagraphChild[]) => {
      // The item's first paragraph carries the bullet or number; later ones are indented to match.
      const props = first ? marker : { indent: { left: 720 * (level + 1) } };
      out.push(new Paragraph({ ...quoteProps(quote), ...props, children: [...prefix, ...children] }));
      first = false;
      prefix = [];
    };
    for (const tok of item.tokens) {
      if (tok.type === "checkbox") prefix.push(run((tok as Tokens.Checkbox).checked ? "☑ " : "☐ "));
      else if (tok.type === "text" || tok.type === "paragraph") {
        const x = tok as Tokens.Text | Tokens.Paragraph;
        para(x.tokens ? inline(x.tokens, ctx) : [run(x.text)]);
      } else if (tok.type === "list") {
        if (first) para([]);
        out.push(...list(tok as Tokens.List, ctx, quote, Math.min(level + 1, 8)));
      } else if (tok.type !== "space") {
        if (first) para([]);
        out.push(...blocks([tok], ctx, quote));
      }
    }
    if (first) para([]);
  }
  return out;
}

/** Renders block tokens; `quote` is the block-quote depth. */
export function blocks(tokens: Token[], ctx: BlockCtx, quote = 0): Block[] {
  const out: Block[] = [];
  for (const t of tokens) {
    switch (t.type) {
      case "heading": {
        const h = t as Tokens.Heading;
        out.push(new Paragraph({ ...quoteProps(quote), heading: HEADINGS[Math.min(h.depth, 6) - 1], children: inline(h.tokens, ctx) }));
        break;
      }
      case "paragraph":
      case "text": {
        const x = t as Tokens.Paragraph | Tokens.Text;
        const m = onlyDisplayMath(x.tokens);
        if (m) out.push(displayMath(m.tex, quote));
        else out.push(new Paragraph({ ...quoteProps(quote), children: x.tokens ? inline(x.tokens, ctx) : [run(x.text)] }));
        break;
      }
      case "math":
        out.push(displayMath((t as unknown as MathToken).tex, quote));
        break;
      case "code":
        out.push(code(t as Tokens.Code, quote));
        break;
      case "blockquote":
        out.push(...blocks((t as Tokens.Blockquote).tokens, ctx, quote + 1));
        break;
      case "list":
        out.push(...list(t as Tokens.List, ctx, quote, 0));
        break;
      case "table":
        out.push(table(t as Tokens.Table, ctx));
        // Two tables in a row would merge into one in Word; a paragraph after each keeps them apart.
        out.push(new Paragraph({}));
        break;
      case "hr":
        out.push(new Paragraph({ border: { bottom: { style: BorderStyle.SINGLE, size: 6, color: "999999", space: 1 } }, children: [] }));
        break;
      case "html": {
        const text = stripHtml(t.raw).trim();
        if (text) out.push(new Paragraph({ ...quoteProps(quote), children: text.split("\n").flatMap((l, i) => (i ? [new TextRun({ break: 1 }), run(l)] : [run(l)])) }));
        break;
      }
      default:
        // space, def (link definitions), footnoteDef (collected beforehand): nothing to show here.
        break;
    }
  }
  return out;
}
