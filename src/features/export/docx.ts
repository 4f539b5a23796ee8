// Markdown (an AI answer) → .docx: walks the marked tokens into docx paragraphs; math becomes Word
// equations, `[^n]` footnotes and `[n]` citations become Word footnotes. No HTML passes through.
import { AlignmentType, Document, HeadingLevel, type ILevelsOptions, LevelFormat, Packer, Paragraph, TextRun } from "docx";
import { type BlockCtx, blocks } from "./docxBlocks.ts";
import type { Reference } from "./docxInline.ts";
import { collectFootnoteDefs, lexMarkdown } from "./markdown.ts";

export type { Reference } from "./docxInline.ts";

export interface DocxOptions {
  title?: string;
  /** the answer's references: citation `[n]` is `references[n - 1]` */
  references?: Reference[];
  /** the site's public URL, for links to a cited page */
  siteUrl?: string;
}

const FONT = { ascii: "Calibri", hAnsi: "Calibri", eastAsia: "Microsoft YaHei", cs: "Calibri" };

function orderedLevels(start: number): ILevelsOptions[] {
  return Array.from({ length: 9 }, (_, level) => ({
    level,
    format: LevelFormat.DECIMAL,
    text: `%${level + 1}.`,
    start,
    alignment: AlignmentType.START,
    style: { paragraph: { indent: { left: 720 * (level + 1), hanging: 360 } } },
  }));
}

export async function markdownToDocx(markdown: string, opts: DocxOptions = {}): Promise<Uint8Array> {
  const tokens = lexMarkdown(markdown);
  const ctx: BlockCtx = {
    defs: collectFootnoteDefs(tokens),
    references: opts.references ?? [],
    siteUrl: opts.siteUrl?.trim() || undefined,
    footnotes: {},
    nextFootnoteId: 1,
    orderedStarts: new Set(),
    listInstance: 0,
  };
  const body = blocks(tokens, ctx);
  const title = opts.title?.trim() || undefined;
  const children = title ? [new Paragraph({ heading: HeadingLevel.TITLE, children: [new TextRun(title)] }), ...body] : body;
  if (!children.length) children.push(new Paragraph({}));
  const doc = new Document({
    title,
    creator: "AI 助手",
    styles: { default: { document: { run: { font: FONT, size: 22 } } } },
    numbering: { config: [...ctx.orderedStarts].map((start) => ({ reference: `ol-${start}`, levels: orderedLevels(start) })) },
    footnotes: ctx.footnotes,
    sections: [{ children }],
  });
  return new Uint8Array(await Packer.toBuffer(doc));
}
