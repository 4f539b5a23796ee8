// The second wall behind the markdown renderer (which already shows raw HTML as text): an
// allow-list configuration of sanitize-html. Whatever reaches it is parsed and re-serialised, so
// only the tags, attributes, classes and styles listed here leave it, every text and attribute
// re-escaped. Doubtful things are dropped, never repaired: dropping more than a browser would is
// always safe, keeping more never is.
import sanitize from "sanitize-html";

/** Where article images live (attachments of type 3, stored by the attachment service). */
export const ARTICLE_IMAGE = /^\/uploads\/article\/(?:[\w-]+\/)*[\w-]+\.(?:png|jpe?g|gif|webp)$/i;
// "h-" keeps a heading's id from shadowing a page global (window.location, document.cookie…).
const HEADING_ID = /^h-[\p{L}\p{N}_-]{1,100}$/u;

const HTML_TAGS = [
  "p", "br", "hr", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "code", "kbd", "samp", "ul", "ol", "li", "dl", "dt", "dd",
  "table", "thead", "tbody", "tfoot", "tr", "th", "td", "caption", "div", "span", "a", "img", "strong", "b", "em", "i", "del", "s",
  "ins", "u", "mark", "sup", "sub", "small", "abbr", "input", "figure", "figcaption", "details", "summary", "wbr",
];

// What temml writes. No maction (status-line tricks), no annotation-xml (it parses its content as
// HTML), no attribute that holds a URL.
const MATHML_TAGS = [
  "math", "semantics", "annotation", "mrow", "mi", "mn", "mo", "ms", "mtext", "mspace", "msqrt", "mroot", "mfrac", "msub", "msup",
  "msubsup", "munder", "mover", "munderover", "mmultiscripts", "mprescripts", "none", "mtable", "mtr", "mtd", "mlabeledtr", "mpadded",
  "mphantom", "menclose", "mstyle", "merror",
];
const MATHML_ATTRS = [
  "mathvariant", "displaystyle", "scriptlevel", "fence", "stretchy", "separator", "accent", "accentunder", "lspace", "rspace", "width",
  "height", "depth", "voffset", "linethickness", "columnalign", "rowalign", "columnspacing", "rowspacing", "columnlines", "rowlines",
  "frame", "framespacing", "equalrows", "equalcolumns", "align", "movablelimits", "largeop", "symmetric", "minsize", "maxsize", "form",
  "notation", "mathcolor", "mathbackground", "encoding", "lquote", "rquote", "bevelled", "numalign", "denomalign", "side", "columnspan",
  "rowspan", "mathsize", "style",
];
// temml's stylesheet classes (tml-display, tml-sml-pad, wbk-sml-acc, chr-sml, ff-narrow…).
const MATHML_CLASSES = ["tml-*", "wbk-*", "chr-*", "ff-*", "phasor-bottom", "longdiv-top", "circle-pad", "actuarial", "upstrike", "downstrike", "sout", "mord"];

// temml's inline styles: colours, spacing, borders. Nothing that can load (url), move or overlay
// (position, transform) the page, and values made of plain tokens only.
const CSS_VALUE = [/^[#a-z0-9 .%-]{1,60}$/i];
const MATH_STYLES: Record<string, RegExp[]> = Object.fromEntries(
  [
    "color", "background-color", "padding", "padding-left", "padding-right", "padding-top", "padding-bottom", "border", "border-top",
    "border-bottom", "border-left", "border-right", "border-width", "border-style", "border-color", "math-depth", "math-style",
    "font-weight", "font-style", "vertical-align", "text-decoration",
  ].map((p) => [p, CSS_VALUE]),
);

// Elements whose content never reaches the page either: raw text, scripts' fallbacks, foreign
// documents. Other refused elements keep their text.
const DROP_CONTENT = [
  "script", "style", "textarea", "option", "xmp", "noscript", "noembed", "noframes", "iframe", "title", "template", "svg", "object",
  "applet", "select", "video", "audio", "canvas", "head", "form", "button", "map",
];

// A refused element becomes a bare span holding only the text given, not an unlisted tag:
// sanitize-html (2.18) keeps the renaming of a dropped element, writes a later sibling's end tag
// under that name and loses the text after it.
const refuse = (text?: string): sanitize.Tag => ({ tagName: "span", attribs: {}, text: text || undefined });

/** Browsers ignore C0 controls and spaces inside a scheme ("java\tscript:"). */
const scheme = (url: string) => /^([a-z][a-z0-9+.-]*):/i.exec(url.replace(/[\u0000-\u0020]+/g, ""))?.[1]?.toLowerCase();

const ALIGN = /^(?:left|center|right)$/;

/** Drops the listed attributes whose value does not match; the others go on to the allow-list. */
const onlyValues = (rules: Record<string, RegExp>): sanitize.Transformer => (tagName, attribs) => ({
  tagName,
  attribs: Object.fromEntries(Object.entries(attribs).filter(([k, v]) => !rules[k] || rules[k].test(v))),
});

function options(images: ReadonlySet<string> | undefined): sanitize.IOptions {
  return {
    allowedTags: [...HTML_TAGS, ...MATHML_TAGS],
    disallowedTagsMode: "discard",
    nonTextTags: DROP_CONTENT,
    allowedAttributes: {
      a: ["href", "title", "target", "rel"],
      img: ["src", "alt", "title", "width", "height", "loading"],
      input: ["type", "checked", "disabled"],
      ol: ["start"],
      td: ["align"],
      th: ["align"],
      abbr: ["title"],
      ...Object.fromEntries(["h2", "h3", "h4", "h5", "h6"].map((h) => [h, ["id"]])),
      ...Object.fromEntries(MATHML_TAGS.map((t) => [t, MATHML_ATTRS])),
      math: [...MATHML_ATTRS, "display", "xmlns"],
    },
    allowedClasses: {
      a: ["heading-anchor"],
      code: ["language-*"],
      span: ["hl-*", "math", "math-tex"],
      div: ["math", "math-display", "math-tex", "md-table"],
      ...Object.fromEntries(MATHML_TAGS.map((t) => [t, MATHML_CLASSES])),
    },
    allowedStyles: Object.fromEntries(MATHML_TAGS.map((t) => [t, MATH_STYLES])),
    // Site-relative URLs and these schemes only; "//host" and "\\host" are other sites in disguise.
    allowedSchemes: ["http", "https", "mailto"],
    allowedSchemesByTag: { img: [] },
    allowProtocolRelative: false,
    transformTags: {
      a: (_tag, { href, title, class: cls }) => {
        const attribs: sanitize.Attributes = {};
        if (cls) attribs.class = cls;
        if (href !== undefined) attribs.href = href;
        if (title) attribs.title = title;
        const s = href === undefined ? undefined : scheme(href);
        // Other sites get no referrer, no ranking and no handle on this window.
        if (s === "http" || s === "https") Object.assign(attribs, { target: "_blank", rel: "nofollow noopener noreferrer" });
        else if (s === "mailto") attribs.rel = "nofollow noopener";
        return { tagName: "a", attribs };
      },
      img: (_tag, { src = "", alt = "", title, width, height }) => {
        const path = src.trim();
        // A refused image still says what it showed.
        if (!ARTICLE_IMAGE.test(path) || (images && !images.has(path))) return refuse(alt);
        const attribs: sanitize.Attributes = { src: path, alt };
        if (title) attribs.title = title;
        if (width && /^\d{1,4}$/.test(width)) attribs.width = width;
        if (height && /^\d{1,4}$/.test(height)) attribs.height = height;
        attribs.loading = "lazy";
        return { tagName: "img", attribs };
      },
      // GFM task lists only: a checkbox nobody can tick.
      input: (_tag, attribs) =>
        (attribs.type ?? "").toLowerCase() === "checkbox"
          ? { tagName: "input", attribs: { type: "checkbox", ...("checked" in attribs ? { checked: "" } : {}), disabled: "" } }
          : refuse(),
      ...Object.fromEntries(["h2", "h3", "h4", "h5", "h6"].map((h) => [h, (tag: string, { id }: sanitize.Attributes): sanitize.Tag => ({
        tagName: tag,
        attribs: id && HEADING_ID.test(id) ? { id } : {},
      })])),
      // sanitize-html's own value lists leave a bare attribute name behind on a mismatch.
      td: onlyValues({ align: ALIGN }),
      th: onlyValues({ align: ALIGN }),
      math: onlyValues({ display: /^(?:block|inline)$/, xmlns: /^http:\/\/www\.w3\.org\/1998\/Math\/MathML$/ }),
    },
    // A link whose URL was refused is its text, not a dead <a>.
    exclusiveFilter: (frame) => (frame.tag === "a" && !frame.attribs.href ? "excludeTag" : false),
  };
}

const PATTERN_ONLY = options(undefined);

/**
 * Keeps only allow-listed markup of `html`. `images` are the article attachments that may show;
 * without it an image path of the attachments' shape is enough (markup checked on its own).
 */
export function sanitizeHtml(html: string, images?: ReadonlySet<string>): string {
  return sanitize(String(html ?? ""), images ? options(images) : PATTERN_ONLY);
}
