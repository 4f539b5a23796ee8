// Allow-list HTML sanitiser for rendered articles. The renderer already escapes raw HTML from the
// markdown; this pass is the second wall: whatever reaches it, only the tags and attributes listed
// here leave it, re-serialised (every attribute re-quoted and escaped, every text re-escaped, every
// element closed), so the browser parses exactly the tree checked here. Anything doubtful is dropped:
// dropping more than a browser would is always safe, keeping more never is.

const ESC: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
const escapeAttr = (s: string) => s.replace(/[&<>"]/g, (c) => ESC[c]!);
// Text keeps well-formed character references (they decode to text, never to markup).
const escapeText = (s: string) => s.replace(/\0/g, "").replace(/[<>]/g, (c) => ESC[c]!).replace(/&(?!#\d{1,7};|#x[0-9a-f]{1,6};|[a-z][a-z0-9]{1,31};)/gi, "&amp;");

const VOID = new Set(["br", "hr", "img", "input", "wbr"]);

const HTML_TAGS = new Set([
  "p", "br", "hr", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "code", "kbd", "samp", "ul", "ol", "li", "dl", "dt", "dd",
  "table", "thead", "tbody", "tfoot", "tr", "th", "td", "caption", "div", "span", "a", "img", "strong", "b", "em", "i", "del", "s",
  "ins", "u", "mark", "sup", "sub", "small", "abbr", "input", "figure", "figcaption", "details", "summary", "wbr",
]);

// What temml writes. No maction (status-line tricks) and no attribute that holds a URL.
const MATHML_TAGS = new Set([
  "math", "semantics", "annotation", "mrow", "mi", "mn", "mo", "ms", "mtext", "mspace", "msqrt", "mroot", "mfrac", "msub", "msup",
  "msubsup", "munder", "mover", "munderover", "mmultiscripts", "mprescripts", "none", "mtable", "mtr", "mtd", "mlabeledtr", "mpadded",
  "mphantom", "menclose", "mstyle", "merror",
]);
const MATHML_ATTRS = new Set([
  "mathvariant", "displaystyle", "scriptlevel", "fence", "stretchy", "separator", "accent", "accentunder", "lspace", "rspace", "width",
  "height", "depth", "voffset", "linethickness", "columnalign", "rowalign", "columnspacing", "rowspacing", "columnlines", "rowlines",
  "frame", "framespacing", "equalrows", "equalcolumns", "align", "movablelimits", "largeop", "symmetric", "minsize", "maxsize", "form",
  "notation", "mathcolor", "mathbackground", "encoding", "lquote", "rquote", "bevelled", "numalign", "denomalign", "side", "columnspan",
  "rowspan", "mathsize",
]);
const MATH_VALUE = /^[\w#.,%:+ -]{0,120}$/;

// Whole subtrees that never reach the page: raw-text elements end at their first closing tag (as
// browsers parse them); the others end at the matching closing tag, counting nested ones.
const RAW_TEXT = new Set(["script", "style", "xmp", "iframe", "noembed", "noframes", "noscript", "textarea", "title"]);
const DROP_SUBTREE = new Set(["svg", "object", "applet", "template", "frameset", "select", "video", "audio", "canvas", "head", "form", "button", "map"]);

const CLASS = /^[A-Za-z0-9_ -]{1,200}$/;
const HEADING_ID = /^h-[\p{L}\p{N}_-]{1,100}$/u;
export const ARTICLE_IMAGE = /^\/uploads\/article\/(?:[\w-]+\/)*[\w-]+\.(?:png|jpe?g|gif|webp)$/i;

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", colon: ":", tab: "\t", newline: "\n", nbsp: "\u00a0", sol: "/", lpar: "(", rpar: ")", period: ".", comma: "," };

/** An attribute value as the browser will see it (numeric references and the common named ones). */
export function decodeAttr(v: string): string {
  return v
    .replace(/&#(?:x([0-9a-f]+)|(\d+));?/gi, (_, hex: string | undefined, dec: string | undefined) => {
      const n = hex ? parseInt(hex, 16) : Number(dec);
      return n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : "\ufffd";
    })
    .replace(/&([a-z]+);?/gi, (m, name: string) => NAMED[name.toLowerCase()] ?? m);
}

/**
 * A URL attribute checked the way browsers resolve it: controls and spaces stripped, no scheme but
 * http(s)/mailto, no protocol-relative (`//x`, `\\x`) target. Answers the decoded value or null.
 */
export function checkUrl(raw: string, schemes: RegExp = /^(?:https?|mailto)$/i): string | null {
  const value = decodeAttr(raw).trim();
  const bare = value.replace(/[\u0000-\u0020\u007f-\u009f\u00a0\u1680\u2000-\u200f\u2028\u2029\u202f\u205f\u3000\ufeff]/g, "");
  if (!bare) return null;
  // A named reference this decoder does not know could hide the scheme: refuse it before the path.
  if (/&/.test(bare.split(/[/?#]/)[0]!)) return null;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(bare);
  if (scheme) return schemes.test(scheme[1]!) ? value : null;
  if (/^[/\\]{2}/.test(bare) || /^\/?\\/.test(bare)) return null;
  return value;
}

const isExternal = (href: string) => /^(?:https?:|mailto:)/i.test(href.trim());

const CSS_PROPS = new Set([
  "color", "background-color", "padding", "padding-left", "padding-right", "padding-top", "padding-bottom", "border", "border-top",
  "border-bottom", "border-left", "border-right", "border-width", "border-style", "border-color", "math-depth", "math-style",
  "font-weight", "font-style", "vertical-align", "text-decoration",
]);

/** temml's inline styles (colours, padding, borders) with anything that could load, move or overlay dropped. */
export function cleanStyle(style: string): string {
  const out: string[] = [];
  for (const decl of decodeAttr(style).split(";")) {
    const i = decl.indexOf(":");
    if (i < 0) continue;
    const prop = decl.slice(0, i).trim().toLowerCase();
    const value = decl.slice(i + 1).trim();
    if (CSS_PROPS.has(prop) && /^[#a-z0-9 .%-]{1,60}$/i.test(value)) out.push(`${prop}:${value};`);
  }
  return out.join("");
}

type Attrs = [string, string][];

/** Allowed attributes of one element, in output form; null drops the element itself. */
function cleanAttrs(tag: string, attrs: Attrs): string | null {
  const seen = new Map<string, string>();
  for (const [k, v] of attrs) if (!seen.has(k)) seen.set(k, v);
  const out: [string, string][] = [];
  const cls = seen.get("class");
  if (cls !== undefined && CLASS.test(cls.trim())) out.push(["class", cls.trim()]);
  if (MATHML_TAGS.has(tag)) {
    for (const [k, v] of seen) {
      if (k === "style") {
        const s = cleanStyle(v);
        if (s) out.push(["style", s]);
      } else if (MATHML_ATTRS.has(k) && MATH_VALUE.test(decodeAttr(v))) out.push([k, decodeAttr(v)]);
      else if (tag === "math" && k === "display" && /^(?:block|inline)$/.test(v)) out.push([k, v]);
      else if (tag === "math" && k === "xmlns" && v === "http://www.w3.org/1998/Math/MathML") out.push([k, v]);
    }
    return render(out);
  }
  switch (tag) {
    case "a": {
      const href = seen.has("href") ? checkUrl(seen.get("href")!) : null;
      if (href !== null) {
        out.push(["href", href]);
        if (isExternal(href)) out.push(["target", "_blank"], ["rel", "nofollow noopener noreferrer"]);
      }
      if (seen.has("title")) out.push(["title", decodeAttr(seen.get("title")!)]);
      return render(out);
    }
    case "img": {
      const src = seen.has("src") ? checkUrl(seen.get("src")!, /^$/) : null;
      if (src === null || !ARTICLE_IMAGE.test(src)) return null;
      out.push(["src", src], ["alt", decodeAttr(seen.get("alt") ?? "")]);
      if (seen.has("title")) out.push(["title", decodeAttr(seen.get("title")!)]);
      for (const k of ["width", "height"]) if (/^\d{1,4}$/.test(seen.get(k) ?? "")) out.push([k, seen.get(k)!]);
      out.push(["loading", "lazy"]);
      return render(out);
    }
    case "input":
      // GFM task lists only: a checkbox nobody can tick.
      if ((seen.get("type") ?? "").toLowerCase() !== "checkbox") return null;
      return render([["type", "checkbox"], ...(seen.has("checked") ? ([["checked", ""]] as Attrs) : []), ["disabled", ""]]);
    case "ol":
      if (/^\d{1,9}$/.test(seen.get("start") ?? "")) out.push(["start", seen.get("start")!]);
      return render(out);
    case "td":
    case "th":
      if (/^(?:left|center|right)$/.test(seen.get("align") ?? "")) out.push(["align", seen.get("align")!]);
      return render(out);
    case "abbr":
      if (seen.has("title")) out.push(["title", decodeAttr(seen.get("title")!)]);
      return render(out);
    default:
      if (/^h[2-6]$/.test(tag) && HEADING_ID.test(seen.get("id") ?? "")) out.push(["id", seen.get("id")!]);
      return render(out);
  }
}

const render = (attrs: Attrs) => attrs.map(([k, v]) => (v === "" && (k === "checked" || k === "disabled") ? ` ${k}` : ` ${k}="${escapeAttr(v)}"`)).join("");

interface Tag { name: string; attrs: Attrs; selfClosing: boolean; end: number }

/** The start tag at `at` (s[at] === "<", a letter follows), or null when the input ends inside it. */
function readStartTag(s: string, at: number): Tag | null {
  let i = at + 1;
  const nameEnd = s.slice(i).search(/[\s/>]/);
  if (nameEnd < 0) return null;
  const name = s.slice(i, i + nameEnd).toLowerCase();
  i += nameEnd;
  const attrs: Attrs = [];
  let selfClosing = false;
  while (i < s.length) {
    const c = s[i]!;
    if (c === ">") return { name, attrs, selfClosing, end: i + 1 };
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === "/") {
      selfClosing = s[i + 1] === ">";
      i++;
      continue;
    }
    // Attribute name: up to whitespace, "/", ">" or "=" (a leading "=" belongs to the name, as in browsers).
    const m = /^=?[^\s/>=]*/.exec(s.slice(i))!;
    const key = m[0].toLowerCase();
    i += m[0].length;
    while (i < s.length && /\s/.test(s[i]!)) i++;
    let value = "";
    if (s[i] === "=") {
      i++;
      while (i < s.length && /\s/.test(s[i]!)) i++;
      const q = s[i];
      if (q === '"' || q === "'") {
        const close = s.indexOf(q, i + 1);
        if (close < 0) return null;
        value = s.slice(i + 1, close);
        i = close + 1;
      } else {
        const v = /^[^\s>]*/.exec(s.slice(i))![0];
        value = v;
        i += v.length;
      }
    }
    selfClosing = false;
    if (key) attrs.push([key, value]);
  }
  return null;
}

/** Index just past the closing tag of a raw-text element, or the end of the input. */
function skipRawText(s: string, from: number, name: string): number {
  const re = new RegExp(`</${name}[\\s/>]`, "ig");
  re.lastIndex = from;
  const m = re.exec(s);
  if (!m) return s.length;
  const gt = s.indexOf(">", m.index);
  return gt < 0 ? s.length : gt + 1;
}

/** Keeps only allow-listed markup of `html`; the result is balanced and safe to put in a page. */
export function sanitizeHtml(html: string): string {
  const s = String(html ?? "");
  let out = "";
  const open: string[] = [];
  // While > 0, everything is inside a dropped subtree of `dropName`.
  let dropDepth = 0;
  let dropName = "";
  let i = 0;
  const emitText = (t: string) => {
    if (!dropDepth && t) out += escapeText(t);
  };
  while (i < s.length) {
    const lt = s.indexOf("<", i);
    if (lt < 0) {
      emitText(s.slice(i));
      break;
    }
    emitText(s.slice(i, lt));
    const next = s[lt + 1] ?? "";
    if (s.startsWith("<!--", lt)) {
      const end = s.indexOf("-->", lt + 4);
      i = end < 0 ? s.length : end + 3;
    } else if (next === "!" || next === "?") {
      const end = s.indexOf(">", lt);
      i = end < 0 ? s.length : end + 1;
    } else if (next === "/") {
      const end = s.indexOf(">", lt);
      i = end < 0 ? s.length : end + 1;
      const m = /^<\/([a-z][^\s/>]*)/i.exec(s.slice(lt, i));
      if (!m || end < 0) continue;
      const name = m[1]!.toLowerCase();
      if (dropDepth) {
        if (name === dropName) dropDepth--;
        continue;
      }
      const at = open.lastIndexOf(name);
      if (at < 0) continue;
      while (open.length > at) out += `</${open.pop()}>`;
    } else if (/[a-z]/i.test(next)) {
      const tag = readStartTag(s, lt);
      if (!tag) break;
      i = tag.end;
      const name = tag.name;
      if (name === "plaintext") break;
      if (RAW_TEXT.has(name)) {
        i = skipRawText(s, i, name);
        continue;
      }
      if (dropDepth) {
        if (name === dropName && !tag.selfClosing) dropDepth++;
        continue;
      }
      if (DROP_SUBTREE.has(name)) {
        if (!tag.selfClosing) (dropDepth = 1), (dropName = name);
        continue;
      }
      if (!HTML_TAGS.has(name) && !MATHML_TAGS.has(name)) continue;
      const attrs = cleanAttrs(name, tag.attrs);
      if (attrs === null) {
        // A refused image still says what it showed.
        const alt = name === "img" ? tag.attrs.find(([k]) => k === "alt")?.[1] : undefined;
        if (alt) out += escapeText(decodeAttr(alt));
        continue;
      }
      out += `<${name}${attrs}>`;
      if (VOID.has(name)) continue;
      if (tag.selfClosing && MATHML_TAGS.has(name)) out += `</${name}>`;
      else open.push(name);
    } else {
      emitText("<");
      i = lt + 1;
    }
  }
  while (open.length) out += `</${open.pop()}>`;
  return out;
}
