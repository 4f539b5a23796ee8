// Markdown tokens → a satori element tree (plain objects, no JSX). Text is only ever passed as strings
// (satori draws them as glyphs), so HTML in the markdown is stripped, never interpreted.
import type { Token, Tokens } from "marked";
import { type CitationToken, decodeEntities, type FootnoteDefToken, type MathToken, softBreaks, stripHtml } from "./markdown.ts";

export type Style = Record<string, string | number>;
export interface El {
  type: string;
  props: { style?: Style; children?: Child | Child[] };
}
type Child = El | string;

export const el = (type: string, style: Style, children?: Child | Child[]): El => ({ type, props: { style, children } });

const CODE_BG = "#f3f4f6";
const HEADING_SIZE = [26, 22, 19, 17, 16, 15];

/** Stops adding blocks once this many characters are laid out: more could never fit the height cap. */
export interface Budget {
  left: number;
  truncated: boolean;
}

/** Inline tokens as a flat list of text segments, each with its own style (satori lays out spans inline). */
function segments(tokens: Token[] | undefined, style: Style, out: { text: string; style: Style }[] = []) {
  const push = (text: string, s: Style = style) => text && out.push({ text, style: s });
  for (const t of tokens ?? []) {
    const x = t as Token & { tokens?: Token[]; text?: string };
    switch (t.type) {
      case "strong":
        segments(x.tokens, { ...style, fontWeight: 700 }, out);
        break;
      case "em":
        segments(x.tokens, { ...style, fontStyle: "italic", color: "#374151" }, out);
        break;
      case "del":
        segments(x.tokens, { ...style, textDecoration: "line-through" }, out);
        break;
      case "codespan":
        push(decodeEntities(x.text ?? ""), { ...style, backgroundColor: CODE_BG, color: "#b91c1c" });
        break;
      case "link":
        segments(x.tokens, { ...style, color: "#2563eb" }, out);
        break;
      case "math": {
        const m = t as unknown as MathToken;
        push(m.tex, { ...style, backgroundColor: CODE_BG, color: "#1f2937" });
        break;
      }
      case "citation":
        push(`[${(t as unknown as CitationToken).numbers.join(",")}]`, { ...style, color: "#2563eb", fontSize: 12 });
        break;
      case "html":
        push(stripHtml(t.raw));
        break;
      case "br":
        push("\n");
        break;
      case "image":
        push(`[图片${x.text ? `：${x.text}` : ""}]`, { ...style, color: "#6b7280" });
        break;
      case "checkbox":
        push((t as Tokens.Checkbox).checked ? "■ " : "□ ");
        break;
      case "text":
        if (x.tokens?.length) segments(x.tokens, style, out);
        else push(softBreaks(decodeEntities(x.text ?? "")));
        break;
      default:
        if (x.tokens) segments(x.tokens, style, out);
        else push(decodeEntities(x.text ?? t.raw ?? ""));
    }
  }
  return out;
}

// Noto Sans SC has no emoji: they would be drawn as empty boxes.
const EMOJI = /[\p{Extended_Pictographic}\u{1F1E6}-\u{1F1FF}\uFE0F\u200D]/gu;

/** Inline text `width` px wide; satori ignores "\n" in text, so each line is its own block. */
function textBlock(tokens: Token[] | undefined, style: Style, width: number, budget: Budget): El {
  const lines: Child[][] = [[]];
  for (const s of segments(tokens, {})) {
    budget.left -= s.text.length;
    s.text.replace(EMOJI, "").split("\n").forEach((part, i) => {
      if (i) lines.push([]);
      if (part) lines.at(-1)!.push(Object.keys(s.style).length ? el("span", s.style, part) : part);
    });
  }
  const line = (children: Child[]) => el("div", { display: "block", width, whiteSpace: "pre-wrap" }, children.length ? children : " ");
  if (lines.length === 1) return el("div", { display: "block", width, ...style }, lines[0]);
  return el("div", { display: "flex", flexDirection: "column", width, ...style }, lines.map(line));
}

function list(t: Tokens.List, width: number, budget: Budget): El {
  const start = typeof t.start === "number" ? t.start : 1;
  const rows = t.items.map((item, i) =>
    el("div", { display: "flex", width, marginBottom: 4 }, [
      el("div", { display: "flex", width: 26, flexShrink: 0, color: "#6b7280" }, t.ordered ? `${start + i}.` : "•"),
      el("div", { display: "flex", flexDirection: "column", width: width - 26 }, itemBlocks(item.tokens, width - 26, budget)),
    ]),
  );
  return el("div", { display: "flex", flexDirection: "column", width, marginBottom: 8 }, rows);
}

function itemBlocks(tokens: Token[], width: number, budget: Budget): El[] {
  // A tight item's text comes as `text` tokens; a task item's checkbox precedes it.
  const merged: Token[] = [];
  let pending: Token[] = [];
  for (const t of tokens) {
    if (t.type === "checkbox") pending.push(t);
    else if (t.type === "text") {
      merged.push({ type: "paragraph", raw: t.raw, text: t.raw, tokens: [...pending, ...((t as Tokens.Text).tokens ?? [t])] } as Tokens.Paragraph);
      pending = [];
    } else merged.push(t);
  }
  return blocks(merged, width, budget, true);
}

function table(t: Tokens.Table, width: number, budget: Budget): El {
  const cols = Math.max(1, t.header.length);
  const inner = width - 2;
  const w = Math.floor(inner / cols);
  const row = (cells: Tokens.TableCell[], header: boolean, last: boolean) =>
    el(
      "div",
      { display: "flex", width: inner, backgroundColor: header ? CODE_BG : "#ffffff", borderBottom: last ? "0px solid #fff" : "1px solid #e5e7eb" },
      Array.from({ length: cols }, (_, i) =>
        el("div", { display: "flex", width: w - 17, padding: "6px 8px", borderLeft: i ? "1px solid #e5e7eb" : "1px solid transparent" }, [
          textBlock(cells[i]?.tokens, { fontWeight: header ? 700 : 400, fontSize: 14, lineHeight: 1.5 }, w - 17, budget),
        ]),
      ),
    );
  return el("div", { display: "flex", flexDirection: "column", width: inner, border: "1px solid #e5e7eb", marginBottom: 12 }, [
    row(t.header, true, !t.rows.length),
    ...t.rows.map((r, i) => row(r, false, i === t.rows.length - 1)),
  ]);
}

/** Block tokens → elements `width` px wide, until the character budget is used up. */
export function blocks(tokens: Token[], width: number, budget: Budget, tight = false): El[] {
  const out: El[] = [];
  const gap = tight ? 2 : 10;
  for (const t of tokens) {
    if (budget.left <= 0) {
      budget.truncated = true;
      break;
    }
    switch (t.type) {
      case "heading": {
        const h = t as Tokens.Heading;
        out.push(textBlock(h.tokens, { fontSize: HEADING_SIZE[h.depth - 1] ?? 16, fontWeight: 700, marginTop: 6, marginBottom: 8 }, width, budget));
        break;
      }
      case "paragraph":
      case "text":
        out.push(textBlock((t as Tokens.Paragraph).tokens ?? [t], { marginBottom: gap }, width, budget));
        break;
      case "math": {
        const tex = (t as unknown as MathToken).tex;
        budget.left -= tex.length;
        out.push(el("div", { display: "block", textAlign: "center", width, marginBottom: 10, color: "#1f2937" }, tex));
        break;
      }
      case "code": {
        const text = (t as Tokens.Code).text.replace(/\t/g, "    ");
        budget.left -= text.length;
        // Sizes are content-box in satori: padding comes off the width.
        const lines = text.split("\n").map((l) => el("div", { display: "block", width: width - 24, whiteSpace: "pre-wrap", wordBreak: "break-all" }, l.replace(EMOJI, "") || " "));
        out.push(el("div", { display: "flex", flexDirection: "column", width: width - 24, padding: 12, marginBottom: 10, backgroundColor: CODE_BG, borderRadius: 6, fontSize: 13, lineHeight: 1.5 }, lines));
        break;
      }
      case "blockquote":
        out.push(el("div", { display: "flex", flexDirection: "column", width: width - 16, paddingLeft: 12, borderLeft: "4px solid #d1d5db", color: "#4b5563", marginBottom: 10 }, blocks((t as Tokens.Blockquote).tokens, width - 16, budget)));
        break;
      case "list":
        out.push(list(t as Tokens.List, width, budget));
        break;
      case "table":
        out.push(table(t as Tokens.Table, width, budget));
        break;
      case "hr":
        out.push(el("div", { display: "flex", width, height: 1, backgroundColor: "#e5e7eb", marginTop: 6, marginBottom: 14 }));
        break;
      case "html": {
        const text = stripHtml(t.raw).trim();
        if (text) out.push(textBlock([{ type: "text", raw: text, text } as Tokens.Text], { marginBottom: gap }, width, budget));
        break;
      }
      case "footnoteDef": {
        const d = t as unknown as FootnoteDefToken;
        out.push(textBlock([{ type: "text", raw: "", text: `[^${d.label}] ` } as Tokens.Text, ...d.tokens], { fontSize: 13, color: "#6b7280", marginBottom: 4 }, width, budget));
        break;
      }
      default:
        break;
    }
  }
  return out;
}
