// TeX → MathML (temml) → OMML (mathml2omml) → a docx XmlComponent: real Word equations.
// docx takes no raw OMML, so the OMML string is parsed into an ImportedXmlComponent tree, which is
// written back verbatim inside the paragraph (the document and footnote roots declare `m:`).
import { ImportedXmlComponent, type ParagraphChild } from "docx";
import { mml2omml } from "mathml2omml";
import temml from "temml";
import { fixOmml } from "./ommlFix.ts";

const NS = /\s+xmlns:[a-z]+="[^"]*"/g;

// mathml2omml has no handler for these: wrappers become plain rows, phantoms (invisible) go.
const unsupported = (mathml: string) =>
  mathml.replace(/<mphantom\b[^>]*>[\s\S]*?<\/mphantom>/g, "").replace(/<(\/?)(?:mpadded|merror|maction)\b[^>]*>/g, "<$1mrow>");

/** mathml2omml warns on the console for every element it does not know; that is not a server log line. */
function quietly<T>(fn: () => T): T {
  const warn = console.warn;
  console.warn = () => {};
  try {
    return fn();
  } finally {
    console.warn = warn;
  }
}

/** OMML `<m:oMath>` (without namespace declarations) for a TeX formula, or null when it does not parse. */
export function texToOmml(tex: string): string | null {
  if (!tex.trim() || tex.length > 5000) return null;
  try {
    const mathml = temml
      .renderToString(tex, { xml: true, throwOnError: true, displayMode: false, trust: false, maxExpand: 500 })
      // temml's struts (zero-width mspace with a height) become stray spaces in OMML.
      .replace(/<mspace width="0pt"[^>]*><\/mspace>/g, "");
    // disableDecode keeps &lt; &amp; as entities so the OMML stays well-formed XML.
    const omml = quietly(() => mml2omml(unsupported(mathml), { disableDecode: true }));
    if (!omml.startsWith("<m:oMath")) return null;
    return fixOmml(omml.replace(NS, ""));
  } catch {
    return null;
  }
}

/** A Word equation as a paragraph child: `m:oMath` inline, `m:oMathPara` for display math. */
export function mathComponent(tex: string, display: boolean): ParagraphChild | null {
  const omml = texToOmml(tex);
  if (!omml) return null;
  const xml = display ? `<m:oMathPara>${omml}</m:oMathPara>` : omml;
  try {
    // The parsed tree is an XmlComponent; ParagraphChild is a closed union, hence the cast.
    return ImportedXmlComponent.fromXmlString(xml) as unknown as ParagraphChild;
  } catch {
    return null;
  }
}
